// What the library, downloads, remote and Live Activities pages show, decided from the
// server's answers alone (the pages draw what these functions return).
import { test } from 'node:test';
import assert from 'node:assert/strict';

const { addStrings } = await import('../Sources/MarqueeServer/Public/js/i18n.js');
const { libraryStrings } = await import('../Sources/MarqueeServer/Public/js/library/strings.js');
const { downloadStrings } = await import('../Sources/MarqueeServer/Public/js/downloads-strings.js');
const { remoteStrings } = await import('../Sources/MarqueeServer/Public/js/remote/remote-strings.js');
const { activityStrings } = await import('../Sources/MarqueeServer/Public/js/activities/strings.js');
for (const table of [libraryStrings, downloadStrings, remoteStrings, activityStrings]) addStrings(table);
const shelf = await import('../Sources/MarqueeServer/Public/js/library/shelf.js');
const downloads = await import('../Sources/MarqueeServer/Public/js/downloads-format.js');
const remote = await import('../Sources/MarqueeServer/Public/js/remote/now-playing-view.js');
const arrangement = await import('../Sources/MarqueeServer/Public/js/activities/arrangement.js');
const { describe } = await import('../Sources/MarqueeServer/Public/js/activities/describe.js');

// MARK: Library

const asset = (id, fields = {}) => ({ kind: 'asset', asset: { id, title: id, role: 'feature', ...fields } });
const series = (id, seasons) => ({ kind: 'series', series: { id, title: id, episodeCount: 0, seasons: seasons.map((ids, n) => ({ number: n + 1, episodes: ids.map((e) => ({ id: e })) })) } });

test('library: the query carries the sort, the search and each badge', () => {
  assert.equal(String(shelf.libraryParameters({ sort: 'title', query: 'cat', badges: new Set(['4K', 'HDR']) })), 'sort=title&q=cat&badge=4K&badge=HDR');
  assert.equal(String(shelf.libraryParameters({ sort: 'recent', query: '', badges: new Set() })), 'sort=recent');
});

test('library: deleted items wait out their undo hidden; a series keeps its other episodes', () => {
  const items = [asset('a'), asset('b'), series('s', [['e1', 'e2'], ['e3']])];
  const shown = shelf.visibleItems(items, new Set(['b', 'e1', 'e3']));
  assert.deepEqual(shown.map((i) => i.kind === 'series' ? [i.series.id, i.series.episodeCount, i.series.seasons.length] : i.asset.id), ['a', ['s', 1, 1]]);
  assert.deepEqual(shelf.visibleItems(items, new Set(['e1', 'e2', 'e3'])).map((i) => i.asset.id), ['a', 'b'], 'an empty series goes');
  assert.equal(items[2].series.seasons[0].episodes.length, 2, 'the shelf itself is untouched');
});

test('library: the status line says why nothing shows', () => {
  assert.equal(shelf.shelfStatus({ shown: 2, query: '', badges: new Set() }), '');
  assert.equal(shelf.shelfStatus({ shown: 0, query: 'zzz', badges: new Set() }), 'Nothing matches “zzz”.');
  assert.equal(shelf.shelfStatus({ shown: 0, query: '', badges: new Set(['4K', 'HDR']) }), 'Nothing matches “4K, HDR”.');
  assert.equal(shelf.shelfStatus({ shown: 0, query: '', badges: new Set(), makingSamples: true }), 'The library is empty. Sample clips are being made…');
  // Without samples on their way (`--no-samples`), it says how to add media, to those who may.
  assert.equal(shelf.shelfStatus({ shown: 0, query: '', badges: new Set() }),
    'The library is empty. Choose “Add” to add video or audio files, or drop them onto this page.');
  assert.equal(shelf.shelfStatus({ shown: 0, query: '', badges: new Set(), canAdd: false }), 'The library is empty.');
});

