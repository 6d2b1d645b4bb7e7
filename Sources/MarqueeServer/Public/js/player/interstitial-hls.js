// An external HLS ad (an interstitial's `X-ASSET-URI`, or an asset list's URI, on another
// server) as the JSON playback manifest the MSE loader plays: the multivariant playlist's
// variants and audio renditions, each media playlist's init section (`EXT-X-MAP`) and timed
// segments, with absolute URLs. Only what Media Source Extensions can play here is accepted
// (fMP4 segments, no encryption, no byte ranges, a CODECS attribute); anything else throws
// an error that says why, and the break is reported failed and skipped. Every request goes
// through `via` (the page may only connect to its own server, which fetches external content
// for it); the URLs in the playlists are resolved against the real ones.

const VIDEO_CODECS = /^(avc[13]|hvc1|hev1|av01|vp0?9|dvh1|dvhe)/i;

/** Attributes of an HLS tag line (`KEY=VALUE,KEY="quoted, value"`). */
export function attributes(text) {
  const out = {};
  const pattern = /([A-Z0-9-]+)=("[^"]*"|[^,]*)/g;
  let match;
  while ((match = pattern.exec(text)) !== null) {
    out[match[1]] = match[2].startsWith('"') ? match[2].slice(1, -1) : match[2];
  }
  return out;
}

function lines(text) {
  if (!text.startsWith('#EXTM3U')) throw new Error('not an HLS playlist (no #EXTM3U)');
  return text.split(/\r?\n/).map((line) => line.trim()).filter(Boolean);
}

/** The tracks' init section and segments of a media playlist at `base`. */
export function parseMediaPlaylist(text, base, via = (url) => url) {
  let initialization = null;
  let duration = null;
  let start = 0;
  const segments = [];
  for (const line of lines(text)) {
    if (line.startsWith('#EXT-X-MAP:')) {
      const map = attributes(line.slice(11));
      if (map.BYTERANGE) throw new Error('byte-range init sections are not supported');
      initialization = via(new URL(map.URI, base).href);
    } else if (line.startsWith('#EXT-X-KEY:')) {
      if ((attributes(line.slice(11)).METHOD ?? 'NONE') !== 'NONE') throw new Error('encrypted HLS cannot play in this player');
    } else if (line.startsWith('#EXT-X-BYTERANGE')) {
      throw new Error('byte-range segments are not supported');
    } else if (line.startsWith('#EXTINF:')) {
      duration = Number.parseFloat(line.slice(8));
    } else if (!line.startsWith('#')) {
      if (duration === null || !Number.isFinite(duration)) throw new Error(`segment ${line} has no #EXTINF duration`);
      segments.push({ url: via(new URL(line, base).href), start, duration });
      start += duration;
      duration = null;
    }
  }
  if (!segments.length) throw new Error('the media playlist has no segments');
  if (!initialization) throw new Error('MPEG-TS segments cannot play in this player (no EXT-X-MAP, so not fMP4)');
  return { initialization, segments, duration: start };
}

/** Variants and audio renditions of a multivariant playlist at `base`. */
export function parseMultivariantPlaylist(text, base) {
  const variants = [];
  const audio = [];
  let pending = null;
  for (const line of lines(text)) {
    if (line.startsWith('#EXT-X-STREAM-INF:')) {
      pending = attributes(line.slice(18));
    } else if (line.startsWith('#EXT-X-MEDIA:')) {
      const media = attributes(line.slice(13));
      if (media.TYPE === 'AUDIO' && media.URI) {
        audio.push({ group: media['GROUP-ID'], name: media.NAME, language: media.LANGUAGE, isDefault: media.DEFAULT === 'YES', url: new URL(media.URI, base).href });
      }
    } else if (pending && !line.startsWith('#')) {
      const [width, height] = (pending.RESOLUTION ?? '').split('x').map(Number);
      variants.push({
        url: new URL(line, base).href, bandwidth: Number(pending.BANDWIDTH) || 0, codecs: (pending.CODECS ?? '').split(',').map((c) => c.trim()).filter(Boolean),
        width: width || undefined, height: height || undefined, audioGroup: pending.AUDIO,
      });
      pending = null;
    }
  }
  return { variants, audio };
}

async function text(url, via) {
  const response = await fetch(via(url));
  if (!response.ok) {
    // This server's relay says what the other server answered.
    const reason = await response.json().then((body) => body?.error?.message).catch(() => null);
    throw new Error(reason ?? `${url}: HTTP ${response.status}`);
  }
  return response.text();
}

/** The playback manifest of the HLS stream at `url` (a multivariant playlist), fetched through `via`. */
export async function hlsManifest(url, via = (u) => u) {
  const body = await text(url, via);
  if (!body.includes('#EXT-X-STREAM-INF')) throw new Error('an HLS ad needs a multivariant playlist (its CODECS say what the segments hold)');
  const { variants, audio } = parseMultivariantPlaylist(body, url);
  if (!variants.length) throw new Error('the multivariant playlist lists no variants');
  variants.sort((a, b) => a.bandwidth - b.bandwidth);
  const group = variants[0].audioGroup;
  const renditions = group ? audio.filter((a) => a.group === group) : [];
  const audioCodec = variants[0].codecs.find((c) => !VIDEO_CODECS.test(c)) ?? 'mp4a.40.2';
  const [videoTracks, audioTracks] = await Promise.all([
    Promise.all(variants.map(async (variant, index) => {
      const codecs = renditions.length ? variant.codecs.filter((c) => VIDEO_CODECS.test(c)) : variant.codecs;
      if (!codecs.length) throw new Error('a variant has no CODECS attribute');
      const media = parseMediaPlaylist(await text(variant.url, via), variant.url, via);
      return { id: `video-${index}`, mimeType: `video/mp4; codecs="${codecs.join(',')}"`, bandwidth: variant.bandwidth, width: variant.width, height: variant.height, ...media };
    })),
    Promise.all(renditions.map(async (rendition, index) => {
      const media = parseMediaPlaylist(await text(rendition.url, via), rendition.url, via);
      return { id: `audio-${index}`, mimeType: `audio/mp4; codecs="${audioCodec}"`, name: rendition.name, language: rendition.language, isDefault: rendition.isDefault, ...media };
    })),
  ]);
  const playable = videoTracks.filter((track) => window.MediaSource?.isTypeSupported(track.mimeType));
  if (!playable.length) throw new Error(`this browser cannot play ${videoTracks.map((t) => t.mimeType).join(' or ')}`);
  return {
    version: 1, hlsURL: url, duration: videoTracks[0].duration, video: playable, audio: audioTracks, subtitles: [], badges: [],
  };
}
