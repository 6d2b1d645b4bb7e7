// Unit tests for which of an ad manifest's tracks play here (interstitial-source.js; the server
// builds the manifest, see ExternalAdManifestTests) and for when the next break is prepared
// (interstitial-preload.js): `node --test tests-js/`.
import { test } from 'node:test';
import assert from 'node:assert/strict';

globalThis.window = { MediaSource: { isTypeSupported: (type) => !type.includes('hvc1') } };
const { playableTracks } = await import('../Sources/MarqueeServer/Public/js/player/interstitial-source.js');
const { InterstitialPreloader, PREPARE_AHEAD_SECONDS } = await import('../Sources/MarqueeServer/Public/js/player/interstitial-preload.js');

test('an ad manifest keeps the variants this browser can decode, and one it cannot decode at all fails with the types', () => {
  const manifest = { video: [{ mimeType: 'video/mp4; codecs="avc1.42e01e"' }, { mimeType: 'video/mp4; codecs="hvc1.1.6.L93.B0"' }], audio: [] };
  assert.deepEqual(playableTracks(manifest).video.map((t) => t.mimeType), ['video/mp4; codecs="avc1.42e01e"']);
  assert.throws(() => playableTracks({ video: [manifest.video[1]], audio: [] }), /cannot play video\/mp4; codecs="hvc1/);
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
