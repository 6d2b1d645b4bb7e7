// Plays a JSON playback manifest through Media Source Extensions: one SourceBuffer for
// video and one for audio, filled a little ahead of the playhead, switching video variants
// by measured throughput (or holding the one the viewer chose in the quality menu) and audio
// renditions on request. It carries out seeks and rate changes it is told about; it decides
// nothing about playback itself.

const AHEAD_SECONDS = 16;
const BEHIND_SECONDS = 60;

export class MSELoader extends EventTarget {
  constructor(video, manifest) {
    super();
    this.video = video;
    this.manifest = manifest;
    this.throughput = null; // bits per second, smoothed
    this.variantIndex = 0;
    this.manualVariant = null; // the viewer's choice (an index into `variants`), or null for Auto
    this.audioIndex = Math.max(0, manifest.audio.findIndex((a) => a.isDefault));
    this.tracks = {};
    this.stopped = false;
    this.prefetched = new Map(); // address → the promise of its bytes (`prefetch`)
  }

  static supported(manifest) {
    const ms = window.MediaSource;
    if (!ms) return false;
    return manifest.video.some((v) => ms.isTypeSupported(v.mimeType)) &&
      manifest.audio.every((a) => ms.isTypeSupported(a.mimeType));
  }

  /** Attaches a MediaSource to the video element and starts loading. */
  async start(startTime = 0) {
    this.variants = this.manifest.video.filter((v) => MediaSource.isTypeSupported(v.mimeType));
    this.variantIndex = this.initialVariant();
    const mediaSource = new MediaSource();
    this.mediaSource = mediaSource;
    this.video.src = URL.createObjectURL(mediaSource);
    // The first initialization sections and segments are asked for now, while the MediaSource
    // opens and the page sets itself up; `fill` takes them from here.
    const holding = (source) => source.segments.find((s) => startTime < s.start + s.duration)?.url;
    const sources = [this.variants[this.variantIndex], this.manifest.audio[this.audioIndex]].filter(Boolean);
    for (const source of sources) for (const url of [source.initialization, holding(source)]) if (url) this.prefetch(url);
    await new Promise((resolve) => mediaSource.addEventListener('sourceopen', resolve, { once: true }));
    mediaSource.duration = this.manifest.duration;
    this.tracks.video = this.makeTrack(this.variants[this.variantIndex].mimeType, () => this.variants[this.variantIndex]);
    if (this.manifest.audio.length) {
      this.tracks.audio = this.makeTrack(this.manifest.audio[this.audioIndex].mimeType, () => this.manifest.audio[this.audioIndex]);
    }
    if (startTime > 0) this.video.currentTime = startTime;
    this.video.addEventListener('seeking', () => this.tick());
    this.video.addEventListener('timeupdate', () => this.tick());
    this.interval = setInterval(() => this.tick(), 250);
    this.tick();
  }

  stop() {
    this.stopped = true;
    clearInterval(this.interval);
    this.prefetched.clear();
    for (const track of Object.values(this.tracks)) track.abort?.abort();
  }

  /** Starts with the lightest variant for a quick first frame; `adapt` moves up once the
   *  first segment has measured the connection. */
  initialVariant() {
    return 0;
  }

  makeTrack(mimeType, current) {
    const buffer = this.mediaSource.addSourceBuffer(mimeType);
    return { buffer, current, initURL: null, busy: false, lastIndex: -1, lastSource: null, abort: null, endAppended: false };
  }

  /** The currently chosen video variant (for the info panel and tests). */
  get currentVariant() { return this.variants?.[this.variantIndex]; }

  /** The variant whose picture the element shows now (its decoded size), else the one loading. */
  get playingVariant() {
    const { videoWidth: width, videoHeight: height } = this.video;
    return this.variants?.find((v) => v.width === width && v.height === height) ?? this.currentVariant;
  }

  /** Whether the quality is chosen automatically (by throughput) rather than by the viewer. */
  get isAutomatic() { return this.manualVariant === null; }

  /**
   * Holds the video variant with this manifest id (the quality menu), or goes back to choosing
   * by throughput (`null`, Auto). A chosen variant replaces what is buffered at once, so its
   * pictures show within a segment rather than after the 16 s already buffered.
   */
  selectVariant(id) {
    if (id === null) {
      const held = this.variantIndex;
      this.manualVariant = null;
      this.adapt();
      // Auto chose another variant than the one held: the rest of the segment playing now plays
      // out, and what was buffered after it is fetched again in the new one.
      const track = this.tracks.video;
      const playing = this.currentVariant.segments.find((s) => this.video.currentTime < s.start + s.duration);
      if (this.variantIndex !== held && track && playing) {
        track.abort?.abort();
        track.flushFrom = playing.start + playing.duration;
        track.pendingFlush = true;
        this.tick();
      }
      return;
    }
    const index = this.variants?.findIndex((v) => v.id === id) ?? -1;
    if (index < 0) return;
    this.manualVariant = index;
    if (index === this.variantIndex || !this.tracks.video) return;
    this.variantIndex = index;
    const track = this.tracks.video;
    track.abort?.abort();
    track.pendingFlush = true;
    this.dispatchEvent(new CustomEvent('variantchange', { detail: this.variants[index] }));
    this.tick();
  }

