// Each session snapshot is applied once (applyState) and every part of the page draws its
// share of it: the controls as the session's permissions say, the clock (the primary's, or
// the ad's during a break), the spinner and the failure overlay. The page decides nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeElement, FakeVideo } from './support/fake-dom.mjs';

const { PlayerHub, PLAYER_EVENT } = await import('../Sources/MarqueeServer/Public/js/player/player-events.js');
const { SessionView } = await import('../Sources/MarqueeServer/Public/js/player/session-view.js');
const { TimeDisplay } = await import('../Sources/MarqueeServer/Public/js/player/time-display.js');

function fakeTimeline() {
  return { duration: 0, time: 0, markers: null, setDuration(d) { this.duration = d; }, show(t) { this.time = t; }, setMarkers(m) { this.markers = m; } };
}

function setup() {
  const video = new FakeVideo();
  const hub = new PlayerHub(video);
  const el = (id) => new FakeElement('div', { id });
  const elements = {
    player: el('player'), playPause: el('play-pause'), title: el('title'), subtitle: el('subtitle'), captions: el('captions-button'),
    renditions: el('renditions-button'), skipBack: el('skip-back'), skipForward: el('skip-forward'), adBadge: el('ad-badge'),
    loading: el('loading'), document: { title: '' },
  };
  const errors = [];
  const metadata = [];
  const view = new SessionView(elements, hub, { info: { setMetadata: (m) => metadata.push(m) }, showError: (m) => errors.push(m) });
  view.registerListeners();
  const timeline = fakeTimeline();
  const clock = { elapsed: el('elapsed'), remaining: el('remaining') };
  const interstitial = Object.assign(new EventTarget(), { isActive: false, clock: { time: 0, duration: NaN } });
  const display = new TimeDisplay({ timeline, ...clock, adBadge: elements.adBadge }, hub, interstitial);
  display.registerListeners();
  return { video, hub, elements, errors, metadata, timeline, clock, interstitial, display };
}

function snapshot(fields = {}) {
  return {
    id: 's1', status: 'playing', desiresPlayback: true, rate: 1, duration: 120, currentTime: 0,
    selectedSpeed: { rate: 1 }, metadata: { title: 'Clip', subtitle: 'Sample' },
    audio: [{ id: 'en', name: 'English' }], subtitles: [], selectedSubtitles: null,
    permissions: { canSeek: true, canChangeRate: true, skipInterval: 10 }, interstitials: [], ...fields,
  };
}

test('a playing snapshot draws the controls and the title', () => {
  const { hub, elements, metadata, timeline } = setup();
  hub.applyState(snapshot());
  assert.equal(hub.session.id, 's1');
  assert.deepEqual(elements.player.dataset, { playing: 'true', status: 'playing', rate: '1', selectedSpeed: '1', canSeek: 'true', interstitial: 'false' });
  assert.equal(elements.playPause.getAttribute('aria-label'), 'Pause');
  assert.equal(elements.title.textContent, 'Clip');
  assert.equal(elements.subtitle.textContent, 'Sample');
  assert.equal(elements.document.title, 'Clip');
  assert.deepEqual(metadata, [{ title: 'Clip', subtitle: 'Sample' }]);
  assert.equal(elements.captions.hidden, true, 'no subtitles, no CC button');
  assert.equal(elements.renditions.hidden, true, 'one audio and no subtitles: nothing to choose');
  assert.equal(elements.skipBack.getAttribute('aria-label'), 'Back 10 seconds');
  assert.equal(elements.adBadge.hidden, true);
  assert.equal(elements.loading.hidden, true);
  assert.equal(timeline.duration, 120);
  assert.deepEqual(timeline.markers, []);
});

test("what the controls may do is the session's permissions", () => {
  const { hub, elements } = setup();
  hub.applyState(snapshot({ permissions: { canSeek: false, canChangeRate: false, skipInterval: 15 } }));
  assert.equal(elements.skipBack.disabled, true);
  assert.equal(elements.skipForward.disabled, true);
  assert.equal(elements.skipForward.getAttribute('aria-label'), 'Forward 15 seconds');
  assert.equal(elements.player.dataset.canSeek, 'false');
  hub.applyState(snapshot({ permissions: undefined }));
  assert.equal(elements.skipBack.disabled, false, 'before the session says, everything is allowed');
});

