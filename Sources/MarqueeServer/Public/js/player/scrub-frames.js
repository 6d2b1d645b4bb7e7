// While a person scrubs, the picture follows: the media element holds still and is moved to
// the keyframe at or before the scrub target (each segment of the manifest starts on one, so
// the frame decodes at once), with `fastSeek` where the browser has it — one seek at a time
// and at most one every SEEK_INTERVAL_MS. When the scrub ends the page seeks where the session
// says and playback carries on if it was running; a cancelled scrub puts the picture back.

const SEEK_INTERVAL_MS = 80;

export class ScrubFrames {
  /**
   * @param {HTMLVideoElement} video the primary media element
   * @param {() => number[]} keyframes start times of the playing variant's segments, ascending
   */
  constructor(video, keyframes) {
    this.video = video;
    this.keyframes = keyframes;
    this.active = false;
    this.timer = null;
    video.addEventListener('seeked', () => { if (this.active) this.pump(); });
  }

  get isActive() { return this.active; }

  begin() {
    if (this.active) return;
    this.active = true;
    this.origin = this.video.currentTime;
    this.wasPlaying = !this.video.paused;
    if (this.wasPlaying) this.video.pause();
    this.shown = null;
    this.wanted = null;
    this.lastSeek = 0;
  }

  /** Shows the keyframe at or before `time` as soon as the element can take another seek. */
  show(time) {
    if (!this.active) return;
    this.wanted = this.keyframeAt(time);
    this.pump();
  }

  keyframeAt(time) {
    const starts = this.keyframes() ?? [];
    let key = 0;
    for (const start of starts) {
      if (start <= time + 0.001) key = start; else break;
    }
    return key;
  }

  pump() {
    clearTimeout(this.timer);
    if (!this.active || this.wanted === null || this.wanted === this.shown || this.video.seeking) return;
    const wait = this.lastSeek + SEEK_INTERVAL_MS - performance.now();
    if (wait > 0) {
      this.timer = setTimeout(() => this.pump(), wait);
      return;
    }
    this.shown = this.wanted;
    this.lastSeek = performance.now();
    if (typeof this.video.fastSeek === 'function') this.video.fastSeek(this.shown);
    else this.video.currentTime = this.shown;
  }

  /** Stops following the scrub; answers whether playback was running before it began. */
  finish() {
    clearTimeout(this.timer);
    const wasPlaying = this.active && this.wasPlaying;
    this.active = false;
    this.wasPlaying = false;
    return wasPlaying;
  }

  /** Stops following and puts the picture back where it was; answers as `finish`. */
  cancel() {
    const moved = this.active && this.shown !== null;
    const origin = this.origin;
    const wasPlaying = this.finish();
    if (moved) this.video.currentTime = origin;
    return wasPlaying;
  }
}
