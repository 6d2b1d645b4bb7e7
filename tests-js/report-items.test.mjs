// Reports name the item they are about, so the session can drop one that crossed a command.
import { test } from 'node:test';
import assert from 'node:assert/strict';

const { about } = await import('../Sources/MarqueeServer/Public/js/player/interstitial-player.js');

test('an ad report names its event and its asset in the list (0 for the event itself)', () => {
  const event = { id: 'ev-1', url: '/ad.json' };
  assert.deepEqual(about({ event, asset: null }), { item: 'interstitial', interstitial: 'ev-1', asset: 0 });
  assert.deepEqual(about({ event, asset: { uri: 'https://a/2.m3u8', index: 2 } }), { item: 'interstitial', interstitial: 'ev-1', asset: 2 });
});
