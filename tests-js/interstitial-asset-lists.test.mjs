// Unit tests for asset lists in the web player: the assets a list names (interstitial-source.js)
// and the break's next ad loaded while the current one plays (interstitial-preload.js):
// `node --test tests-js/`.
import { test } from 'node:test';
import assert from 'node:assert/strict';

globalThis.window = { MediaSource: { isTypeSupported: () => true } };
const { listedAssets } = await import('../Sources/MarqueeServer/Public/js/player/interstitial-source.js');
const { InterstitialPreloader } = await import('../Sources/MarqueeServer/Public/js/player/interstitial-preload.js');

test('an asset list names its assets in order, resolved against the list, with their durations', () => {
  const list = {
    ASSETS: [
      { URI: 'https://ads.example/one/master.m3u8', DURATION: 15 },
      { URI: '../two/master.m3u8', DURATION: '7.5' },
      { DURATION: 3 },
      { URI: '/three.m3u8', DURATION: -1 },
    ],
  };
  assert.deepEqual(listedAssets(list, 'https://lists.example/breaks/list.json'), [
    { uri: 'https://ads.example/one/master.m3u8', duration: 15 },
    { uri: 'https://lists.example/two/master.m3u8', duration: 7.5 },
    { uri: 'https://lists.example/three.m3u8' },
  ]);
  assert.deepEqual(listedAssets({}, 'https://lists.example/list.json'), []);
  assert.deepEqual(listedAssets({ ASSETS: 'x' }, 'https://lists.example/list.json'), []);
});

test('during a break the ad the session names next is loaded in the other element; none named, none loaded', () => {
  const video = new EventTarget();
  Object.assign(video, { currentTime: 20, paused: true });
  const asked = [];
  const player = { isActive: true, preparedEvent: null, prepare() {}, discard() {}, prepareNext(item) { asked.push(item); } };
  const preloader = new InterstitialPreloader(video, player, () => 60);
  const event = { id: 'list', cue: 'none', time: 20 };
  const asset = { uri: 'https://ads.example/two.m3u8', duration: 5, index: 1 };
  preloader.update({ activeInterstitial: event, interstitialBreak: { position: 1, count: 2, resumeAt: 20, next: { interstitial: event, asset } } });
  preloader.update({ activeInterstitial: event, interstitialBreak: { position: 2, count: 3, resumeAt: 20, next: { interstitial: { id: 'b' }, asset: null } } });
  preloader.update({ activeInterstitial: event, interstitialBreak: { position: 3, count: 3, resumeAt: 20, next: null } });
  preloader.update({ activeInterstitial: null, upcomingInterstitial: null });
  assert.deepEqual(asked, [{ event, asset }, { event: { id: 'b' }, asset: null }, null]);
});
