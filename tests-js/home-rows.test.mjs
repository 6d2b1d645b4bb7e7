// The home screen's small page-side rules: player links keep the page's `?lang=`, and the
// time left reads as a person says it, in English and Japanese.
import { test } from 'node:test';
import assert from 'node:assert/strict';

const { addStrings, setLanguage } = await import('../Sources/MarqueeServer/Public/js/i18n.js');
const { homeStrings } = await import('../Sources/MarqueeServer/Public/js/library/home-strings.js');
addStrings(homeStrings);
const { playerLink, assetLink } = await import('../Sources/MarqueeServer/Public/js/library/links.js');
globalThis.document ??= { documentElement: {} };
const { timeLeftText } = await import('../Sources/MarqueeServer/Public/js/library/home.js');

test('player links keep the page language and add resume only when there is somewhere to resume', () => {
  assert.equal(playerLink('/watch/abc', {}, '?lang=ja'), '/watch/abc?lang=ja');
  assert.equal(playerLink('/watch/abc', { resume: '1' }, '?lang=ja&x=1'), '/watch/abc?resume=1&lang=ja');
  assert.equal(playerLink('/watch/abc', {}, ''), '/watch/abc');
  assert.equal(playerLink('/watch/abc?lang=en', {}, '?lang=ja'), '/watch/abc?lang=en');
  assert.equal(assetLink({ playerURL: '/watch/a', playback: { resumeTime: 12 } }, '?lang=ja'), '/watch/a?resume=1&lang=ja');
  assert.equal(assetLink({ playerURL: '/watch/a', playback: { resumeTime: null } }, ''), '/watch/a');
});

test('time left in minutes, and under a minute said so', () => {
  setLanguage('en');
  assert.equal(timeLeftText(12 * 60 + 10), '12 min left');
  assert.equal(timeLeftText(59), 'Less than a minute left');
  assert.equal(timeLeftText(undefined), '');
  assert.equal(timeLeftText(null), '');
  setLanguage('ja');
  assert.equal(timeLeftText(3 * 60), '残り3分');
  setLanguage('en');
});
