// What a scrub does on the page, for the timeline and the picture's swipe alike (the
// `scrubber` both drive): the controls stay, the preview above the bar shows the time and
// its trick-play tile, the picture follows (scrub-frames.js), and the end asks the session to
// seek there. Playback paused for the scrub goes on once the session's seek lands (or the
// session refuses it).
import { formatTime } from '../i18n.js';
import { PLAYER_EVENT } from './player-events.js';

/** How long playback paused for a scrub waits for the session's seek before going on anyway. */
const RESUME_FALLBACK_MS = 1500;

export class ScrubController {
  /**
   * @param {{player: HTMLElement, preview: HTMLElement, timeline: HTMLElement}} elements
   * @param {import('./player-events.js').PlayerHub} hub
   * @param {{frames: import('./scrub-frames.js').ScrubFrames, visibility: {show: Function, activity: Function},
   *          isBreakPlaying: () => boolean, show: (time: number) => void, seek: (time: number) => void}} parts
   */
  constructor(elements, hub, parts) {
    this.elements = elements;
    this.hub = hub;
    this.parts = parts;
    this.resumeAfterScrub = false;
  }

  registerListeners() {
    this.hub.on(PLAYER_EVENT.SEEK_COMMANDED, this.resumeIfScrubPaused, this);
    this.hub.on(PLAYER_EVENT.REFUSED, this.resumeIfScrubPaused, this);
  }

  resumeIfScrubPaused() {
    if (!this.resumeAfterScrub) return;
    this.resumeAfterScrub = false;
    if (this.hub.session?.desiresPlayback && !this.parts.isBreakPlaying()) this.hub.media.play().catch(() => {});
  }

  stop() {
    this.hub.scrubbing = false;
    this.elements.player.classList.remove('scrubbing');
    this.elements.preview.hidden = true;
  }

  begin() {
    this.hub.scrubbing = true;
    this.hub.trigger(PLAYER_EVENT.SCRUB_STARTED);
    this.elements.player.classList.add('scrubbing');
    this.parts.visibility.show();
    this.elements.preview.hidden = false;
    if (!this.hub.session?.activeInterstitial) this.parts.frames.begin();
  }

  move(time, clientX) {
    this.parts.show(time);
    this.positionPreview(time, clientX);
    this.parts.frames.show(time);
  }

  end(time) {
    this.stop();
    this.resumeAfterScrub = this.parts.frames.finish();
    this.parts.seek(time);
    if (this.resumeAfterScrub) setTimeout(() => this.resumeIfScrubPaused(), RESUME_FALLBACK_MS); // in case no seek comes back
    this.parts.visibility.activity();
  }

  /** The scrub was called off (a second finger, a cancelled pointer): nothing moves. */
  cancel() {
    this.stop();
    if (this.parts.frames.cancel() && this.hub.session?.desiresPlayback) this.hub.media.play().catch(() => {});
    this.parts.show(this.hub.displayedTime());
    this.parts.visibility.activity();
  }

  /** A click on the timeline without a drag seeks to the point clicked. */
  click(time) {
    this.parts.seek(time);
    this.parts.visibility.activity();
  }

  key(event) {
    if (event.key === 'Home') { this.parts.seek(0); event.preventDefault(); }
    if (event.key === 'End') { this.parts.seek(this.hub.duration()); event.preventDefault(); }
  }

  positionPreview(time, clientX) {
    const { player, preview, timeline } = this.elements;
    const duration = this.hub.duration();
    const manifest = this.hub.manifest;
    const rect = timeline.getBoundingClientRect();
    // The preview and its time label sit above the bar, never over it.
    preview.style.bottom = `${Math.max(0, player.clientHeight - rect.top + 10)}px`;
    const x = clientX ?? rect.left + (duration ? (time / duration) * rect.width : 0);
    const half = 90;
    preview.style.left = `${Math.min(Math.max(x, half), innerWidth - half)}px`;
    preview.querySelector('.scrub-time').textContent = formatTime(time);
    const thumb = preview.querySelector('.thumbnail');
    const trick = manifest?.trickPlay;
    if (trick && manifest.trickPlayURL) {
      const index = Math.min(trick.count - 1, Math.floor(time / trick.interval));
      thumb.style.width = `${trick.tileWidth}px`;
      thumb.style.height = `${trick.tileHeight}px`;
      thumb.style.backgroundImage = `url("${manifest.trickPlayURL}")`;
      thumb.style.backgroundPosition = `-${(index % trick.columns) * trick.tileWidth}px -${Math.floor(index / trick.columns) * trick.tileHeight}px`;
      thumb.dataset.tile = String(index);
    }
  }
}
