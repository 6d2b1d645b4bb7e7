// Plays an interstitial (an ad) in its own video element over the paused primary item, from
// the interstitial's playback manifest, and reports its time and end.
//
// A break is prepared ahead of its boundary (`prepare`, a few seconds before): its manifest
// (or asset list, or external HLS playlists) is resolved, a MediaSource attached to this
// element and its first segments appended, paused on its first frame, invisible and behind
// the primary. When the session starts the break the element only has to play, so its first
// frame follows the primary's last one within a frame or two. A preparation that failed is
// reported when the break starts (the session skips it); one for a break that never comes is
// dropped.
import { MSELoader } from './mse-loader.js';
import { REPORT } from './renderer-vocabulary.js';
import { interstitialManifest } from './interstitial-source.js';
import { nextPresentedFrame } from './interstitial-handoff.js';

const preparationKey = (event) => `${event.id}\n${event.url}\n${event.assetListURL ?? ''}`;

/** Resolves once `video` has its current frame decoded (or after `timeout` ms). */
function firstFrameLoaded(video, timeout) {
  if (video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => { clearTimeout(timer); video.removeEventListener('loadeddata', done); resolve(); };
    const timer = setTimeout(done, timeout);
    video.addEventListener('loadeddata', done);
  });
}

export class InterstitialPlayer {
  /** @param {HTMLVideoElement} video @param {(report: string, fields?: object) => void} report @param {() => string} sessionID */
  constructor(video, report, sessionID = () => '') {
    this.video = video;
    this.report = report;
    this.sessionID = sessionID;
    this.active = null;
    this.prepared = null; // { key, event, engine, ready: Promise, failure }
    this.lastReport = 0;
    video.addEventListener('timeupdate', () => {
      if (!this.active) return;
      const now = performance.now();
      if (now - this.lastReport > 250) {
        this.lastReport = now;
        this.report(REPORT.time, { time: video.currentTime });
      }
    });
    video.addEventListener('ended', () => { if (this.active) this.report(REPORT.ended); });
    // A break that cannot play is the session's to skip: it hears why, and resumes the primary.
    video.addEventListener('error', () => {
      const message = video.error?.message || `media error ${video.error?.code ?? ''}`;
      if (this.active) this.report(REPORT.interstitialFailed, { message });
      else if (this.prepared) this.prepared.failure = message;
    });
  }

  get isActive() { return this.active !== null; }

  /** The event prepared (or being prepared) ahead of its break, if any. */
  get preparedEvent() { return this.prepared?.event ?? null; }

  /** Loads `event` paused on its first frame, ready to play at once when its break starts.
   *  Does nothing while a break plays or when `event` is already prepared; replaces another preparation. */
  prepare(event) {
    if (this.active || !event) return;
    const key = preparationKey(event);
    if (this.prepared?.key === key) return;
    this.discard();
    const preparation = { key, event, engine: null, failure: null };
    this.prepared = preparation;
    preparation.ready = (async () => {
      const manifest = await interstitialManifest(event, this.sessionID());
      if (this.prepared !== preparation) return;
      this.video.dataset.pending = '';
      this.video.dataset.preparing = '';
      this.video.hidden = false;
      preparation.engine = new MSELoader(this.video, manifest);
      preparation.engine.addEventListener('error', (error) => { preparation.failure = String(error.detail?.message ?? error.detail); });
      await preparation.engine.start();
      await firstFrameLoaded(this.video, 5000);
    })();
    preparation.ready.catch((error) => { preparation.failure = String(error?.message ?? error); });
  }

  /** Drops a preparation whose break did not come (a seek, new events). */
  discard() {
    if (!this.prepared) return;
    this.prepared.engine?.stop();
    this.prepared = null;
    if (!this.active) this.reset();
  }

  async start(event, rate) {
    const prepared = this.prepared?.key === preparationKey(event) ? this.prepared : null;
    if (!prepared) this.discard();
    this.engine?.stop();
    this.engine = null;
    this.prepared = null;
    this.active = event;
    if (!prepared) this.reset();
    // Behind the primary's held frame until the break's first frame is presented: no black flash.
    this.video.dataset.pending = '';
    delete this.video.dataset.preparing;
    this.video.hidden = false;
    nextPresentedFrame(this.video, 2000).then(() => { if (this.active === event) delete this.video.dataset.pending; });
    try {
      if (prepared) {
        await prepared.ready;
        if (prepared.failure) throw new Error(prepared.failure);
        this.engine = prepared.engine;
        // Its first frame is decoded and waiting: it replaces the primary's at the next paint.
        if (this.video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA) delete this.video.dataset.pending;
        // The loader may have been told of an error after it was prepared.
        this.engine?.addEventListener('error', (error) => {
          if (this.active === event) this.report(REPORT.interstitialFailed, { message: String(error.detail?.message ?? error.detail) });
        });
      } else {
        const manifest = await interstitialManifest(event, this.sessionID());
        if (this.active !== event) return;
        this.engine = new MSELoader(this.video, manifest);
        await this.engine.start();
      }
      if (this.active !== event) return;
      this.video.defaultPlaybackRate = rate || 1;
      this.video.playbackRate = rate || 1;
      if (rate > 0) await this.video.play().catch(() => {});
    } catch (error) {
      if (this.active === event) this.report(REPORT.interstitialFailed, { message: String(error?.message ?? error) });
    }
  }

  /** Moves picture in picture to the ad (allowed without a gesture while a window is open):
   *  waits for the ad's first metadata, which the window needs. */
  async takePictureInPicture() {
    if (!this.active || !document.pictureInPictureElement) return;
    if (this.video.readyState < HTMLMediaElement.HAVE_METADATA) {
      await new Promise((resolve) => {
        this.video.addEventListener('loadedmetadata', resolve, { once: true });
        this.video.addEventListener('emptied', resolve, { once: true });
      });
    }
    if (!this.active) return;
    await this.video.requestPictureInPicture().catch((error) => console.warn('picture in picture:', error.message));
  }

  play(rate) {
    this.video.playbackRate = rate;
    return this.video.play();
  }

  pause() { this.video.pause(); }

  /** Empties the element and hides it. */
  reset() {
    this.video.pause();
    this.video.removeAttribute('src');
    this.video.load();
    this.video.hidden = true;
    delete this.video.dataset.pending;
    delete this.video.dataset.preparing;
  }

  stop() {
    this.engine?.stop();
    this.engine = null;
    this.active = null;
    this.reset();
  }
}
