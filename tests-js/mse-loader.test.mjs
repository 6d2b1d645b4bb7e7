// Unit tests for the segment loader's decisions (which segment next, when the stream ends,
// which variant), with a fake MediaSource, SourceBuffer and fetch: `node --test tests-js/`.
import { test } from 'node:test';
import assert from 'node:assert/strict';

globalThis.window = { devicePixelRatio: 1 };
const { MSELoader } = await import('../Sources/MarqueeServer/Public/js/player/mse-loader.js');

/** Time ranges as a SourceBuffer reports them, merged. */
class Ranges {
  constructor() { this.spans = []; }
  add(start, end) {
    this.spans.push([start, end]);
    this.spans.sort((a, b) => a[0] - b[0]);
    const merged = [];
    for (const [s, e] of this.spans) {
      const last = merged[merged.length - 1];
      if (last && s <= last[1] + 0.01) last[1] = Math.max(last[1], e); else merged.push([s, e]);
    }
    this.spans = merged;
  }
  get length() { return this.spans.length; }
  start(i) { return this.spans[i][0]; }
  end(i) { return this.spans[i][1]; }
}

/** A SourceBuffer whose appends are fake segments: JSON `{start, duration}` (init: `{}`). */
class FakeBuffer extends EventTarget {
  constructor() { super(); this.buffered = new Ranges(); this.updating = false; this.appended = []; }
  appendBuffer(bytes) {
    this.updating = true;
    const segment = JSON.parse(new TextDecoder().decode(bytes));
    this.appended.push(segment);
    if (segment.duration !== undefined) this.buffered.add(segment.start, segment.start + segment.duration);
    setTimeout(() => { this.updating = false; this.dispatchEvent(new Event('updateend')); }, 0);
  }
  remove(start, end) {
    this.updating = true;
    this.buffered.spans = this.buffered.spans.map(([s, e]) => [Math.max(s, end), e]).filter(([s, e]) => e > s);
    setTimeout(() => { this.updating = false; this.dispatchEvent(new Event('updateend')); }, 0);
  }
}

/** A clip of `count` 4-second segments whose last is `last` seconds long. */
function manifest(count, last) {
  const segments = (prefix) => Array.from({ length: count }, (_, i) => {
    const duration = i === count - 1 ? last : 4;
    return { url: `${prefix}/${i}?start=${i * 4}&duration=${duration}`, start: i * 4, duration };
  });
  const duration = (count - 1) * 4 + last;
  return {
    duration,
    video: [
      { mimeType: 'video/mp4', initialization: '/v360/init', bandwidth: 600_000, height: 360, segments: segments('/v360') },
      { mimeType: 'video/mp4', initialization: '/v720/init', bandwidth: 2_500_000, height: 720, segments: segments('/v720') },
    ],
    audio: [{ id: 'en', isDefault: true, mimeType: 'audio/mp4', initialization: '/a/init', segments: segments('/a') }],
  };
}

globalThis.fetch = async (url) => {
  const query = new URL(url, 'http://x').searchParams;
  const body = query.has('start') ? { start: Number(query.get('start')), duration: Number(query.get('duration')) } : {};
  const bytes = new TextEncoder().encode(JSON.stringify(body));
  return { ok: true, status: 200, arrayBuffer: async () => bytes.buffer };
};

function loaderAt(time, clip) {
  const video = new EventTarget();
  video.currentTime = time;
  video.clientHeight = 720;
  const loader = new MSELoader(video, clip);
  loader.variants = clip.video;
  let ended = 0;
  loader.mediaSource = {
    readyState: 'open',
    sourceBuffers: [],
    endOfStream() { ended += 1; this.readyState = 'ended'; },
  };
  loader.tracks.video = { buffer: new FakeBuffer(), current: () => loader.variants[loader.variantIndex], initURL: null, busy: false, lastIndex: -1, lastSource: null, abort: null, endAppended: false };
  loader.tracks.audio = { buffer: new FakeBuffer(), current: () => clip.audio[0], initURL: null, busy: false, lastIndex: -1, lastSource: null, abort: null, endAppended: false };
  loader.mediaSource.sourceBuffers = [loader.tracks.video.buffer, loader.tracks.audio.buffer];
  return { loader, video, ended: () => ended };
}

