// Unit tests for reading an external HLS ad into the MSE loader's manifest (interstitial-hls.js)
// and for when the next break is prepared (interstitial-preload.js): `node --test tests-js/`.
import { test } from 'node:test';
import assert from 'node:assert/strict';

globalThis.window = { MediaSource: { isTypeSupported: (type) => !type.includes('hvc1') } };
const { hlsManifest, parseMediaPlaylist, attributes } = await import('../Sources/MarqueeServer/Public/js/player/interstitial-hls.js');
const { InterstitialPreloader, PREPARE_AHEAD_SECONDS } = await import('../Sources/MarqueeServer/Public/js/player/interstitial-preload.js');

const MASTER = `#EXTM3U
#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",LANGUAGE="en",DEFAULT=YES,URI="audio/en.m3u8"
#EXT-X-STREAM-INF:BANDWIDTH=2000000,RESOLUTION=1280x720,CODECS="avc1.64001f,mp4a.40.2",AUDIO="aud"
video/720.m3u8
#EXT-X-STREAM-INF:BANDWIDTH=600000,RESOLUTION=640x360,CODECS="avc1.42e01e,mp4a.40.2",AUDIO="aud"
video/360.m3u8
#EXT-X-STREAM-INF:BANDWIDTH=900000,RESOLUTION=640x360,CODECS="hvc1.1.6.L93.B0,mp4a.40.2",AUDIO="aud"
video/hevc.m3u8
`;
const media = (name) => `#EXTM3U
#EXT-X-TARGETDURATION:2
#EXT-X-MAP:URI="${name}-init.mp4"
#EXTINF:2.0,
${name}-0.m4s
#EXTINF:1.5,
${name}-1.m4s
#EXT-X-ENDLIST
`;

function fakeFetch(files, asked) {
  return async (url) => {
    asked?.push(url);
    const path = new URL(url).pathname;
    if (!(path in files)) return { ok: false, status: 404, json: async () => null };
    return { ok: true, status: 200, text: async () => files[path] };
  };
}

test('a multivariant playlist becomes variants (lightest first, unplayable left out) and audio renditions with absolute URLs', async () => {
  globalThis.fetch = fakeFetch({
    '/ads/master.m3u8': MASTER, '/ads/video/720.m3u8': media('v720'), '/ads/video/360.m3u8': media('v360'),
    '/ads/video/hevc.m3u8': media('hevc'), '/ads/audio/en.m3u8': media('en'),
  });
  const manifest = await hlsManifest('http://ads.example:8081/ads/master.m3u8');
  assert.deepEqual(manifest.video.map((v) => [v.bandwidth, v.mimeType]), [
    [600000, 'video/mp4; codecs="avc1.42e01e"'], [2000000, 'video/mp4; codecs="avc1.64001f"'],
  ]);
  assert.equal(manifest.video[0].initialization, 'http://ads.example:8081/ads/video/v360-init.mp4');
  assert.deepEqual(manifest.video[0].segments, [
    { url: 'http://ads.example:8081/ads/video/v360-0.m4s', start: 0, duration: 2 },
    { url: 'http://ads.example:8081/ads/video/v360-1.m4s', start: 2, duration: 1.5 },
  ]);
  assert.equal(manifest.duration, 3.5);
  assert.deepEqual(manifest.audio.map((a) => [a.mimeType, a.language, a.isDefault, a.initialization]), [
    ['audio/mp4; codecs="mp4a.40.2"', 'en', true, 'http://ads.example:8081/ads/audio/en-init.mp4'],
  ]);
});

test('every request goes through `via` (the page reaches other servers through its own)', async () => {
  const asked = [];
  globalThis.fetch = fakeFetch({
    '/relay/http://a.example/m.m3u8': `#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS="avc1.42e01e,mp4a.40.2"\nv.m3u8\n`,
    '/relay/http://a.example/v.m3u8': media('v'),
  }, asked);
  const via = (url) => `http://page.example/relay/${url}`;
  const manifest = await hlsManifest('http://a.example/m.m3u8', via);
  assert.deepEqual(asked, ['http://page.example/relay/http://a.example/m.m3u8', 'http://page.example/relay/http://a.example/v.m3u8']);
  assert.equal(manifest.video[0].segments[0].url, 'http://page.example/relay/http://a.example/v-0.m4s');
  assert.equal(manifest.video[0].mimeType, 'video/mp4; codecs="avc1.42e01e,mp4a.40.2"', 'muxed audio stays in the one track');
  assert.deepEqual(manifest.audio, []);
});