test('library: a pushed asset replaces its card, patches its episode, or reloads the shelf', () => {
  const items = [asset('a'), series('s', [['e1']])];
  assert.deepEqual(shelf.placeAsset(items, { id: 'a', role: 'feature' }, { filtered: false }), { place: 'replace', index: 0 });
  assert.deepEqual(shelf.placeAsset(items, { id: 'a', role: 'feature' }, { filtered: true }), { place: 'reload' }, 'a badge filter may drop it');
  assert.deepEqual(shelf.placeAsset(items, { id: 'a', role: 'feature', series: { title: 's' } }, { filtered: false }), { place: 'reload' }, 'it joined a series');
  assert.deepEqual(shelf.placeAsset(items, { id: 'new', role: 'feature' }, { filtered: false }), { place: 'reload' });
  const progress = { id: 'e1', status: 'processing', progress: 0.5 };
  assert.deepEqual(shelf.placeAsset(items, progress, { filtered: false }), { place: 'series' });
  assert.equal(items[1].series.seasons[0].episodes[0], progress, 'patched in place');
});

// MARK: Downloads

test('downloads: sizes and bit rates', () => {
  assert.equal(downloads.formatBytes(0), '0 KB');
  assert.equal(downloads.formatBytes(1500), '1.5 KB');
  assert.equal(downloads.formatBytes(250e6), '250 MB');
  assert.equal(downloads.formatBitRate(2_500_000), '2.5 Mb/s');
  assert.equal(downloads.formatBitRate(25_000_000), '25 Mb/s');
  assert.equal(downloads.formatBitRate(96_000), '96 kb/s');
  assert.equal(downloads.variantSummary({ width: 1280, height: 720, frameRate: 29.97, averageBitRate: 2_500_000 }), '1280×720 · 29.97 fps · 2.5 Mb/s');
  assert.equal(downloads.variantSummary({ width: 1280, height: 720, frameRate: 30, peakBitRate: 96_000 }, { frameRate: false }), '1280×720 · 96 kb/s');
});

test('downloads: the progress line follows the state', () => {
  const running = { state: 'downloading', totalFiles: 10, completedFiles: 4, progress: 0.4, bytesWritten: 2e6, expectedBytes: 5e6, bytesPerSecond: 1e6, secondsRemaining: 2.2 };
  // The percentage (the server's files done over files in all) sits beside that same count.
  assert.equal(downloads.progressLine(running), 'Downloading · 40% · 4 of 10 files · 2.0 MB · 1.0 MB/s · 0:03 left');
  assert.equal(downloads.progressLine({ ...running, state: 'pausing' }), 'Pausing… · 40% · 4 of 10 files · 2.0 MB');
  assert.equal(downloads.progressLine({ ...running, state: 'paused' }), 'Paused · 40% · 4 of 10 files · 2.0 MB');
  assert.equal(downloads.progressLine({ state: 'finished', bytesWritten: 5e6 }), 'In the library · 5.0 MB');
  assert.equal(downloads.progressLine({ state: 'failed', bytesWritten: 5e6 }), 'Failed');
});

test('downloads: the actions offered are exactly the snapshot\'s allowedActions (the server\'s lifecycle decides)', () => {
  assert.deepEqual(downloads.downloadActions({ state: 'failed', allowedActions: ['cancel', 'retry', 'delete'] }), ['cancel', 'retry', 'delete']);
  assert.deepEqual(downloads.downloadActions({ state: 'importing', allowedActions: [] }), []);
  assert.deepEqual(downloads.downloadActions({ state: 'queued' }), [], 'a snapshot without the field offers nothing rather than guessing');
});

test("downloads: a predicate's error is underlined from its column to the end of the word", () => {
  const span = (text, column) => { const { chars, start, end } = downloads.errorSpan(text, column); return chars.slice(start, end).join(''); };
  assert.equal(span('resolution >= 720 and bogus.field', 23), 'bogus.field');
  assert.equal(span('bitrate < ', 9), '<');
  assert.equal(span('日本 x', 4), 'x', 'columns count characters');
  assert.equal(span('abc', 9), '', 'past the end: nothing to underline');
});

// MARK: Remote

