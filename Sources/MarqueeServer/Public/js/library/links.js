// Links from the library to the player keep the page's language: `/?lang=ja` leads to
// players in Japanese, as the library itself is.

/** `url` (a path, maybe with a query) with `extra` query entries and the page's `?lang=`. */
export function playerLink(url, extra = {}, search = globalThis.location?.search ?? '') {
  const target = new URL(url, 'http://page.invalid');
  for (const [name, value] of Object.entries(extra)) target.searchParams.set(name, value);
  const lang = new URLSearchParams(search).get('lang');
  if (lang && !target.searchParams.has('lang')) target.searchParams.set('lang', lang);
  return target.pathname + target.search + target.hash;
}

/** The link a library card opens: the player, resuming where the viewer stopped if they did. */
export function assetLink(asset, search) {
  return playerLink(asset.playerURL, asset.playback?.resumeTime ? { resume: '1' } : {}, search);
}