  /** Switches audio to the rendition with this manifest id. */
  selectAudio(id) {
    const index = this.manifest.audio.findIndex((a) => a.id === id);
    if (index < 0 || index === this.audioIndex || !this.tracks.audio) return;
    this.audioIndex = index;
    const track = this.tracks.audio;
    track.abort?.abort();
    track.pendingFlush = true;
    this.tick();
  }

  tick() {
    if (this.stopped || !this.mediaSource || this.mediaSource.readyState === 'closed') return;
    for (const [kind, track] of Object.entries(this.tracks)) this.fill(kind, track);
    this.maybeEnd();
  }

  bufferedEnd(buffer, time) {
    const ranges = buffer.buffered;
    for (let i = 0; i < ranges.length; i++) {
      if (time >= ranges.start(i) - 0.3 && time <= ranges.end(i) + 0.1) return ranges.end(i);
    }
    return null;
  }

  async fill(kind, track) {
    if (track.busy || track.buffer.updating) return;
    const time = this.video.currentTime;
    if (track.pendingFlush) {
      // Everything (another rendition chosen: its data replaces what is buffered at once), or
      // from `flushFrom` on (Auto chose again: what plays now plays out, the rest is refetched).
      const from = track.flushFrom ?? 0;
      track.busy = true;
      track.pendingFlush = false;
      track.flushFrom = null;
      if (from === 0) track.initURL = null;
      track.lastIndex = -1;
      track.endAppended = false;
      const within = from < (this.mediaSource.duration || Infinity);
      try { if (within) await this.update(track.buffer, (b) => b.remove(from, Infinity)); } finally { track.busy = false; }
      return this.fill(kind, track);
    }
    const end = this.bufferedEnd(track.buffer, time);
    if (end !== null && end - time > AHEAD_SECONDS) return;
    const source = track.current();
    const index = this.nextSegment(track, source, time, end);
    if (index >= source.segments.length) return;
    track.busy = true;
    const abort = new AbortController();
    track.abort = abort;
    try {
      // The segment is fetched while the initialization section (when one is needed) is
      // fetched and appended, so the first frame waits for one round trip, not two.
      const segment = source.segments[index];
      const started = performance.now();
      const fetched = this.fetchBytes(segment.url, abort.signal).then((bytes) => ({ bytes, milliseconds: performance.now() - started }));
      fetched.catch(() => {}); // a failure is met below, where it is awaited
      if (track.initURL !== source.initialization) {
        const init = await this.fetchBytes(source.initialization, abort.signal);
        await this.update(track.buffer, (b) => b.appendBuffer(init));
        track.initURL = source.initialization;
      }
      const { bytes, milliseconds } = await fetched;
      if (kind === 'video') this.measure(bytes.byteLength, milliseconds);
      await this.update(track.buffer, (b) => b.appendBuffer(bytes));
      track.lastIndex = index;
      track.lastSource = source;
      if (index === source.segments.length - 1) track.endAppended = true;
      this.trimBehind(track.buffer);
      if (kind === 'video') this.adapt();
      track.stateErrors = 0;
    } catch (error) {
      if (error.name !== 'AbortError' && !this.stopped) {
        if (error.name === 'InvalidStateError' && this.detached(track)) {
          // The MediaSource closed or no longer holds this buffer: this loader is being
          // replaced, and nothing is wrong with playback.
        } else if (error.name === 'InvalidStateError' && this.video.error) {
          // The media element reported an error, after which MSE takes no more appends. The
          // element's own error handler decides whether that fails playback (Firefox without
          // a sound device reports a decode error and plays on with what is buffered).
          this.stopped = true;
        } else if (error.name === 'InvalidStateError' && (track.stateErrors = (track.stateErrors ?? 0) + 1) < 3) {
          // The buffer was busy or its MediaSource was ending at that moment: try again on
          // a later tick rather than fail playback (three in a row do).
          setTimeout(() => this.tick(), 50);
        } else if (error.name === 'QuotaExceededError') {
          await this.update(track.buffer, (b) => b.remove(0, Math.max(0, this.video.currentTime - 5))).catch(() => {});
        } else {
          this.dispatchEvent(new CustomEvent('error', { detail: error }));
        }
      }
    } finally {
      track.busy = false;
      if (track.abort === abort) track.abort = null;
    }
    queueMicrotask(() => this.tick());
  }

