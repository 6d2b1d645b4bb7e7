// The quality menu and "Stats for nerds": what the viewer is offered, what choosing does to the
// loader, and what the panel reads. `node --test tests-js/`.
import { test } from 'node:test';
import assert from 'node:assert/strict';

globalThis.window = { devicePixelRatio: 1 };
const { setLanguage } = await import('../Sources/MarqueeServer/Public/js/i18n.js');
const { qualitySection, qualityView, variantName } = await import('../Sources/MarqueeServer/Public/js/player/quality-menu.js');
const { codecsOf, bufferAhead, statsValues } = await import('../Sources/MarqueeServer/Public/js/player/stats-panel.js');
const { overflowSections } = await import('../Sources/MarqueeServer/Public/js/player/player-menus.js');
const { MSELoader } = await import('../Sources/MarqueeServer/Public/js/player/mse-loader.js');

globalThis.document = { documentElement: {} };

const v360 = { id: 'video-1', mimeType: 'video/mp4; codecs="avc1.4d401e"', bandwidth: 700_000, width: 640, height: 360, segments: [] };
const v720 = { id: 'video-0', mimeType: 'video/mp4; codecs="avc1.64001f"', bandwidth: 2_400_000, width: 1280, height: 720, segments: [] };

test('variants are named by their short side, as "720p"', () => {
  assert.equal(variantName(v720), '720p');
  assert.equal(variantName({ width: 1080, height: 1920 }), '1080p');
  assert.equal(variantName({ bandwidth: 128_000 }), '128 kb/s');
});

test('the quality section offers Auto (with the variant playing) and each variant, highest first', () => {
  setLanguage('en');
  const chosen = [];
  const section = qualitySection({ variants: [v360, v720], manual: null, playing: v720 }, { choose: (id) => chosen.push(id) });
  assert.equal(section.title, 'Quality');
  assert.deepEqual(section.items.map((i) => [i.label, i.detail, i.checked]),
    [['Auto (720p)', undefined, true], ['720p', '2.4 Mb/s', false], ['360p', '700 kb/s', false]]);
  section.items[2].onSelect();
  section.items[0].onSelect();
  assert.deepEqual(chosen, ['video-1', null]);
  const manual = qualitySection({ variants: [v360, v720], manual: 'video-1', playing: v360 }, { choose() {} });
  assert.deepEqual(manual.items.map((i) => [i.label, i.checked]), [['Auto', false], ['720p', false], ['360p', true]]);
  setLanguage('ja');
  assert.equal(qualitySection({ variants: [v360, v720], manual: null, playing: v360 }, { choose() {} }).items[0].label, '自動 (360p)');
  setLanguage('en');
  assert.equal(qualitySection({ variants: [v720], manual: null, playing: v720 }, { choose() {} }), null, 'one variant: nothing to choose');
  assert.equal(qualitySection(null, { choose() {} }), null);
});

test('the "…" menu lists quality between speed and the stats and shortcuts', () => {
  const session = { speeds: [{ rate: 1, localizedNumericName: '1×', localizedName: 'Normal' }], selectedSpeed: { rate: 1 } };
  const sections = overflowSections(session, {
    touchOnly: true, intent() {}, toggleHelp() {}, quality: { variants: [v360, v720], manual: null, playing: v360 }, toggleStats() {},
  });
  assert.deepEqual(sections.map((s) => s.key), ['speed', 'quality', 'more']);
  assert.deepEqual(sections[2].items.map((i) => i.label), ['Stats for nerds']);
});

function fakeLoader() {
  const video = new EventTarget();
  Object.assign(video, { currentTime: 3, clientHeight: 720, videoWidth: 1280, videoHeight: 720 });
  const clip = { duration: 8, video: [v360, v720], audio: [{ id: 'en', mimeType: 'audio/mp4; codecs="mp4a.40.2"', segments: [] }] };
  const loader = new MSELoader(video, clip);
  loader.variants = clip.video;
  loader.mediaSource = { readyState: 'closed' };
  loader.tracks.video = { buffer: {}, busy: false, abort: null };
  return { loader, video };
}

test('choosing a variant holds it against throughput and replaces what is buffered; Auto lets throughput choose again', () => {
  const { loader } = fakeLoader();
  loader.measure(2_000_000, 1000); // 16 Mbit/s: Auto would take 720p
  loader.adapt();
  assert.equal(loader.currentVariant.id, 'video-0');
  loader.selectVariant('video-1');
  assert.equal(loader.currentVariant.id, 'video-1');
  assert.equal(loader.tracks.video.pendingFlush, true, 'the 720p already buffered is dropped');
  loader.adapt();
  assert.equal(loader.currentVariant.id, 'video-1', 'throughput no longer moves it');
  assert.deepEqual(qualityView(loader).manual, 'video-1');
  loader.selectVariant(null);
  assert.equal(loader.isAutomatic, true);
  assert.equal(loader.currentVariant.id, 'video-0');
  loader.selectVariant('no-such-variant');
  assert.equal(loader.isAutomatic, true);
});

test('the stats panel reads the variant, choice, resolution, bandwidth, buffer, dropped frames and codecs', () => {
  setLanguage('en');
  const { loader, video } = fakeLoader();
  loader.measure(1_500_000, 1000);
  Object.assign(video, {
    clientWidth: 1280, buffered: { length: 1, start: () => 0, end: () => 7.25 },
    getVideoPlaybackQuality: () => ({ droppedVideoFrames: 2, totalVideoFrames: 120 }),
  });
  const values = statsValues(loader, video);
  assert.equal(values.variant, '720p · video-0 · 1280×720 · 2.4 Mb/s');
  assert.equal(values.choice, 'Auto');
  assert.equal(values.resolution, '1280×720 · 1280×720 shown');
  assert.equal(values.bandwidth, '12 Mb/s');
  assert.equal(values.buffer, '4.3 s');
  assert.equal(values.dropped, '2 of 120');
  assert.equal(values.codecs, 'avc1.64001f, mp4a.40.2');
  assert.deepEqual(codecsOf('video/mp4; codecs="avc1.64001f,mp4a.40.2"'), ['avc1.64001f', 'mp4a.40.2']);
  assert.equal(bufferAhead({ length: 1, start: () => 10, end: () => 12 }, 3), 0, 'nothing buffered at the playhead');
});

test('back on Auto, what was buffered after the segment playing is fetched again in the variant Auto chooses', () => {
  const { loader, video } = fakeLoader();
  for (const v of loader.variants) v.segments = [0, 4, 8].map((start) => ({ url: `/${v.id}/${start}`, start, duration: 4 }));
  loader.measure(2_000_000, 1000);
  loader.selectVariant('video-1');
  loader.tracks.video.pendingFlush = false;
  video.currentTime = 5;
  loader.selectVariant(null);
  assert.equal(loader.currentVariant.id, 'video-0', 'Auto takes 720p again');
  assert.equal(loader.tracks.video.pendingFlush, true);
  assert.equal(loader.tracks.video.flushFrom, 8, 'the segment playing (4–8 s) plays out first');
});
