// The player page's parts, each with the elements it is given: gestures become intents
// (the time shown follows at once), a scrub resumes playback once the session's seek lands,
// the primary's reports are throttled, the menus list what the session offers, the session
// is opened with what the address asks, subtitles become text tracks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeElement, FakeVideo, fakeDocument } from './support/fake-dom.mjs';

globalThis.document = fakeDocument();
globalThis.innerWidth = 1280;
const { PlayerHub, PLAYER_EVENT } = await import('../Sources/MarqueeServer/Public/js/player/player-events.js');
const { playerActions } = await import('../Sources/MarqueeServer/Public/js/player/player-actions.js');
const { ScrubController } = await import('../Sources/MarqueeServer/Public/js/player/scrub-controller.js');
const { MediaReports } = await import('../Sources/MarqueeServer/Public/js/player/media-reports.js');
const { Throttle } = await import('../Sources/MarqueeServer/Public/js/player/throttle.js');
const { overflowSections, renditionSections } = await import('../Sources/MarqueeServer/Public/js/player/player-menus.js');
const { openSession, sessionRequest, startRate } = await import('../Sources/MarqueeServer/Public/js/player/session-start.js');
const { SubtitleTracks } = await import('../Sources/MarqueeServer/Public/js/player/subtitle-tracks.js');
const { ensureStylesheet } = await import('../Sources/MarqueeServer/Public/js/stylesheet.js');
const { language } = await import('../Sources/MarqueeServer/Public/js/i18n.js');

function hubWithSocket(session = { duration: 100, permissions: { skipInterval: 15 } }) {
  const video = new FakeVideo();
  const hub = new PlayerHub(video);
  const sent = [];
  hub.socket = { intent: (name, fields) => sent.push(['intent', name, fields]), report: (name, fields) => sent.push(['report', name, fields]) };
  hub.session = session;
  return { video, hub, sent };
}

test('a skip shows its target at once and asks the session, which decides', () => {
  const { video, hub, sent } = hubWithSocket();
  const shown = [];
  const actions = playerActions(hub, { show: (t) => shown.push(t), toast() {}, info: {}, chrome: {}, visibility: {} });
  video.currentTime = 20;
  actions.skipStep(1);
  assert.equal(hub.pendingSeek, 35, "the session's skip interval");
  actions.skipStep(-1);
  assert.equal(hub.pendingSeek, 20, 'from the seek asked for, not the element');
  actions.seek(500);
  assert.equal(hub.pendingSeek, 100, 'clamped to the duration');
  actions.jump(0.5);
  assert.deepEqual(shown, [35, 20, 100, 50]);
  assert.deepEqual(sent, [
    ['intent', 'skip-interval', { direction: 1 }], ['intent', 'skip-interval', { direction: -1 }],
    ['intent', 'seek', { time: 500 }], ['intent', 'seek-to-fraction', { fraction: 0.5 }],
  ]);
});

test("during a break a skip is only asked for: the ad's clock is not the primary's", () => {
  const { hub, sent } = hubWithSocket({ duration: 100, activeInterstitial: { id: 'ad' } });
  const actions = playerActions(hub, { show: () => assert.fail('nothing shown'), toast() {}, info: {}, chrome: {}, visibility: {} });
  actions.skipStep(1);
  actions.skip(10);
  assert.equal(hub.pendingSeek, null);
  assert.deepEqual(sent.map((s) => s[1]), ['skip-interval', 'skip']);
});

test('volume steps by a tenth and says so; Escape closes help, then info', () => {
  const { video, hub } = hubWithSocket();
  const toasts = [];
  const chrome = { helpOpen: true, toggleHelp() { this.helpOpen = false; } };
  const info = { isOpen: true, close() { this.isOpen = false; } };
  const actions = playerActions(hub, { show() {}, toast: (t) => toasts.push(t), info, chrome, visibility: {} });
  video.volume = 0.95;
  video.muted = true;
  actions.volume(0.1);
  assert.equal(video.volume, 1);
  assert.equal(video.muted, false);
  assert.deepEqual(toasts, ['100%']);
  assert.equal(actions.escape(), true);
  assert.equal(chrome.helpOpen, false);
  assert.equal(actions.escape(), true);
  assert.equal(info.isOpen, false);
  assert.equal(actions.escape(), false);
});