async function settle(loader, rounds = 60) {
  for (let i = 0; i < rounds; i++) {
    loader.tick();
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

test('fills about 16 s ahead of the playhead, init section first, segments in order', async () => {
  const { loader } = loaderAt(0, manifest(20, 4));
  await settle(loader);
  const appended = loader.tracks.audio.buffer.appended;
  assert.deepEqual(appended[0], {});
  const starts = appended.slice(1).map((s) => s.start);
  assert.deepEqual(starts, starts.slice().sort((a, b) => a - b));
  const end = loader.tracks.audio.buffer.buffered.end(0);
  assert.ok(end >= 16 && end <= 24, `buffered to ${end}`);
  assert.equal(loader.mediaSource.readyState, 'open');
});

test('a runt last segment is appended and the stream ends once the playhead reaches the last range', async () => {
  const clip = manifest(3, 0.04);
  const { loader, video, ended } = loaderAt(0, clip);
  await settle(loader);
  for (const track of Object.values(loader.tracks)) {
    assert.equal(track.endAppended, true);
    assert.equal(track.buffer.buffered.end(track.buffer.buffered.length - 1), 8.04);
  }
  assert.equal(ended(), 1, 'endOfStream once everything is buffered and the playhead is in the final range');
  // A seek back into a trimmed part reopens the source and ends it again later.
  video.currentTime = 1;
  assert.equal(ended(), 1);
});

test('the stream does not end while a track is busy or the playhead is outside the final range', async () => {
  const clip = manifest(3, 4);
  const { loader, ended } = loaderAt(0, clip);
  await settle(loader);
  loader.mediaSource.readyState = 'open';
  loader.tracks.video.busy = true;
  loader.maybeEnd();
  assert.equal(ended(), 1, 'no second end while busy');
  loader.tracks.video.busy = false;
  loader.video.currentTime = 100; // outside every range
  loader.maybeEnd();
  assert.equal(ended(), 1);
});

test('after a seek the next segment is the one holding the playhead', () => {
  const clip = manifest(20, 4);
  const { loader } = loaderAt(0, clip);
  const track = loader.tracks.audio;
  assert.equal(loader.nextSegment(track, clip.audio[0], 41, null), 10);
  // A playhead just before a boundary still needs the segment it is in (3.9 s in 4 s
  // segments ending at 4: segment 0, not 1 — a hole under the playhead stalled the player).
  assert.equal(loader.nextSegment(track, clip.audio[0], 3.9, null), 0);
  assert.equal(loader.nextSegment(track, clip.audio[0], 3.999, null), 0);
  assert.equal(loader.nextSegment(track, clip.audio[0], 4, null), 1);
  // In order after the last appended one, however short it is.
  track.lastSource = clip.audio[0];
  track.lastIndex = 4;
  assert.equal(loader.nextSegment(track, clip.audio[0], 17, 20), 5);
  // Past the end: nothing more.
  assert.equal(loader.nextSegment(track, clip.audio[0], 80, null), 20);
});

test('the variant follows measured throughput, within the picture size', () => {
  const clip = manifest(5, 4);
  const { loader } = loaderAt(0, clip);
  const changes = [];
  loader.addEventListener('variantchange', (event) => changes.push(event.detail.height));
  loader.measure(1_000_000, 1000); // 8 Mbit/s
  loader.adapt();
  assert.equal(loader.variantIndex, 1);
  for (let i = 0; i < 10; i++) loader.measure(50_000, 1000); // 0.4 Mbit/s, smoothed down
  loader.adapt();
  assert.equal(loader.variantIndex, 0);
  assert.deepEqual(changes, [720, 360]);
});

test('after the media element reports an error, refused appends stop the loader without failing playback', async () => {
  const { loader, video } = loaderAt(0, manifest(20, 4));
  const failures = [];
  loader.addEventListener('error', (event) => failures.push(event.detail));
  // MSE refuses every append once the element has an error (Firefox's decode error without a sound device).
  video.error = { code: 3, message: 'OnMediaSinkAudioError' };
  for (const track of [loader.tracks.video, loader.tracks.audio]) {
    track.buffer.appendBuffer = () => { throw new DOMException('An attempt was made to use an object that is not, or is no longer, usable', 'InvalidStateError'); };
  }
  await settle(loader);
  assert.deepEqual(failures, []);
  assert.equal(loader.stopped, true);
});
