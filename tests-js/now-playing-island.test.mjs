// Unit tests for what the Now playing island shows of an activity: the position moves on at
// the rate from when it was read while playing, and stands still when paused or stale.
import { test } from 'node:test';
import assert from 'node:assert/strict';

const { nowPlayingFields } = await import('../Sources/MarqueeServer/Public/js/now-playing/island.js');

function snapshot(state, phase = 'active') {
  return {
    state: phase,
    activity: {
      id: 'playing-s1', type: 'NowPlaying', attributes: { sessionID: 's1', assetID: 'a1', title: 'Clip', subtitle: 'Sample' },
      content: { relevanceScore: 100, state: { position: 10, duration: 30, rate: 1, paused: false, positionDate: 1000, ...state } },
    },
  };
}

test('a playing activity moves on at its rate from when the position was read', () => {
  const fields = nowPlayingFields(snapshot({ rate: 2 }), 1003);
  assert.equal(fields.position, 16);
  assert.equal(fields.value, '−0:14');
  assert.equal(fields.detail, '0:16 / 0:30');
  assert.equal(fields.icon, '▶︎');
  assert.equal(fields.paused, false);
  assert.ok(Math.abs(fields.progress - 16 / 30) < 1e-9);
});

test('paused or stale, the position stands still; it never passes the duration', () => {
  assert.equal(nowPlayingFields(snapshot({ paused: true }), 1005).position, 10);
  assert.equal(nowPlayingFields(snapshot({ paused: true }), 1005).icon, '⏸');
  assert.equal(nowPlayingFields(snapshot({}, 'stale'), 1005).position, 10);
  assert.equal(nowPlayingFields(snapshot({}), 2000).position, 30);
});

test('an activity without a duration shows the elapsed time', () => {
  const fields = nowPlayingFields(snapshot({ duration: null }), 1001);
  assert.equal(fields.value, '0:11');
  assert.equal(fields.progress, null);
});