const nowPlaying = (fields = {}) => ({
  status: 'playing', desiresPlayback: true, rate: 2, currentTime: 10, duration: 60, metadata: { title: 'Clip', subtitle: 'S1' },
  permissions: { canSeek: true, canChangeRate: true, canPlayPause: true, skipInterval: 15 },
  speeds: [{ rate: 1, localizedNumericName: '1×' }, { rate: 2, localizedNumericName: '2×' }], selectedSpeed: { rate: 2 }, ...fields,
});

test("remote: the TV's position moves on at its rate while it plays, and stops at the end", () => {
  assert.equal(remote.remoteTime(nowPlaying(), 3), 16);
  assert.equal(remote.remoteTime(nowPlaying({ status: 'paused' }), 3), 10);
  assert.equal(remote.remoteTime(nowPlaying(), 100), 60);
  assert.equal(remote.remoteTime(null, 3), 0);
});

test("remote: the controls are what the session's permissions allow", () => {
  const view = remote.controlsView(nowPlaying());
  assert.equal(view.title, 'Clip');
  assert.equal(view.playing, true);
  assert.equal(view.interval, 15);
  assert.equal(view.canSeek, true);
  assert.equal(view.showSpeeds, true);
  assert.equal(view.speed, '2');
  const locked = remote.controlsView(nowPlaying({ permissions: { canSeek: false, canChangeRate: false, canPlayPause: false, skipInterval: 10 } }));
  assert.deepEqual([locked.canSeek, locked.showSpeeds, locked.canPlayPause], [false, false, false]);
  const nothing = remote.controlsView(null);
  assert.deepEqual([nothing.canSeek, nothing.canPlayPause, nothing.showSpeeds, nothing.interval, nothing.speed], [false, false, false, 10, null]);
  assert.notEqual(nothing.title, '');
});

test('remote: the volume row shows the TV page’s level, and hides when it reports none', () => {
  assert.deepEqual(remote.volumeView(nowPlaying({ volume: 0.5, muted: false })), { hidden: false, level: 0.5, percent: '50%', silent: false, muted: false, volume: 0.5 });
  assert.equal(remote.volumeView(nowPlaying({ volume: 0.5, muted: true })).silent, true);
  assert.equal(remote.volumeView(nowPlaying({ volume: 0.5, muted: true })).percent, '0%');
  assert.equal(remote.volumeView(nowPlaying()).hidden, true);
  assert.equal(remote.volumeView(nowPlaying({ volume: 1, status: 'failed' })).hidden, true);
  assert.deepEqual(remote.pickerEntries([{ id: 'en', name: 'English' }, { id: 'x', language: 'ja' }], 'Off'), [['', 'Off'], ['en', 'English'], ['x', 'ja']]);
  assert.deepEqual(remote.pickerEntries([{ id: 'a1' }], null), [['a1', 'a1']]);
});

// MARK: Live Activities

const activity = (id, state, relevance = 50, fields = {}) => ({ state, activity: { id, type: 'Custom', startDate: '2026-01-01T00:00:00Z', content: { relevanceScore: relevance, state: {} }, ...fields } });

test('activities: the API snapshot is split into state and activity', () => {
  assert.deepEqual(arrangement.normalize({ id: 'a', state: 'active', type: 'X' }), { state: 'active', activity: { id: 'a', type: 'X' } });
});

test('activities: dismissed ones and those dismissed here are not listed; live ones lead', () => {
  const list = [activity('old', 'stale', 100), activity('gone', 'dismissed'), activity('live', 'active', 10), activity('mine', 'active', 90)];
  assert.deepEqual(arrangement.listed(list, new Set(['mine'])).map((s) => s.activity.id), ['live', 'old']);
});

test('activities: an ended activity goes at its dismissal date', () => {
  const ended = activity('e', 'ended', 50, { dismissalDate: 1000 });
  assert.equal(arrangement.pastDismissal(ended, 999), false);
  assert.equal(arrangement.pastDismissal(ended, 1000), true);
  assert.equal(arrangement.pastDismissal({ ...ended, state: 'active' }, 2000), false);
  assert.equal(arrangement.pastDismissal(activity('x', 'ended'), 2000), false, 'no date: the server says');
});

