// What an interstitial plays, as the JSON playback manifest the MSE loader takes. A library
// ad plays from its manifest; a Marquee HLS URL (`/media/{id}/master.m3u8`, a library
// asset's) maps to the same; any other HLS URL (an external ad) is read by interstitial-hls.js,
// through this server when it is on another one (the page may only connect to its own server:
// `/api/sessions/{id}/interstitials/{event}/external?url=…`); an asset list (`X-ASSET-LIST`)
// is fetched when this is called (as the break approaches), its assets told to the session
// (which decides that each plays, in turn) and its first asset used; a later asset of the
// list comes as an item with its `asset` (the session's `play-interstitial-asset`).
// Whatever cannot play throws, with the reason: the page reports the failure and the session
// skips the break.
import { hlsManifest } from './interstitial-hls.js';

const MEDIA = /^\/media\/([^/]+)\/master\.m3u8$/;

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

function manifestFor(uri, base, via) {
  let url;
  try { url = new URL(uri, base); } catch { throw new Error(`"${uri}" is not a URL`); }
  if (url.origin === location.origin) {
    if (url.pathname.endsWith('/manifest.json')) return cached(url.pathname, () => jsonAt(url.pathname, 'manifest'));
    const media = MEDIA.exec(url.pathname);
    const path = media && `/api/assets/${media[1]}/manifest.json`;
    if (path) return cached(path, () => jsonAt(path, 'manifest'));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`cannot play ${uri} in this player`);
  return cached(via(url.href), () => hlsManifest(url.href, via));
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
  if (asset?.uri) return manifestFor(asset.uri, location.href, via);
  if (event.assetListURL) {
    const listURL = new URL(event.assetListURL, location.href).href;
    const assets = listedAssets(await jsonAt(via(listURL), 'asset list'), listURL);
    if (!assets.length) throw new Error('asset list has no ASSETS');
    onAssetList(assets.slice(0, 100));
    return manifestFor(assets[0].uri, listURL, via);
  }
  if (!event.url) throw new Error('the break names nothing to play');
  return manifestFor(event.url, location.href, via);
}
