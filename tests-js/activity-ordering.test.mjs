// The order activities are shown in on /activities and in the Now playing island: what is
// live comes first, so out-of-date activities never lead over a running download or the
// video actually playing (issue 26, item 7).
import { test } from 'node:test';
import assert from 'node:assert/strict';

const { activityOrder } = await import('../Sources/MarqueeServer/Public/js/activities/ordering.js');

const snap = (id, state, relevance, start) => ({
  state, activity: { id, startDate: new Date(start * 1000).toISOString(), content: { relevanceScore: relevance } },
});

test('a stale or ended activity never outranks a live one, whatever its relevance', () => {
  const list = [snap('old-player', 'stale', 100, 1), snap('ended', 'ended', 90, 2), snap('download', 'active', 50, 3)];
  assert.deepEqual(list.sort(activityOrder()).map((s) => s.activity.id), ['download', 'old-player', 'ended']);
});

test('among live ones, the most relevant first; ties by start (the island: newest first)', () => {
  const list = () => [snap('a', 'active', 10, 1), snap('b', 'active', 10, 2), snap('c', 'active', 20, 3)];
  assert.deepEqual(list().sort(activityOrder()).map((s) => s.activity.id), ['c', 'a', 'b']);
  assert.deepEqual(list().sort(activityOrder({ newestFirst: true })).map((s) => s.activity.id), ['c', 'b', 'a']);
});