function scrubSetup() {
  const { video, hub, sent } = hubWithSocket({ duration: 100, desiresPlayback: true });
  const preview = new FakeElement('div');
  preview.append(new FakeElement('span', { className: 'scrub-time' }), new FakeElement('div', { className: 'thumbnail' }));
  const timeline = new FakeElement('div');
  timeline.rect = { left: 0, top: 600, width: 1000, height: 10 };
  const player = new FakeElement('div');
  player.clientHeight = 720;
  const log = [];
  const frames = { isActive: false, begin: () => log.push('frames.begin'), show: (t) => log.push(['frames.show', t]), finish: () => true, cancel: () => false };
  const visibility = { show: () => log.push('visible'), activity: () => log.push('activity') };
  const scrub = new ScrubController({ player, preview, timeline }, hub, {
    frames, visibility, isBreakPlaying: () => false, show: (t) => log.push(['show', t]), seek: (t) => log.push(['seek', t]),
  });
  scrub.registerListeners();
  return { video, hub, sent, preview, player, log, scrub };
}

test('a scrub shows the preview and the frames, then asks for a seek; play goes on when it lands', () => {
  const { video, hub, preview, player, log, scrub } = scrubSetup();
  const started = [];
  hub.on(PLAYER_EVENT.SCRUB_STARTED, () => started.push(true));
  hub.manifest = { trickPlayURL: '/tiles.jpg', trickPlay: { count: 10, interval: 10, columns: 5, tileWidth: 160, tileHeight: 90 } };
  scrub.begin();
  assert.equal(hub.scrubbing, true);
  assert.deepEqual(started, [true], 'Live Text clears its layer');
  assert.ok(player.classList.contains('scrubbing'));
  assert.equal(preview.hidden, false);
  scrub.move(62, 620);
  assert.equal(preview.querySelector('.scrub-time').textContent, '1:02');
  assert.equal(preview.style.left, '620px');
  assert.equal(preview.style.bottom, '130px');
  const thumb = preview.querySelector('.thumbnail');
  assert.equal(thumb.dataset.tile, '6');
  assert.equal(thumb.style.backgroundPosition, '-160px -90px');
  scrub.end(62);
  assert.equal(hub.scrubbing, false);
  assert.equal(preview.hidden, true);
  assert.deepEqual(log, ['visible', 'frames.begin', ['show', 62], ['frames.show', 62], ['seek', 62], 'activity']);
  // The session's seek lands: playback paused for the scrub goes on (once).
  hub.trigger(PLAYER_EVENT.SEEK_COMMANDED);
  hub.trigger(PLAYER_EVENT.SEEK_COMMANDED);
  assert.deepEqual(video.calls, [['play', 1]]);
});

test('a refused seek after a scrub also lets playback go on', () => {
  const { video, hub, scrub } = scrubSetup();
  scrub.begin();
  scrub.end(10);
  hub.trigger(PLAYER_EVENT.REFUSED);
  assert.deepEqual(video.calls, [['play', 1]]);
});

test('Home and End on the timeline seek to either end', () => {
  const { log, scrub } = scrubSetup();
  const key = (k) => ({ key: k, preventDefault() { this.prevented = true; } });
  scrub.key(key('Home'));
  scrub.key(key('End'));
  scrub.key(key('x'));
  assert.deepEqual(log, [['seek', 0], ['seek', 100]]);
});

test('one throttle: at most one call per interval, and a call made anyway starts it again', () => {
  let now = 1000;
  const throttle = new Throttle(250, () => now);
  assert.equal(throttle.admit(), true);
  now += 250;
  assert.equal(throttle.admit(), false);
  now += 1;
  assert.equal(throttle.admit(), true);
  now += 300;
  throttle.note();
  now += 100;
  assert.equal(throttle.admit(), false);
});

