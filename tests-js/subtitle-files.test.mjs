// The library page's subtitle files: which dropped files are subtitles, and the language a
// sidecar-style name gives (issue 29, item 2); and that both languages have every string.
import { test } from 'node:test';
import assert from 'node:assert/strict';

const { isSubtitleFile, languageFromName } = await import('../Sources/MarqueeServer/Public/js/library/subtitle-files.js');
const { subtitleStrings } = await import('../Sources/MarqueeServer/Public/js/library/subtitle-strings.js');

test('subtitle files are known by their extension, in any case', () => {
  assert.deepEqual(['a.srt', 'b.VTT', 'c.ass', 'd.ssa', 'e.mp4', 'srt', 'f.srt.txt'].map((name) => isSubtitleFile({ name })),
    [true, true, true, true, false, false, false]);
});

test('the language a name gives, as sidecars are named', () => {
  assert.equal(languageFromName('Film.ja.srt'), 'ja');
  assert.equal(languageFromName('Film.pt-BR.vtt'), 'pt-BR');
  assert.equal(languageFromName('Film.en.forced.srt'), 'en');
  assert.equal(languageFromName('Film.srt'), '');
  assert.equal(languageFromName('Film.director cut.srt'), '');
});

test('English and Japanese have the same strings', () => {
  assert.deepEqual(Object.keys(subtitleStrings.ja).sort(), Object.keys(subtitleStrings.en).sort());
});
