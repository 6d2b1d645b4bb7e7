// A component's stylesheet, linked into the page once, by whichever component comes first:
// `ensureStylesheet('live-text')` links `live-text.css` from the `css` folder beside this
// module's (`/ui/css/`, or `/ui/v/{version}/css/` when the page named a version) as `#live-text-styles`.

/** Links `{name}.css` of the web app's `css` folder into `document` unless it is there already. */
export function ensureStylesheet(name, document = globalThis.document) {
  const id = `${name}-styles`;
  if (document.getElementById(id)) return;
  const link = document.createElement('link');
  link.id = id;
  link.rel = 'stylesheet';
  link.href = new URL(`../css/${name}.css`, import.meta.url).href;
  document.head.append(link);
}
