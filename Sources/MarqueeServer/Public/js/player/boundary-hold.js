// Holds primary playback at the time the session names as its next boundary (an ad break):
// the element is paused on that frame and the time reported at once, so the break starts
// where it should instead of up to a time report later, and the primary resumes without
// repeating what played before it. The session answers the report with the break, or with
// `play` to go on; this module decides nothing.

/** Within this much of the boundary, the playhead is polled on every timer tick. */
const NEAR_SECONDS = 0.05;

export class BoundaryHold {
  /**
   * @param {HTMLVideoElement} video the primary element
   * @param {(time: number) => void} onHold called with the playhead once held
   */
  constructor(video, onHold) {
    this.video = video;
    this.onHold = onHold;
    this.boundary = null;
    this.heldAt = null;
    this.timer = null;
    for (const type of ['play', 'playing', 'seeked', 'ratechange']) video.addEventListener(type, () => this.schedule());
    video.addEventListener('seeking', () => { this.heldAt = null; this.cancel(); });
    video.addEventListener('pause', () => this.cancel());
  }

  /** The session's boundary (`null` for none). */
  set(boundary) {
    const next = Number.isFinite(boundary) ? boundary : null;
    if (next !== this.boundary) {
      this.boundary = next;
      this.heldAt = null;
    }
    this.schedule();
  }

  cancel() {
    clearTimeout(this.timer);
    this.timer = null;
  }

  schedule() {
    this.cancel();
    const video = this.video;
    const boundary = this.boundary;
    if (boundary === null || video.paused || video.seeking || this.heldAt === boundary) return;
    const ahead = boundary - video.currentTime;
    // Already past it (the playhead jumped, or the boundary came late): the session's next
    // time report settles it.
    if (ahead < -NEAR_SECONDS) return;
    if (ahead <= 0) { this.hold(); return; }
    const rate = video.playbackRate > 0 ? video.playbackRate : 1;
    const wait = ahead > NEAR_SECONDS ? ((ahead - NEAR_SECONDS) / rate) * 1000 : 0;
    this.timer = setTimeout(() => this.schedule(), wait);
  }

  hold() {
    this.heldAt = this.boundary;
    this.video.pause();
    this.onHold(this.video.currentTime);
  }
}