test('activities: the island shows the first compact, or the alerted one expanded; a second competes minimal', () => {
  const list = [activity('a', 'active', 90), activity('b', 'active', 50), activity('c', 'active', 10)];
  assert.deepEqual(arrangement.islandArrangement([]), { mode: 'idle', main: null, detached: null });
  assert.deepEqual(arrangement.islandArrangement(list), { mode: 'compact', main: { id: 'a', view: 'compact' }, detached: 'b' });
  assert.deepEqual(arrangement.islandArrangement(list, { expandedID: 'b', expanding: true }), { mode: 'expanded', main: { id: 'b', view: 'expanded' }, detached: 'a' });
  assert.deepEqual(arrangement.islandArrangement(list, { expandedID: 'b', expanding: false }).mode, 'compact', 'the expansion is over');
  assert.deepEqual(arrangement.islandArrangement(list, { expandedID: 'gone', expanding: true }).mode, 'compact');
  assert.deepEqual(arrangement.islandArrangement([list[0]], { expandedID: 'a', expanding: true }), { mode: 'expanded', main: { id: 'a', view: 'expanded' }, detached: null });
});

test('activities: a download and a playing item, described at a moment', () => {
  const download = { state: 'active', activity: { type: 'Downloading', attributes: { title: 'Film' }, content: { state: { percent: 42.7, bytesWritten: 2e6, expectedBytes: 5e6, secondsRemaining: 65 } } } };
  const fields = describe(download, 0);
  assert.deepEqual([fields.title, fields.value, fields.percent, fields.progress, fields.phase], ['Film', '42%', 42, 0.42, 'downloading']);
  assert.match(fields.detail, /1:05/);
  const playing = { state: 'active', activity: { type: 'NowPlaying', attributes: { title: 'Clip' }, content: { state: { position: 10, duration: 60, rate: 2, paused: false, positionDate: 100 } } } };
  const later = describe(playing, 105);
  assert.equal(later.detail, '0:20 / 1:00');
  assert.equal(later.progress, 20 / 60);
  assert.equal(describe({ ...playing, state: 'stale' }, 105).detail, '0:10 / 1:00', 'a stale activity stands still');
  const ended = { state: 'active', activity: { type: 'NowPlaying', attributes: { title: 'Clip' }, content: { state: { position: 60, duration: 60, rate: 1, paused: true, positionDate: 100, upNextTitle: 'S1 · E2', upNextDate: 108 } } } };
  const next = describe(ended, 103);
  assert.deepEqual([next.subtitle, next.value], ['Up next: S1 · E2', 'in 5 s'], 'at the end it says what plays next, and when');
  const together = describe({ ...playing, activity: { ...playing.activity, content: { state: { ...playing.activity.content.state, watching: 3 } } } }, 105);
  assert.equal(together.subtitle, 'Watching together · 3');
  const custom = describe({ state: 'active', activity: { type: 'Score', attributes: {}, content: { state: { home: 2, away: 1, note: { x: 1 } } } } }, 0);
  assert.deepEqual([custom.title, custom.value, custom.detail], ['Score', '2', 'home: 2 · away: 1']);
});

test("the remote shows the TV's Up Next offer and its countdown, from the snapshot alone", () => {
  const offer = { state: 'offered', title: 'S1 · E2', ready: true, secondsLeft: 8 };
  assert.deepEqual(remote.upNextView(null), { hidden: true });
  assert.deepEqual(remote.upNextView({ upNext: { ...offer, state: 'dismissed' } }), { hidden: true });
  assert.deepEqual(remote.upNextView({ upNext: offer }, 2.5), { hidden: false, text: 'Up next: S1 · E2 in 6 s', canPlay: true });
  assert.deepEqual(remote.upNextView({ upNext: { ...offer, ready: false, secondsLeft: null } }), { hidden: false, text: 'Up next: S1 · E2', canPlay: false });
});
