// Plays an interstitial (an ad) in its own video element over the paused primary item,
// from the interstitial's own playback manifest, and reports its time and end.
import { MSELoader } from './mse-loader.js';
import { REPORT } from './renderer-vocabulary.js';
import { interstitialManifestURL } from './interstitial-source.js';
import { nextPresentedFrame } from './interstitial-handoff.js';

// Manifests by URL: an ad that plays in several breaks is fetched once, so later breaks start sooner.
const manifests = new Map();
function loadManifest(url) {
  if (!manifests.has(url)) {
    const loading = fetch(url).then((response) => {
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return response.json();
    });
    loading.catch(() => manifests.delete(url));
    manifests.set(url, loading);
  }
  return manifests.get(url);
}

export class InterstitialPlayer {
  constructor(video, report) {
    this.video = video;
    this.report = report;
    this.active = null;
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
      if (this.active) this.report(REPORT.interstitialFailed, { message: video.error?.message || `media error ${video.error?.code ?? ''}` });
    });
  }

  get isActive() { return this.active !== null; }

  async start(event, rate) {
    this.stop();
    this.active = event;
    // Behind the primary's held frame until the break's first frame is presented: no black flash.
    this.video.dataset.pending = '';
    this.video.hidden = false;
    nextPresentedFrame(this.video, 2000).then(() => { if (this.active === event) delete this.video.dataset.pending; });
    try {
      const manifest = await loadManifest(await interstitialManifestURL(event));
      if (this.active !== event) return;
      this.engine = new MSELoader(this.video, manifest);
      await this.engine.start();
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

  stop() {
    this.engine?.stop();
    this.engine = null;
    this.active = null;
    this.video.pause();
    this.video.removeAttribute('src');
    this.video.load();
    this.video.hidden = true;
    delete this.video.dataset.pending;
  }
}
