// What the primary's media element does, reported to the session (ready, time, stalls,
// playing, ended, failures), and the time shown following it. Reports name the primary as
// what they are about, so the session drops one that crossed a command starting a break (it
// would otherwise be read as the ad's clock).
import { REPORT } from './renderer-vocabulary.js';
import { Throttle } from './throttle.js';

export const PRIMARY = Object.freeze({ item: 'primary' });

const MEDIA_ERRORS = ['', 'MEDIA_ERR_ABORTED', 'MEDIA_ERR_NETWORK', 'MEDIA_ERR_DECODE', 'MEDIA_ERR_SRC_NOT_SUPPORTED'];
/** MediaError.MEDIA_ERR_DECODE */
const MEDIA_ERR_DECODE = 3;

export class MediaReports {
  /**
   * @param {import('./player-events.js').PlayerHub} hub its `media` is the primary's element
   * @param {{loading: HTMLElement}} elements the spinner
   * @param {{interstitial: {isActive: boolean}, frames: {isActive: boolean}, preloader: {consumeSeeked: () => boolean},
   *          isMoving: () => boolean, show: (time: number) => void}} parts `isMoving`: a scrub or a coasting swipe moves the time shown
   */
  constructor(hub, elements, parts) {
    this.hub = hub;
    this.elements = elements;
    this.parts = parts;
    this.timeReports = new Throttle(250);
  }

  /** Reports the primary's time now (a boundary held), outside the throttle. */
  reportTime(time) {
    this.timeReports.note();
    this.hub.report(REPORT.time, { time, ...PRIMARY });
  }

  registerListeners() {
    const { hub, parts } = this;
    const video = hub.media;
    const loading = this.elements.loading;
    video.addEventListener('loadedmetadata', () => hub.report(REPORT.ready, { duration: hub.manifest.duration || video.duration }));
    video.addEventListener('timeupdate', () => {
      if (!parts.isMoving() && hub.pendingSeek === null) parts.show(video.currentTime);
      if (!parts.interstitial.isActive && !parts.frames.isActive && this.timeReports.admit()) {
        hub.report(REPORT.time, { time: video.currentTime, ...PRIMARY });
      }
      hub.mediaSession.update({ playing: hub.session?.desiresPlayback, duration: hub.duration(), time: video.currentTime, rate: video.playbackRate });
    });
    video.addEventListener('seeked', () => {
      if (parts.preloader.consumeSeeked()) return; // the paused primary moved to where it resumes after the break
      if (parts.frames.isActive) return; // a frame shown while scrubbing, not a seek of the session's
      hub.pendingSeek = null;
      if (!parts.isMoving()) parts.show(video.currentTime);
      hub.report(REPORT.time, { time: video.currentTime, ...PRIMARY });
    });
    video.addEventListener('waiting', () => {
      if (parts.interstitial.isActive || parts.frames.isActive) return;
      loading.hidden = false;
      // Watching together, a stall holds everyone: a short wait (a drift-correcting seek)
      // is not one; only a wait still unanswered after half a second is reported.
      if (!hub.session?.group) return hub.report(REPORT.stalled, PRIMARY);
      clearTimeout(this.stallTimer);
      this.stallTimer = setTimeout(() => { if (video.readyState < 3 && !video.paused) hub.report(REPORT.stalled, PRIMARY); }, 500);
    });
    video.addEventListener('playing', () => { loading.hidden = true; clearTimeout(this.stallTimer); hub.report(REPORT.playing, PRIMARY); });
    video.addEventListener('canplay', () => {
      if (hub.session?.status !== 'waiting') loading.hidden = true;
      // In a group, a renderer that can play again (even paused with the group) lets it go on.
      if (hub.session?.group) hub.report(REPORT.ready, { duration: hub.manifest.duration || video.duration, ...PRIMARY });
    });
    video.addEventListener('ended', () => { if (!parts.interstitial.isActive) hub.report(REPORT.ended, PRIMARY); });
    video.addEventListener('error', () => this.failed(video));
  }

  failed(video) {
    const error = video.error;
    const message = error ? `${MEDIA_ERRORS[error.code] ?? 'MEDIA_ERR'}: ${error.message}` : 'unknown media error';
    // Firefox reports a sound output it cannot open (a machine without an audio device) as a
    // decode error, then plays on, silently: only a decode error after which the media stops
    // fails the session.
    if (error?.code === MEDIA_ERR_DECODE && !video.paused) {
      const at = video.currentTime;
      setTimeout(() => {
        if (video.currentTime > at || video.ended) console.warn(`media element: ${message}; playback goes on`);
        else this.hub.report(REPORT.failed, { message });
      }, 1000);
      return;
    }
    this.hub.report(REPORT.failed, { message });
  }
}