test("the primary's time is reported four times a second, not during a break or a scrub", () => {
  const { video, hub, sent } = hubWithSocket({ status: 'playing', desiresPlayback: true, duration: 100 });
  hub.manifest = { duration: 100 };
  const loading = new FakeElement('div');
  const interstitial = { isActive: false };
  const frames = { isActive: false };
  const shown = [];
  const reports = new MediaReports(hub, { loading }, {
    interstitial, frames, preloader: { consumeSeeked: () => false }, isMoving: () => false, show: (t) => shown.push(t),
  });
  let now = 1000;
  reports.timeReports = new Throttle(250, () => now);
  reports.registerListeners();
  const tick = (time, step = 100) => { now += step; video.currentTime = time; video.dispatchEvent(new Event('timeupdate')); };
  tick(1); tick(1.1); tick(1.2); tick(1.3);
  interstitial.isActive = true;
  tick(1.6, 300);
  interstitial.isActive = false;
  reports.reportTime(2); // a boundary held
  tick(2.1);
  const times = sent.filter(([, name]) => name === 'time').map(([, , fields]) => fields);
  assert.deepEqual(times, [{ time: 1, item: 'primary' }, { time: 1.3, item: 'primary' }, { time: 2, item: 'primary' }]);
  assert.deepEqual(shown, [1, 1.1, 1.2, 1.3, 1.6, 2.1]);
  // A seek the session asked for lands: shown and reported at once.
  hub.pendingSeek = 50;
  video.currentTime = 50;
  video.dispatchEvent(new Event('seeked'));
  assert.equal(hub.pendingSeek, null);
  assert.deepEqual(sent.at(-1), ['report', 'time', { time: 50, item: 'primary' }]);
  video.dispatchEvent(new Event('waiting'));
  assert.equal(loading.hidden, false);
  video.dispatchEvent(new Event('playing'));
  assert.equal(loading.hidden, true);
  assert.deepEqual(sent.slice(-2).map(([, name, fields]) => [name, fields]), [['stalled', { item: 'primary' }], ['playing', { item: 'primary' }]]);
});

test("the menus list the session's speeds and renditions, and choosing sends an intent", () => {
  const session = {
    speeds: [{ rate: 1, localizedNumericName: '1×', localizedName: 'Normal' }, { rate: 2, localizedNumericName: '2×', localizedName: 'Double' }],
    selectedSpeed: { rate: 2 }, permissions: { canChangeRate: false },
    audio: [{ id: 'en', name: 'English' }], selectedAudio: 'en',
    subtitles: [{ id: 'cc', name: 'CC' }], selectedSubtitles: null,
  };
  const sent = [];
  const intent = (name, fields) => sent.push([name, fields]);
  const overflow = overflowSections(session, { touchOnly: false, intent, toggleHelp() {} });
  assert.deepEqual(overflow.map((s) => s.key), ['speed', 'more']);
  assert.deepEqual(overflow[0].items.map((i) => [i.label, i.checked, i.disabled]), [['1×', false, true], ['2×', true, true]]);
  assert.deepEqual(overflowSections(session, { touchOnly: true, intent }).map((s) => s.key), ['speed']);
  const renditions = renditionSections(session, { intent });
  assert.deepEqual(renditions[1].items.map((i) => [i.label, i.checked]), [['Off', true], ['CC', false]]);
  renditions[1].items[1].onSelect();
  overflow[0].items[0].onSelect();
  assert.deepEqual(sent, [['select-subtitles', { rendition: 'cc' }], ['select-speed', { rate: 1 }]]);
});

test("the session is asked for with the address's speeds, language, Live Text and start", () => {
  const params = new URLSearchParams('speeds=1,2&lang=ja&allowsVideoFrameAnalysis=false');
  assert.deepEqual(sessionRequest('a1', params, ['en-GB']), { assetID: 'a1', languages: ['en-GB'], speedList: '1,2', language: 'ja', allowsVideoFrameAnalysis: false, autoplay: true });
  assert.deepEqual(sessionRequest('a1', new URLSearchParams(), []), { assetID: 'a1', languages: [], autoplay: true });
  // How it begins goes with the request; the session carries it out when the video is ready.
  assert.deepEqual(sessionRequest('a1', new URLSearchParams('t=12.5&rate=1.5&autoplay=0'), []), { assetID: 'a1', languages: [], startTime: 12.5, rate: 1.5, autoplay: false });
  assert.deepEqual(sessionRequest('a1', new URLSearchParams('resume=1&t=0'), []), { assetID: 'a1', languages: [], resume: true, autoplay: true });
  assert.equal(startRate(new URLSearchParams('rate=1.5')), 1.5);
  assert.equal(startRate(new URLSearchParams('rate=1')), null);
});

