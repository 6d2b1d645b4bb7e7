// Where an interstitial's playback manifest is. A library ad plays from its JSON manifest; a
// Marquee HLS URL (`/media/{id}/master.m3u8`, a library asset's) maps to the same; an asset list (`X-ASSET-LIST`) is
// fetched now, when the break starts, and its first asset used. Anything else cannot play in
// this page's loader: the error is reported and the session skips the break.

const MEDIA = /^\/media\/([^/]+)\/master\.m3u8$/;

function manifestFor(uri, base) {
  const url = new URL(uri, base);
  if (url.origin === location.origin) {
    if (url.pathname.endsWith('/manifest.json')) return url.pathname;
    const media = MEDIA.exec(url.pathname);
    if (media) return `/api/assets/${media[1]}/manifest.json`;
  }
  throw new Error(`cannot play ${uri} in this player`);
}

/** The manifest URL to load for `event` (resolving its asset list first, if it has one). */
export async function interstitialManifestURL(event) {
  if (event.assetListURL) {
    const response = await fetch(event.assetListURL);
    if (!response.ok) throw new Error(`asset list: HTTP ${response.status}`);
    const list = await response.json();
    const first = list?.ASSETS?.[0]?.URI;
    if (!first) throw new Error('asset list has no ASSETS');
    return manifestFor(first, new URL(event.assetListURL, location.href));
  }
  return manifestFor(event.url, location.href);
}