test('what MSE cannot play is refused with the reason', async () => {
  assert.throws(() => parseMediaPlaylist('#EXTM3U\n#EXTINF:2,\na.ts\n', 'http://x/'), /MPEG-TS/);
  assert.throws(() => parseMediaPlaylist('#EXTM3U\n#EXT-X-KEY:METHOD=AES-128,URI="k"\n#EXT-X-MAP:URI="i.mp4"\n#EXTINF:2,\na.m4s\n', 'http://x/'), /encrypted/);
  assert.throws(() => parseMediaPlaylist('#EXTM3U\n#EXT-X-MAP:URI="i.mp4"\n#EXTINF:2,\n#EXT-X-BYTERANGE:100@0\na.m4s\n', 'http://x/'), /byte-range/);
  assert.throws(() => parseMediaPlaylist('not a playlist', 'http://x/'), /EXTM3U/);
  globalThis.fetch = fakeFetch({ '/m.m3u8': media('v') });
  await assert.rejects(hlsManifest('http://x/m.m3u8'), /multivariant/);
  globalThis.fetch = fakeFetch({});
  await assert.rejects(hlsManifest('http://x/gone.m3u8'), /HTTP 404/);
  assert.deepEqual(attributes('BANDWIDTH=1,CODECS="a, b",X=y'), { BANDWIDTH: '1', CODECS: 'a, b', X: 'y' });
});

/** A primary element and a break player that record what the preloader asks of them. */
function preloadBench() {
  const video = new EventTarget();
  Object.assign(video, { currentTime: 0, paused: true });
  const player = {
    isActive: false, preparedEvent: null, prepared: [], discarded: 0,
    prepare(event) { this.preparedEvent = event; this.prepared.push(event.id); },
    discard() { this.preparedEvent = null; this.discarded += 1; },
    nextItems: [],
    prepareNext(item) { this.nextItems.push(item); },
  };
  return { video, player, preloader: new InterstitialPreloader(video, player, () => 60) };
}

test('the next break is prepared a few seconds before its boundary, a pre-roll at once, a post-roll near the end', () => {
  const { video, player, preloader } = preloadBench();
  const mid = { id: 'mid', cue: 'none', time: 20 };
  preloader.update({ upcomingInterstitial: mid });
  assert.deepEqual(player.prepared, [], 'too far ahead');
  video.currentTime = 20 - PREPARE_AHEAD_SECONDS - 0.5;
  video.dispatchEvent(new Event('timeupdate'));
  assert.deepEqual(player.prepared, []);
  video.currentTime = 20 - PREPARE_AHEAD_SECONDS + 0.5;
  video.dispatchEvent(new Event('timeupdate'));
  assert.deepEqual(player.prepared, ['mid']);
  // A seek far back drops it; no break ahead drops it too.
  video.currentTime = 2;
  video.dispatchEvent(new Event('seeked'));
  assert.equal(player.discarded, 1);
  preloader.update({ upcomingInterstitial: { id: 'pre', cue: 'joinCue', time: 0 } });
  assert.deepEqual(player.prepared, ['mid', 'pre']);
  video.currentTime = 57;
  preloader.update({ upcomingInterstitial: { id: 'post', cue: 'leaveCue', time: 0 } });
  assert.deepEqual(player.prepared, ['mid', 'pre', 'post']);
  preloader.update({ upcomingInterstitial: null });
  assert.equal(player.preparedEvent, null);
});

test('during a break the paused primary moves to where it resumes, and that seek is not reported', () => {
  const { video, preloader } = preloadBench();
  video.currentTime = 20;
  preloader.update({ activeInterstitial: { id: 'a', cue: 'none' }, interstitialBreak: { position: 1, count: 1, resumeAt: 25 } });
  assert.equal(video.currentTime, 25);
  assert.equal(preloader.consumeSeeked(), true, 'our seek');
  assert.equal(preloader.consumeSeeked(), false, 'a later seek is the session\'s');
  // Already there (an inserted break): nothing moves.
  preloader.update({ activeInterstitial: { id: 'b', cue: 'none' }, interstitialBreak: { position: 1, count: 1, resumeAt: 25 } });
  assert.equal(preloader.consumeSeeked(), false);
});