test("the page speaks the session's language, or the address's when no session could be made", async () => {
  const answer = (ok, body) => ({ ok, statusText: ok ? 'OK' : 'Not Found', json: async () => body });
  let languageSet = 0;
  const fetch = async (url) => (url === '/api/sessions' ? answer(true, { id: 's1', language: 'ja' }) : answer(true, { duration: 5 }));
  const { created, readManifest } = await openSession('a1', new URLSearchParams(), { languages: ['ja'], fallbackLanguage: 'en-GB', fetch, onLanguage: () => { languageSet += 1; } });
  assert.equal(created.id, 's1');
  assert.equal(language(), 'ja');
  assert.deepEqual(await readManifest(), { duration: 5 });
  const refused = async (url) => (url === '/api/sessions' ? answer(false, { error: { message: 'no such asset' } }) : answer(false, {}));
  await assert.rejects(openSession('zz', new URLSearchParams('lang=en'), { languages: [], fallbackLanguage: 'ja-JP', fetch: refused, onLanguage: () => { languageSet += 1; } }), /no such asset/);
  assert.equal(language(), 'en');
  assert.equal(languageSet, 2);
});

test("the manifest's subtitles become disabled text tracks, one shown at a time", () => {
  const video = new FakeVideo();
  const doc = { createElement: () => Object.assign(new FakeElement('track'), { track: { mode: 'showing' } }) };
  const tracks = new SubtitleTracks(video, doc);
  tracks.add([{ id: 'en', name: 'English', language: 'en', urls: ['/en.vtt'] }, { id: 'ja', name: '日本語', urls: ['/ja.vtt'] }]);
  assert.deepEqual(video.children.map((t) => [t.id, t.kind, t.src, t.srclang, t.track.mode]), [['en', 'subtitles', '/en.vtt', 'en', 'disabled'], ['ja', 'subtitles', '/ja.vtt', undefined, 'disabled']]);
  tracks.select('ja');
  assert.deepEqual(video.children.map((t) => t.track.mode), ['disabled', 'showing']);
  tracks.select(null);
  assert.deepEqual(video.children.map((t) => t.track.mode), ['disabled', 'disabled']);
});

test("a component's stylesheet is linked once, from the css folder beside the module's", () => {
  const doc = fakeDocument();
  doc.getElementById = (id) => doc.head.children.find((c) => c.id === id) ?? null;
  ensureStylesheet('up-next', doc);
  ensureStylesheet('up-next', doc);
  // The css folder is found from the module's own address, so a page that loaded its modules
  // under /ui/v/{version}/ gets the stylesheet of the same version.
  const expected = new URL('../Sources/MarqueeServer/Public/css/up-next.css', import.meta.url).href;
  assert.deepEqual(doc.head.children.map((l) => [l.id, l.rel, l.href]), [['up-next-styles', 'stylesheet', expected]]);
});

test("Up Next draws the session's offer, sends the viewer's choice, and follows a chosen item once", async () => {
  const { UpNext } = await import('../Sources/MarqueeServer/Public/js/player/up-next.js');
  const player = new FakeElement('div');
  const sent = [];
  const went = [];
  const upNext = new UpNext(player, { intent: (name, fields) => sent.push([name, fields]), navigate: (url) => went.push(url) });
  const offer = { state: 'offered', assetID: 'e2', title: 'S1 · E2', seriesTitle: 'Show', playerURL: '/watch/e2', ready: true, secondsLeft: 8 };
  upNext.update({ status: 'playing' });
  assert.equal(player.querySelector('#up-next'), null, 'no card before the end');
  upNext.update({ status: 'ended', upNext: offer });
  const card = player.querySelector('#up-next');
  assert.ok(card, 'the card is shown');
  assert.equal(card.querySelector('.up-next-title').textContent, 'S1 · E2');
  assert.equal(card.querySelector('.up-next-countdown').textContent, 'Playing in 8 s');
  card.querySelector('#up-next-play').dispatchEvent(new Event('click'));
  card.querySelector('.up-next-cancel').dispatchEvent(new Event('click'));
  assert.deepEqual(sent, [['up-next', { choice: 'play' }], ['up-next', { choice: 'dismiss' }]], 'choices go to the session');
  assert.deepEqual(went, [], 'the page does not decide by itself');
  upNext.update({ status: 'ended', upNext: { ...offer, state: 'dismissed' } });
  assert.equal(player.querySelector('#up-next'), null, 'a dismissal (from here or a remote) hides it');
  upNext.update({ status: 'ended', upNext: { ...offer, state: 'chosen' } });
  upNext.update({ status: 'ended', upNext: { ...offer, state: 'chosen' } });
  assert.deepEqual(went, ['/watch/e2'], 'a chosen item is followed once');
  const preparing = new UpNext(new FakeElement('div'), { intent() {}, navigate() {} });
  preparing.update({ status: 'ended', upNext: { ...offer, ready: false, secondsLeft: null } });
  assert.equal(preparing.card.querySelector('.up-next-countdown').textContent, 'Not ready yet');
  assert.equal(preparing.card.querySelector('#up-next-play').disabled, true);
  upNext.hide();
  preparing.hide();
});

