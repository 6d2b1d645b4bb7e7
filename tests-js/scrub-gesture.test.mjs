// Unit tests for swipe-to-scrub with momentum, with fake pointer events, frames and clock.
import { test } from 'node:test';
import assert from 'node:assert/strict';

let now = 0;
let frames = [];
globalThis.performance = { now: () => now };
globalThis.requestAnimationFrame = (callback) => { frames.push(callback); return frames.length; };
const { ScrubGesture } = await import('../Sources/MarqueeServer/Public/js/player/scrub-gesture.js');

function setup(duration = 600, current = 100, reducedMotion = false) {
  const surface = new EventTarget();
  surface.clientWidth = 1000;
  surface.dataset = {};
  surface.setPointerCapture = () => {};
  const log = [];
  const scrubber = {
    begin: (kind) => log.push(['begin', kind]), move: (t) => log.push(['move', t]),
    end: (t) => log.push(['end', t]), cancel: () => log.push(['cancel']),
  };
  const taps = [];
  const pinches = [];
  const gesture = new ScrubGesture(surface, {
    scrubber, duration: () => duration, currentTime: () => current, onTap: (e) => taps.push(e), onPinch: (s) => pinches.push(s),
    reducedMotion: () => reducedMotion,
  });
  const fire = (type, id, x, y = 300, t = now) => {
    const event = new Event(type);
    Object.defineProperties(event, { pointerId: { value: id }, clientX: { value: x }, clientY: { value: y }, timeStamp: { value: t } });
    surface.dispatchEvent(event);
  };
  return { gesture, surface, log, taps, pinches, fire };
}

function runFrames(limit = 500) {
  let count = 0;
  while (frames.length && count < limit) {
    const pending = frames;
    frames = [];
    now += 16.7;
    for (const callback of pending) callback(now);
    count += 1;
  }
  return count;
}

test('a slow swipe scrubs with the finger and ends where it is released', () => {
  now = 0; frames = [];
  const { log, fire } = setup();
  fire('pointerdown', 1, 100);
  for (let x = 110; x <= 300; x += 10) { now += 100; fire('pointermove', 1, x); }
  now += 100;
  fire('pointerup', 1, 300);
  assert.deepEqual(log[0], ['begin', 'swipe']);
  // 300 s span over 1000 px: 0.3 s per px; 200 px from 100 s (start counted from the 10 px slop).
  const end = log.at(-1);
  assert.equal(end[0], 'end');
  assert.ok(Math.abs(end[1] - (100 + 190 * 0.3)) < 0.001, `ended at ${end[1]}`);
  assert.equal(frames.length, 0, 'no momentum after a slow release');
});

test('a fling keeps moving after release, slows down and commits where it stops', () => {
  now = 0; frames = [];
  const { gesture, log, fire } = setup();
  fire('pointerdown', 1, 100);
  for (let x = 140; x <= 500; x += 40) { now += 16; fire('pointermove', 1, x); }
  fire('pointerup', 1, 500);
  const released = log.filter(([k]) => k === 'move').at(-1)[1];
  assert.ok(gesture.isCoasting);
  const count = runFrames();
  assert.ok(count > 5 && count < 500, `coasted for ${count} frames`);
  const moves = log.filter(([k]) => k === 'move').map(([, t]) => t);
  assert.ok(moves.at(-1) > released + 1, 'momentum carried the playhead on');
  assert.deepEqual(moves.slice().sort((a, b) => a - b), moves, 'always forward');
  assert.equal(log.at(-1)[0], 'end');
  assert.ok(!gesture.isCoasting);
});

test('with reduced motion a fling stops where it is let go: no momentum', () => {
  now = 0; frames = [];
  const { gesture, log, fire } = setup(600, 100, true);
  fire('pointerdown', 1, 100);
  for (let x = 140; x <= 500; x += 40) { now += 16; fire('pointermove', 1, x); }
  fire('pointerup', 1, 500);
  const released = log.filter(([k]) => k === 'move').at(-1)[1];
  assert.ok(!gesture.isCoasting);
  assert.equal(runFrames(), 0, 'no frames were asked for');
  assert.deepEqual(log.at(-1), ['end', released], 'committed at the release point');
});

test('a press during momentum grabs the timeline: it stops there and is not a tap', () => {
  now = 0; frames = [];
  const { gesture, log, taps, fire } = setup();
  fire('pointerdown', 1, 100);
  for (let x = 140; x <= 500; x += 40) { now += 16; fire('pointermove', 1, x); }
  fire('pointerup', 1, 500);
  runFrames(3);
  fire('pointerdown', 2, 600);
  assert.ok(!gesture.isCoasting);
  const ends = log.filter(([k]) => k === 'end');
  assert.equal(ends.length, 1);
  fire('pointerup', 2, 600);
  assert.equal(taps.length, 0);
});

test('a press without movement is a tap; a second finger cancels a swipe and pinches', () => {
  now = 0; frames = [];
  const { log, taps, pinches, fire } = setup();
  fire('pointerdown', 1, 400);
  fire('pointerup', 1, 403);
  assert.equal(taps.length, 1);
  fire('pointerdown', 1, 100);
  now += 50; fire('pointermove', 1, 200);
  fire('pointerdown', 2, 300);
  assert.deepEqual(log.at(-1), ['cancel']);
  fire('pointermove', 2, 600);
  assert.ok(pinches.length === 1 && pinches[0] > 1.25);
});
