// Subtitles never sit under the controls: while the control bar shows, the cues that would be
// drawn at the bottom of the picture move up a few lines to end just above it, and move back
// down when the controls fade. Cues the subtitle file places itself (a `line` other than auto)
// are left alone.

const GAP = 12; // px between the last line of a cue and the top of the controls
const LINE_HEIGHT = 1.17; // a cue line's height for its font size, rounded down (so cues end higher, not lower)

export class CuePlacement {
  /**
   * @param {HTMLVideoElement} video the element the subtitles are drawn on
   * @param {HTMLElement} player the player; its classes say whether the controls show
   * @param {HTMLElement} bar the bottom control bar
   */
  constructor(video, player, bar) {
    this.video = video;
    this.player = player;
    this.bar = bar;
    this.watched = new WeakSet();
    const update = () => this.update();
    new MutationObserver(update).observe(player, { attributes: true, attributeFilter: ['class'] });
    new ResizeObserver(update).observe(video);
    video.textTracks.addEventListener('addtrack', (event) => this.watch(event.track));
    video.textTracks.addEventListener('change', update);
    for (const track of video.textTracks) this.watch(track);
  }

  watch(track) {
    if (this.watched.has(track)) return;
    this.watched.add(track);
    track.addEventListener('cuechange', () => this.place(track));
  }

  /** The cue line (counted from the bottom, -1 being the last) whose bottom edge clears the
   *  controls, or `null` when the controls are out of the way. Cue text is 5% of the video's
   *  size (WebVTT rendering rules), so a line is a little more than that. */
  raisedLine() {
    const hidden = this.player.classList.contains('controls-hidden');
    if (hidden) return null;
    const video = this.video.getBoundingClientRect();
    const bar = this.bar.getBoundingClientRect();
    const covered = video.bottom - (bar.top - GAP);
    if (!video.height || covered <= 0) return null;
    // Chromium sizes cue text from the smaller side of the element, others from its height:
    // the smaller estimate of a line can only lift the cue higher, never leave it under the bar.
    const step = Math.min(video.width, video.height) * 0.05 * LINE_HEIGHT;
    return -(Math.ceil(covered / step) + 1);
  }

  update() {
    for (const track of this.video.textTracks) this.place(track);
  }

  place(track) {
    if (track.mode !== 'showing' || !track.activeCues) return;
    const line = this.raisedLine();
    const moved = [...track.activeCues].filter((cue) => this.position(cue, line));
    // Browsers draw a showing cue once; taking it out and putting it back redraws it in place.
    for (const cue of moved) {
      track.removeCue(cue);
      track.addCue(cue);
    }
    this.player.dataset.cuesRaised = String(line !== null);
  }

  /** Gives `cue` the line; answers whether it changed. */
  position(cue, line) {
    if (!('line' in cue)) return false;
    if (cue.marqueeOwnLine === undefined) cue.marqueeOwnLine = cue.line !== 'auto' || !cue.snapToLines;
    if (cue.marqueeOwnLine) return false;
    const wanted = line ?? 'auto';
    if (cue.line === wanted) return false;
    cue.line = wanted;
    return true;
  }
}
