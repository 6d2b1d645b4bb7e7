// The sessions a browser's player pages own (issue 26, item 8): a tab that reloads or opens
// another video forgets its previous session, so no frozen island of it stays over the picture.
import { test } from 'node:test';
import assert from 'node:assert/strict';

function storage() {
  const map = new Map();
  return { getItem: (k) => (map.has(k) ? map.get(k) : null), setItem: (k, v) => map.set(k, String(v)), removeItem: (k) => map.delete(k) };
}
globalThis.localStorage = storage();
globalThis.sessionStorage = storage();

const { claimTabSession, ownSessions, rememberSession } = await import('../Sources/MarqueeServer/Public/js/now-playing/own-sessions.js');

test("a tab's new player forgets the tab's previous session, not other tabs' sessions", () => {
  rememberSession('other-tab');
  assert.equal(claimTabSession('first'), null);
  assert.deepEqual([...ownSessions()].sort(), ['first', 'other-tab']);
  // Reload or another video in the same tab: a new session.
  assert.equal(claimTabSession('second'), 'first');
  assert.deepEqual([...ownSessions()].sort(), ['other-tab', 'second']);
  // The same session again (bfcache restore) forgets nothing.
  assert.equal(claimTabSession('second'), null);
  assert.deepEqual([...ownSessions()].sort(), ['other-tab', 'second']);
});