test('subtitles and a second audio show their buttons; a selected track presses CC', () => {
  const { hub, elements } = setup();
  hub.applyState(snapshot({ subtitles: [{ id: 'cc', name: 'English CC' }], selectedSubtitles: 'cc' }));
  assert.equal(elements.captions.hidden, false);
  assert.equal(elements.captions.getAttribute('aria-pressed'), 'true');
  assert.equal(elements.renditions.hidden, false);
  hub.applyState(snapshot({ audio: [{ id: 'en' }, { id: 'ja' }] }));
  assert.equal(elements.captions.hidden, true);
  assert.equal(elements.renditions.hidden, false);
});

test('paused, ended, waiting and failed', () => {
  const { hub, elements, errors } = setup();
  hub.applyState(snapshot({ status: 'paused', desiresPlayback: false }));
  assert.equal(elements.playPause.getAttribute('aria-label'), 'Play');
  hub.applyState(snapshot({ status: 'ended', desiresPlayback: false }));
  assert.equal(elements.playPause.getAttribute('aria-label'), 'Replay');
  hub.applyState(snapshot({ status: 'waiting' }));
  assert.equal(elements.loading.hidden, false);
  hub.applyState(snapshot({ status: 'failed', desiresPlayback: false, failureMessage: 'MEDIA_ERR_DECODE: bad' }));
  assert.deepEqual(errors, ['MEDIA_ERR_DECODE: bad']);
});

test("during a break the clock is the ad's, with a countdown in the badge", () => {
  const { hub, elements, timeline, clock, interstitial } = setup();
  interstitial.isActive = true;
  interstitial.clock = { time: 3.2, duration: NaN }; // the ad's metadata is not there yet
  hub.applyState(snapshot({ activeInterstitial: { id: 'ad', duration: 15 }, interstitials: [{ start: 0 }] }));
  assert.equal(elements.adBadge.hidden, false);
  assert.equal(elements.player.dataset.interstitial, 'true');
  assert.equal(timeline.duration, 15, "the session's duration of the ad until the element knows its own");
  assert.deepEqual(timeline.markers, [], 'no break markers on an ad');
  assert.equal(clock.elapsed.textContent, '0:03');
  assert.equal(clock.remaining.textContent, '-0:12');
  assert.equal(elements.adBadge.textContent, 'Ad · 0:12');
  // The ad moves on: its own clock, read from the break's player.
  interstitial.clock = { time: 9, duration: 10 };
  interstitial.dispatchEvent(new Event('clock'));
  assert.equal(timeline.duration, 10);
  assert.equal(clock.remaining.textContent, '-0:01');
});

test('after a break the timeline is the primary again, at the seek asked for', () => {
  const { hub, timeline, clock, display } = setup();
  hub.applyState(snapshot({ interstitials: [{ start: 30 }] }));
  timeline.setMarkers([]);
  hub.pendingSeek = 31;
  hub.trigger(PLAYER_EVENT.PRIMARY_RESUMED);
  assert.equal(timeline.duration, 120);
  assert.deepEqual(timeline.markers, [{ start: 30 }]);
  assert.equal(clock.elapsed.textContent, '0:31');
  display.show(60);
  assert.equal(clock.remaining.textContent, '-1:00');
});

test('listeners hear each snapshot with the one before, in the order they subscribed', () => {
  const { hub } = setup();
  const heard = [];
  hub.on(PLAYER_EVENT.STATE, ({ state, previous }) => heard.push(['a', state.status, previous?.status ?? null]));
  const context = { name: 'b' };
  function listener({ state }) { heard.push([this.name, state.status]); }
  hub.on(PLAYER_EVENT.STATE, listener, context);
  hub.applyState(snapshot({ status: 'paused' }));
  hub.off(PLAYER_EVENT.STATE, listener, context);
  hub.applyState(snapshot({ status: 'playing' }));
  assert.deepEqual(heard, [['a', 'paused', null], ['b', 'paused'], ['a', 'playing', 'paused']]);
});

test('a refused intent puts the clock back where the primary is', () => {
  const { hub, video, clock } = setup();
  hub.applyState(snapshot());
  video.currentTime = 5;
  hub.pendingSeek = null;
  hub.trigger(PLAYER_EVENT.REFUSED);
  assert.equal(clock.elapsed.textContent, '0:05');
});
