// The player page carries out what the session commands (carryOut): on the element that
// plays now, telling the page's other parts through the hub's named events.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeVideo } from './support/fake-dom.mjs';

const { CommandRunner } = await import('../Sources/MarqueeServer/Public/js/player/commands.js');
const { PlayerHub, PLAYER_EVENT } = await import('../Sources/MarqueeServer/Public/js/player/player-events.js');

/** A break's player as the runner sees it: what it was told, and what it says of its ad. */
function fakeInterstitial() {
  return {
    isActive: false, hasEnded: false, holdsPictureInPicture: false, calls: [],
    play(rate) { this.calls.push(['play', rate]); return this.playError ? Promise.reject(this.playError) : Promise.resolve(); },
    pause() { this.calls.push(['pause']); },
    async start(event, rate, asset) { this.calls.push(['start', event.id, rate, asset ?? null]); this.isActive = true; },
    takePictureInPicture() { this.calls.push(['pip']); },
    stop() { this.calls.push(['stop']); this.isActive = false; },
  };
}

function setup() {
  const video = new FakeVideo();
  const hub = new PlayerHub(video);
  const reports = [];
  hub.socket = { report: (name, fields) => reports.push([name, fields]), intent() {} };
  const events = [];
  for (const name of Object.values(PLAYER_EVENT)) hub.on(name, () => events.push(name));
  const interstitial = fakeInterstitial();
  const subtitles = { selected: undefined, select(id) { this.selected = id; } };
  const volume = { applied: [], apply(command) { this.applied.push(command); } };
  let pip = null;
  const runner = new CommandRunner(hub, { interstitial, subtitles, volume, pictureInPicture: () => pip });
  return { video, hub, reports, events, interstitial, subtitles, volume, runner, setPiP: (element) => { pip = element; } };
}

test('play sets the primary going at the commanded rate', async () => {
  const { video, runner, interstitial } = setup();
  await runner.carryOut({ command: 'play', rate: 1.5 });
  assert.equal(video.playbackRate, 1.5);
  assert.equal(video.defaultPlaybackRate, 1.5);
  assert.deepEqual(video.calls, [['play', 1.5]]);
  assert.deepEqual(interstitial.calls, []);
});

test("the browser's autoplay refusal is reported; the session pauses and waits for a press", async () => {
  const { video, runner, reports } = setup();
  video.playError = Object.assign(new Error('no gesture'), { name: 'NotAllowedError' });
  await runner.carryOut({ command: 'play', rate: 1 });
  assert.deepEqual(reports, [['autoplay-blocked', {}]]);
  video.playError = Object.assign(new Error('aborted'), { name: 'AbortError' });
  await runner.carryOut({ command: 'play', rate: 1 });
  assert.equal(reports.length, 1, 'other refusals are not autoplay');
});

test('during a break, play and pause go to the ad, not the held primary', async () => {
  const { video, runner, interstitial } = setup();
  interstitial.isActive = true;
  await runner.carryOut({ command: 'play', rate: 2 });
  await runner.carryOut({ command: 'pause' });
  assert.deepEqual(interstitial.calls, [['play', 2], ['pause']]);
  assert.deepEqual(video.calls, []);
});

test('seek moves the primary, shows it as pending and tells the scrub it landed', async () => {
  const { video, hub, runner, events } = setup();
  await runner.carryOut({ command: 'seek', time: 42 });
  assert.equal(video.currentTime, 42);
  assert.equal(hub.pendingSeek, 42);
  assert.deepEqual(events, ['seek-commanded']);
});

test('play-interstitial holds the primary and starts the break; picture in picture follows it', async () => {
  const { video, runner, interstitial, setPiP } = setup();
  await runner.carryOut({ command: 'play-interstitial', interstitial: { id: 'ad-1' }, rate: 1 });
  assert.deepEqual(video.calls, [['pause']]);
  assert.deepEqual(interstitial.calls, [['start', 'ad-1', 1, null]]);
  interstitial.calls = [];
  setPiP(video);
  await runner.carryOut({ command: 'play-interstitial', interstitial: { id: 'ad-2' }, rate: 1 });
  assert.deepEqual(interstitial.calls, [['start', 'ad-2', 1, null], ['pip']]);
});

test("play-interstitial-asset plays the next asset of the event's list", async () => {
  const { runner, interstitial } = setup();
  const asset = { uri: 'https://ads/2.m3u8', index: 1 };
  await runner.carryOut({ command: 'play-interstitial-asset', interstitial: { id: 'ad-1' }, rate: 1, asset });
  assert.deepEqual(interstitial.calls, [['start', 'ad-1', 1, asset]]);
});

test('resume-primary on the frame it was held on plays without a seek, then ends the break', async () => {
  const { video, hub, runner, interstitial, events } = setup();
  video.currentTime = 30;
  interstitial.isActive = true;
  interstitial.hasEnded = true; // nothing more to show: no wait for the primary's frame
  await runner.carryOut({ command: 'resume-primary', time: 30, rate: 1 });
  assert.equal(hub.pendingSeek, null, 'no seek');
  assert.deepEqual(video.calls, [['play', 1]]);
  assert.deepEqual(interstitial.calls, [['stop']]);
  assert.deepEqual(events, ['primary-resumed']);
});

test('resume-primary elsewhere seeks there, waits for its frame, and takes picture in picture back', async () => {
  const { video, hub, runner, interstitial, events } = setup();
  video.currentTime = 10;
  interstitial.isActive = true;
  interstitial.holdsPictureInPicture = true;
  await runner.carryOut({ command: 'resume-primary', time: 12.5, rate: 1.25 });
  assert.equal(video.currentTime, 12.5);
  assert.equal(hub.pendingSeek, 12.5);
  assert.equal(video.playbackRate, 1.25);
  assert.deepEqual(video.calls, [['pip'], ['play', 1.25], ['frame']]);
  assert.deepEqual(interstitial.calls, [['stop']]);
  assert.deepEqual(events, ['primary-resumed']);
});

test('resume-primary at rate 0 leaves the primary paused', async () => {
  const { video, runner, interstitial } = setup();
  interstitial.isActive = true;
  await runner.carryOut({ command: 'resume-primary', time: 0, rate: 0 });
  assert.deepEqual(video.calls, []);
  assert.deepEqual(interstitial.calls, [['stop']]);
});

test('renditions and volume go to their owners', async () => {
  const { hub, runner, subtitles, volume } = setup();
  const audio = [];
  hub.engine = { selectAudio: (id) => audio.push(id) };
  await runner.carryOut({ command: 'select-audio', rendition: 'ja' });
  await runner.carryOut({ command: 'select-subtitles', rendition: 'en-cc' });
  await runner.carryOut({ command: 'set-volume', volume: 0.4, muted: false });
  assert.deepEqual(audio, ['ja']);
  assert.equal(subtitles.selected, 'en-cc');
  assert.deepEqual(volume.applied, [{ command: 'set-volume', volume: 0.4, muted: false }]);
});

test('a command the page does not know is ignored', async () => {
  const { video, runner, events } = setup();
  await runner.carryOut({ command: 'dance' });
  assert.deepEqual(video.calls, []);
  assert.deepEqual(events, []);
});
