// A component's stylesheet, linked into the page once, by whichever component comes first:
// `ensureStylesheet('live-text')` links `/ui/css/live-text.css` as `#live-text-styles`.

/** Links `/ui/css/{name}.css` into `document` unless it is there already. */
export function ensureStylesheet(name, document = globalThis.document) {
  const id = `${name}-styles`;
  if (document.getElementById(id)) return;
  const link = document.createElement('link');
  link.id = id;
  link.rel = 'stylesheet';
  link.href = `/ui/css/${name}.css`;
  document.head.append(link);
}