test('a TV screen asked to watch together opens the invitation and joins under its name', async () => {
  globalThis.location ??= new URL('http://tv.local/devices');
  globalThis.localStorage ??= { getItem: () => null, setItem() {}, removeItem() {} };
  const { playerURL } = await import('../Sources/MarqueeServer/Public/js/remote/screen-listener.js');
  assert.equal(playerURL({ assetID: 'a', time: 3, rate: 1, together: 'abcdefghijklmnop_-x', name: 'Living room' }), '/together/abcdefghijklmnop_-x?name=Living%20room');
  assert.equal(playerURL({ assetID: 'a', time: 12.34, rate: 1.5, together: '../../api/users' }), '/watch/a?t=12.3&rate=1.5', 'not a token: the item, as before');
  assert.equal(playerURL({ assetID: 'a', time: 0, rate: 1 }), '/watch/a');
});

test('the media session is told a position only when it cannot work it out itself', async (t) => {
  const told = [];
  const session = { playbackState: 'none', metadata: null, setActionHandler() {}, setPositionState: (p) => told.push(p) };
  Object.defineProperty(globalThis, 'navigator', { value: { mediaSession: session }, configurable: true });
  globalThis.MediaMetadata = class { constructor(fields) { Object.assign(this, fields); } };
  globalThis.location = { href: 'http://127.0.0.1/watch/a' };
  const { installMediaSession } = await import('../Sources/MarqueeServer/Public/js/player/media-session.js');
  let now = 1000;
  t.mock.method(performance, 'now', () => now);
  const media = installMediaSession({ title: 'A', subtitle: 'B' }, {});
  media.update({ playing: true, duration: 60, time: 0, rate: 1 });
  assert.equal(session.playbackState, 'playing');
  assert.equal(told.length, 1);
  // Time updates that follow playback at its rate tell it nothing…
  for (let i = 1; i <= 8; i++) { now += 250; media.update({ playing: true, duration: 60, time: i * 0.25, rate: 1 }); }
  assert.equal(told.length, 1);
  // …a seek, a new rate, a pause and a new length each do.
  now += 250; media.update({ playing: true, duration: 60, time: 30, rate: 1 });
  now += 250; media.update({ playing: true, duration: 60, time: 30.25, rate: 2 });
  now += 250; media.update({ playing: false, duration: 60, time: 30.75, rate: 2 });
  assert.equal(session.playbackState, 'paused');
  now += 5000; media.update({ playing: false, duration: 60, time: 30.75, rate: 2 });
  now += 250; media.update({ playing: false, duration: 90, time: 30.75, rate: 2 });
  assert.deepEqual(told.map((p) => [p.position, p.playbackRate, p.duration]), [[0, 1, 60], [30, 1, 60], [30.25, 2, 60], [30.75, 2, 60], [30.75, 2, 90]]);
});

test('the boot module and the player ask for one session between them, and the player reads its answers', async () => {
  const { earlySession } = await import('../Sources/MarqueeServer/Public/js/player/session-start.js');
  const asked = [];
  const saved = globalThis.fetch;
  Object.defineProperty(globalThis, 'navigator', { value: { languages: ['en'], language: 'en' }, configurable: true });
  globalThis.fetch = async (url, init) => {
    asked.push(`${init?.method ?? 'GET'} ${url}`);
    return new Response(JSON.stringify(url === '/api/sessions' ? { id: 's1', language: 'en' } : { duration: 3, video: [], audio: [] }), { status: url === '/api/sessions' ? 201 : 200 });
  };
  try {
    const params = new URLSearchParams('t=4');
    const first = earlySession('a 1', params); // boot.js
    const second = earlySession('a 1', params); // main.js, a moment later
    assert.equal(first, second);
    const { created, readManifest } = await openSession('a 1', params, { asked: second, onLanguage() {}, languages: ['en'] });
    assert.equal(created.id, 's1');
    assert.equal((await readManifest()).duration, 3);
    assert.deepEqual(asked, ['POST /api/sessions', 'GET /api/assets/a%201/manifest.json']);
  } finally {
    globalThis.fetch = saved;
  }
});
