// What an interstitial plays, as the JSON playback manifest the MSE loader takes. The server
// makes every manifest (JavaScript never parses a playlist): `…/interstitials/{event}/manifest
// ?url=…` answers a library asset's own manifest for a path on this server, and builds an
// external HLS ad's from its playlists, its segments relayed through this server (the page
// may only connect to its own server); a `manifest.json` URL is fetched as it is. The browser
// only says which variants it can decode (`MediaSource.isTypeSupported`). An asset list (`X-ASSET-LIST`)
// is fetched when this is called (as the break approaches), its assets told to the session
// (which decides that each plays, in turn) and its first asset used; a later asset of the
// list comes as an item with its `asset` (the session's `play-interstitial-asset`).
// Whatever cannot play throws, with the reason: the page reports the failure and the session
// skips the break.
// Manifests by URL: an ad that plays in several breaks is fetched once, so later breaks start sooner.
const manifests = new Map();
function cached(key, load) {
  if (!manifests.has(key)) {
    const loading = load();
    loading.catch(() => manifests.delete(key));
    manifests.set(key, loading);
  }
  return manifests.get(key);
}

async function jsonAt(url, what) {
  const response = await fetch(url);
  if (!response.ok) {
    const reason = await response.json().then((body) => body?.error?.message).catch(() => null);
    throw new Error(`${what}: ${reason ?? `HTTP ${response.status}`}`);
  }
  return response.json();
}

/** How the page fetches `url` for `event`: directly on this server, else through it. */
function fetcher(event, sessionID) {
  return (url) => {
    if (new URL(url, location.href).origin === location.origin) return url;
    return `/api/sessions/${encodeURIComponent(sessionID)}/interstitials/${encodeURIComponent(event.id)}/external?url=${encodeURIComponent(url)}`;
  };
}

/** The tracks of `manifest` this browser can decode; none is an error that names them. */
export function playableTracks(manifest, supports = (type) => window.MediaSource?.isTypeSupported(type)) {
  const video = manifest.video.filter((track) => supports(track.mimeType));
  if (!video.length) throw new Error(`this browser cannot play ${manifest.video.map((t) => t.mimeType).join(' or ')}`);
  return { ...manifest, video };
}

function manifestFor(uri, base, event, sessionID) {
  let url;
  try { url = new URL(uri, base); } catch { throw new Error(`"${uri}" is not a URL`); }
  if (url.origin === location.origin && url.pathname.endsWith('/manifest.json')) {
    return cached(url.pathname, () => jsonAt(url.pathname, 'manifest'));
  }
  if (url.origin !== location.origin && url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`cannot play ${uri} in this player`);
  const target = url.origin === location.origin ? url.pathname : url.href;
  const path = `/api/sessions/${encodeURIComponent(sessionID)}/interstitials/${encodeURIComponent(event.id)}/manifest?url=${encodeURIComponent(target)}`;
  return cached(target, () => jsonAt(path, 'ad').then((manifest) => playableTracks(manifest)));
}

/** The assets an asset list names, each `{uri, duration}` with `uri` resolved against the list's URL. */
export function listedAssets(list, listURL) {
  const assets = Array.isArray(list?.ASSETS) ? list.ASSETS : [];
  return assets.filter((asset) => typeof asset?.URI === 'string' && asset.URI).map((asset) => {
    let uri;
    try { uri = new URL(asset.URI, listURL).href; } catch { uri = asset.URI; }
    const duration = Number(asset.DURATION);
    return Number.isFinite(duration) && duration >= 0 ? { uri, duration } : { uri };
  });
}

/**
 * The playback manifest for `event` of session `sessionID`: for `asset` (a later asset of its
 * asset list, as the session named it), that asset's; otherwise the event's content, or its
 * asset list's first asset after the list is fetched and `onAssetList(assets)` told of it.
 */
export async function interstitialManifest(event, sessionID, asset = null, onAssetList = () => {}) {
  const via = fetcher(event, sessionID);
  if (asset?.uri) return manifestFor(asset.uri, location.href, event, sessionID);
  if (event.assetListURL) {
    const listURL = new URL(event.assetListURL, location.href).href;
    const assets = listedAssets(await jsonAt(via(listURL), 'asset list'), listURL);
    if (!assets.length) throw new Error('asset list has no ASSETS');
    onAssetList(assets.slice(0, 100));
    return manifestFor(assets[0].uri, listURL, event, sessionID);
  }
  if (!event.url) throw new Error('the break names nothing to play');
  return manifestFor(event.url, location.href, event, sessionID);
}