  /** Whether `track`'s buffer is no longer part of an open MediaSource. */
  detached(track) {
    const source = this.mediaSource;
    return !source || source.readyState === 'closed' || !Array.from(source.sourceBuffers).includes(track.buffer);
  }

  /** The index of the segment to append next, or `segments.length` when the track is
   *  buffered to its end. Segments are taken in order after the one last appended, however
   *  short (the last one of a clip can be a few milliseconds long); after a seek or a
   *  variant switch, the segment holding the buffered end or the playhead. */
  nextSegment(track, source, time, end) {
    const segments = source.segments;
    if (end !== null && track.lastSource === source && track.lastIndex >= 0) {
      const last = segments[track.lastIndex];
      if (Math.abs(last.start + last.duration - end) < 0.35) return track.lastIndex + 1;
    }
    // From the playhead: the segment that holds it, however close to its end (a start at 3.9 s
    // in 2 s segments needs the one ending at 4 s: taking the next left a hole under the
    // playhead and the player waiting for ever). From a buffered end: the segment that end
    // falls in, allowing for timestamps that stop a little short of the boundary.
    const index = end === null
      ? segments.findIndex((s) => time < s.start + s.duration)
      : segments.findIndex((s) => end < s.start + s.duration - Math.min(0.15, s.duration / 2));
    return index < 0 ? segments.length : index;
  }

  /** Starts fetching `url` for a later `fetchBytes` of the same address. */
  prefetch(url) {
    const bytes = this.fetchBytes(url);
    bytes.catch(() => {}); // a failure is met where it is taken
    this.prefetched.set(url, bytes);
  }

  async fetchBytes(url, signal) {
    const early = this.prefetched.get(url);
    if (early) {
      this.prefetched.delete(url);
      return early;
    }
    const response = await fetch(url, { signal });
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    return response.arrayBuffer();
  }

  update(buffer, action) {
    return new Promise((resolve, reject) => {
      const done = () => { cleanup(); resolve(); };
      const failed = () => { cleanup(); reject(new Error('SourceBuffer error')); };
      const cleanup = () => { buffer.removeEventListener('updateend', done); buffer.removeEventListener('error', failed); };
      buffer.addEventListener('updateend', done);
      buffer.addEventListener('error', failed);
      try { action(buffer); } catch (error) { cleanup(); reject(error); }
    });
  }

  trimBehind(buffer) {
    const cutoff = this.video.currentTime - BEHIND_SECONDS;
    if (cutoff > 0 && buffer.buffered.length && buffer.buffered.start(0) < cutoff && !buffer.updating) {
      buffer.remove(0, cutoff);
    }
  }

  measure(bytes, milliseconds) {
    const bps = (bytes * 8) / Math.max(milliseconds, 1) * 1000;
    this.throughput = this.throughput === null ? bps : this.throughput * 0.7 + bps * 0.3;
  }

  adapt() {
    if (this.manualVariant !== null || this.throughput === null) return;
    const maxHeight = Math.max(360, (this.video.clientHeight || 720) * (window.devicePixelRatio || 1) * 1.5);
    let chosen = 0;
    this.variants.forEach((v, i) => {
      if ((v.bandwidth ?? 0) < this.throughput * 0.7 && (v.height ?? 0) <= maxHeight) chosen = i;
    });
    if (chosen !== this.variantIndex) {
      this.variantIndex = chosen;
      this.dispatchEvent(new CustomEvent('variantchange', { detail: this.variants[chosen] }));
    }
  }

  /** Signals the end of the stream once every track has appended its last segment and the
   *  playhead sits in each track's final buffered range. Audio and video may end a few
   *  milliseconds apart; the element ends when both have played out. Appending again
   *  (after a seek back into trimmed data) reopens the source, and this signals again. */
  maybeEnd() {
    if (this.mediaSource.readyState !== 'open') return;
    const all = Object.values(this.tracks);
    if (all.some((t) => t.busy || t.buffer.updating || t.pendingFlush)) return;
    const time = this.video.currentTime;
    const done = all.every((t) => {
      const ranges = t.buffer.buffered;
      if (!t.endAppended || !ranges.length) return false;
      const end = this.bufferedEnd(t.buffer, time);
      return end !== null && end >= ranges.end(ranges.length - 1) - 0.001;
    });
    if (done) {
      try { this.mediaSource.endOfStream(); } catch { /* ended meanwhile */ }
    }
  }
}
