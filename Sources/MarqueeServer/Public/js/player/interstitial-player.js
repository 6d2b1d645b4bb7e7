// Plays a break's ads (interstitials) in their own video elements over the paused primary
// item, from each ad's playback manifest, and reports the playing ad's time and end.
//
// Two elements take turns. The one in front is always `#interstitial-video` (it plays the
// ad, or holds the break prepared ahead of its boundary); the other, `#interstitial-video-next`,
// loads the break's next ad while the current one plays (the session names it:
// `interstitialBreak.next`). When the session moves on to that ad, the two swap (and swap
// ids): the next ad's first frame is already decoded, so it replaces the last frame of the
// one before at the next paint.
//
// A break is prepared ahead of its boundary (`prepare`, a few seconds before): its manifest
// (or asset list, or external HLS playlists) is resolved, a MediaSource attached to the front
// element and its first segments appended, paused on its first frame, invisible and behind
// the primary. When the session starts the break the element only has to play, so its first
// frame follows the primary's last one within a frame or two. A preparation that failed is
// reported when its ad starts (the session skips it); one for an ad that never comes is
// dropped. An asset list resolved here is reported to the session, which decides that each
// of its assets plays (`play-interstitial-asset`); this module decides nothing.
//
// The page follows the ad's clock through this player, never through its elements: a `clock`
// event whenever the ad in front moves (or learns its duration), and `clock`, `hasEnded` and
// `holdsPictureInPicture` to read.
import { MSELoader } from './mse-loader.js';
import { REPORT } from './renderer-vocabulary.js';
import { interstitialManifest } from './interstitial-source.js';
import { nextPresentedFrame } from './interstitial-handoff.js';
import { Throttle } from './throttle.js';

const FRONT_ID = 'interstitial-video';
const NEXT_ID = 'interstitial-video-next';

/** What an ad is: an event from its start, or a later asset of its asset list. */
const itemKey = (event, asset) => [event.id, event.url, event.assetListURL ?? '', asset?.index ?? 0, asset?.uri ?? ''].join('\n');

/**
 * What a report is about: the ad (its event, and its asset in the event's list), so the
 * session drops one that crossed the command ending it.
 */
export const about = (item) => ({ item: 'interstitial', interstitial: item.event.id, asset: item.asset?.index ?? 0 });

/** Resolves once `video` has its current frame decoded (or after `timeout` ms). */
function firstFrameLoaded(video, timeout) {
  if (video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => { clearTimeout(timer); video.removeEventListener('loadeddata', done); resolve(); };
    const timer = setTimeout(done, timeout);
    video.addEventListener('loadeddata', done);
  });
}

/** Empties `video` and hides it. */
function emptied(video) {
  video.pause();
  video.removeAttribute('src');
  video.load();
  video.hidden = true;
  delete video.dataset.pending;
  delete video.dataset.preparing;
}

export class InterstitialPlayer extends EventTarget {
  /**
   * @param {HTMLVideoElement} video the break's element (`#interstitial-video`)
   * @param {(report: string, fields?: object) => void} report
   * @param {() => string} sessionID
   * @param {HTMLVideoElement} [next] the element the next ad loads in (`#interstitial-video-next`); made beside `video` if absent
   */
  constructor(video, report, sessionID = () => '', next = null) {
    super();
    if (!next) {
      next = video.cloneNode(false);
      next.id = NEXT_ID;
      video.after(next);
    }
    this.front = video;
    this.back = next;
    this.report = report;
    this.sessionID = sessionID;
    this.active = null; // { key, event, asset } playing in front
    this.reporting = null; // the element whose time, end and errors are the current ad's
    this.engine = null; // the front element's loader while an ad plays
    this.prepared = null; // { key, event, asset, video, engine, ready: Promise, failure }: the break ahead, in front
    this.preparedNext = null; // the same for the break's next ad, in the back element
    this.incoming = null; // the next ad's preparation while it is swapped in
    this.deferredNext = undefined; // a next ad named while a swap was under way
    this.timeReports = new Throttle(250);
    for (const element of [video, next]) this.listen(element);
  }

  listen(element) {
    // Only the element playing the current ad reports (not the one before it, paused as the next comes in).
    const playing = () => this.active && element === this.reporting;
    // The page's display follows the ad in front (its time, and its duration once known).
    const moved = () => { if (this.active && element === this.front) this.dispatchEvent(new Event('clock')); };
    element.addEventListener('timeupdate', () => {
      if (playing() && this.timeReports.admit()) this.report(REPORT.time, { time: element.currentTime, ...about(this.active) });
      moved();
    });
    element.addEventListener('durationchange', moved);
    element.addEventListener('ended', () => { if (playing()) this.report(REPORT.ended, about(this.active)); });
    // An ad that cannot play is the session's to skip: it hears why, and goes on.
    element.addEventListener('error', () => {
      const message = element.error?.message || `media error ${element.error?.code ?? ''}`;
      if (playing()) this.report(REPORT.interstitialFailed, { message, ...about(this.active) });
      else for (const preparation of [this.prepared, this.preparedNext]) if (preparation?.video === element) preparation.failure = message;
    });
  }

  /** The ad in front: where it is and how long it is (NaN until its metadata loads). */
  get clock() { return { time: this.front.currentTime, duration: this.front.duration }; }

  /** Whether the ad in front played to its end. */
  get hasEnded() { return this.front.ended; }

  /** Whether the picture-in-picture window shows the break. */
  get holdsPictureInPicture() { return document.pictureInPictureElement === this.front; }

  get isActive() { return this.active !== null; }

  /** The event prepared (or being prepared) ahead of its break, if any. */
  get preparedEvent() { return this.prepared?.event ?? null; }

  /** Loads `event`/`asset` into `video`, paused on its first frame; resolves its asset list and tells the session. */
  load(event, asset, video) {
    const preparation = { key: itemKey(event, asset), event, asset, video, engine: null, failure: null, dropped: false };
    preparation.ready = (async () => {
      const onAssetList = (assets) => this.report(REPORT.interstitialAssetList, { interstitial: event.id, assets });
      const manifest = await interstitialManifest(event, this.sessionID(), asset, onAssetList);
      if (preparation.dropped) return;
      video.dataset.pending = '';
      video.dataset.preparing = '';
      video.hidden = false;
      preparation.engine = new MSELoader(video, manifest);
      preparation.engine.addEventListener('error', (error) => { preparation.failure = String(error.detail?.message ?? error.detail); });
      await preparation.engine.start();
      await firstFrameLoaded(video, 5000);
    })();
    preparation.ready.catch((error) => { preparation.failure = String(error?.message ?? error); });
    return preparation;
  }

  /** Stops a preparation and empties its element. */
  drop(preparation) {
    if (!preparation) return;
    preparation.dropped = true;
    preparation.engine?.stop();
    // Its element is emptied unless it plays or another preparation loads in it now.
    const inUse = [this.prepared, this.preparedNext, this.incoming].some((other) => other && other !== preparation && other.video === preparation.video);
    if (!inUse && !(this.active && preparation.video === this.front)) emptied(preparation.video);
  }

  /** Loads `event` paused on its first frame, ready to play at once when its break starts.
   *  Does nothing while a break plays or when `event` is already prepared; replaces another preparation. */
  prepare(event) {
    if (this.active || !event) return;
    const key = itemKey(event, null);
    if (this.prepared?.key === key) return;
    this.discard();
    this.prepared = this.load(event, null, this.front);
  }

  /** During a break, loads the ad that plays after the current one (`{event, asset}`, as the
   *  session's `interstitialBreak.next` names it) in the other element; `null` drops it. */
  prepareNext(item) {
    if (!this.active) return;
    if (this.incoming) { this.deferredNext = item; return; }
    if (!item?.event) { this.discardNext(); return; }
    const key = itemKey(item.event, item.asset);
    if (this.preparedNext?.key === key) return;
    this.discardNext();
    this.preparedNext = this.load(item.event, item.asset ?? null, this.back);
  }

  /** Drops a preparation whose break did not come (a seek, new events). */
  discard() {
    if (!this.prepared) return;
    const preparation = this.prepared;
    this.prepared = null;
    if (this.active) { preparation.dropped = true; preparation.engine?.stop(); } else this.drop(preparation);
  }

  /** Drops the next ad's preparation (the session names another, or none). */
  discardNext() {
    const preparation = this.preparedNext;
    this.preparedNext = null;
    this.drop(preparation);
  }

  /** Plays `event` (or `asset`, a later asset of its asset list) at `rate` (0 = load paused):
   *  the break's first ad in front, a later ad of the break by swapping in the other element. */
  async start(event, rate, asset = null) {
    const key = itemKey(event, asset);
    if (this.active) return this.startNext(event, rate, asset, key);
    const prepared = this.prepared?.key === key ? this.prepared : null;
    if (!prepared) this.discard();
    this.engine?.stop();
    this.engine = null;
    this.prepared = null;
    const item = { key, event, asset };
    this.active = item;
    this.reporting = this.front;
    if (!prepared) emptied(this.front);
    const video = this.front;
    // Behind the primary's held frame until the break's first frame is presented: no black flash.
    video.dataset.pending = '';
    delete video.dataset.preparing;
    video.hidden = false;
    nextPresentedFrame(video, 2000).then(() => { if (this.active === item) delete video.dataset.pending; });
    try {
      if (prepared) {
        await prepared.ready;
        if (prepared.failure) throw new Error(prepared.failure);
        this.engine = prepared.engine;
        // Its first frame is decoded and waiting: it replaces the primary's at the next paint.
        if (video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA) delete video.dataset.pending;
        this.watchErrors(this.engine, item);
      } else {
        const onAssetList = (assets) => this.report(REPORT.interstitialAssetList, { interstitial: event.id, assets });
        const manifest = await interstitialManifest(event, this.sessionID(), asset, onAssetList);
        if (this.active !== item) return;
        this.engine = new MSELoader(video, manifest);
        await this.engine.start();
      }
      if (this.active !== item) return;
      await this.run(video, rate);
    } catch (error) {
      if (this.active === item) this.report(REPORT.interstitialFailed, { message: String(error?.message ?? error), ...about(item) });
    }
  }

  /** The break's next ad: swapped in from the other element once its first frame is decoded.
   *  Until then the ad before stays in front, paused on its last frame. While the swap is under
   *  way the element it frees is not reused: a next ad named meanwhile is loaded after it. */
  async startNext(event, rate, asset, key) {
    const item = { key, event, asset };
    const previous = { video: this.front, engine: this.engine };
    // An ad still being swapped in (the session moved past it) stops loading now: its element is reused.
    if (this.incoming) { this.incoming.dropped = true; this.incoming.engine?.stop(); }
    this.active = item;
    this.reporting = null;
    this.engine = null;
    previous.video.pause();
    let preparation = this.preparedNext?.key === key ? this.preparedNext : null;
    if (!preparation) {
      this.discardNext();
      preparation = this.load(event, asset, this.back);
    }
    this.preparedNext = null;
    this.incoming = preparation;
    try {
      await preparation.ready;
      if (this.active !== item) { this.drop(preparation); return; }
      if (preparation.failure) throw new Error(preparation.failure);
      const video = preparation.video;
      this.engine = preparation.engine;
      this.watchErrors(this.engine, item);
      // Swap: the next ad's element comes to the front (its id too) in the same task that
      // hides the one before, so the paint after shows its first frame in place of the last.
      const inPictureInPicture = document.pictureInPictureElement === previous.video;
      this.back = previous.video;
      this.front = video;
      previous.video.id = NEXT_ID;
      video.id = FRONT_ID;
      video.hidden = false;
      this.reporting = video;
      const shown = video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA ? Promise.resolve() : nextPresentedFrame(video, 2000);
      const revealed = shown.then(() => { if (this.front === video) this.reveal(video, previous); });
      if (inPictureInPicture) this.takePictureInPicture();
      const playing = this.run(video, rate);
      await revealed;
      await playing;
    } catch (error) {
      // The ad before stays in front, paused, while the session goes on without this one.
      if (preparation.video !== this.front) this.drop(preparation);
      if (this.active === item) this.report(REPORT.interstitialFailed, { message: String(error?.message ?? error), ...about(item) });
    } finally {
      if (this.incoming === preparation) {
        this.incoming = null;
        if (this.deferredNext !== undefined) {
          const next = this.deferredNext;
          this.deferredNext = undefined;
          this.prepareNext(next);
        }
      }
    }
  }

  /** Shows `video` and empties the element of the ad before it. */
  reveal(video, previous) {
    delete video.dataset.preparing;
    delete video.dataset.pending;
    previous.engine?.stop();
    emptied(previous.video);
  }

  /** The loader may be told of an error after it was prepared. */
  watchErrors(engine, item) {
    engine?.addEventListener('error', (error) => {
      if (this.active === item) this.report(REPORT.interstitialFailed, { message: String(error.detail?.message ?? error.detail), ...about(item) });
    });
  }

  async run(video, rate) {
    video.defaultPlaybackRate = rate || 1;
    video.playbackRate = rate || 1;
    if (rate > 0) await video.play().catch(() => {});
  }

  /** Moves picture in picture to the ad (allowed without a gesture while a window is open):
   *  waits for the ad's first metadata, which the window needs. */
  async takePictureInPicture() {
    const video = this.front;
    if (!this.active || !document.pictureInPictureElement) return;
    if (video.readyState < HTMLMediaElement.HAVE_METADATA) {
      await new Promise((resolve) => {
        video.addEventListener('loadedmetadata', resolve, { once: true });
        video.addEventListener('emptied', resolve, { once: true });
      });
    }
    if (!this.active) return;
    await video.requestPictureInPicture().catch((error) => console.warn('picture in picture:', error.message));
  }

  /** Plays the ad in front at `rate` (rejects as `HTMLMediaElement.play` does, say for autoplay). */
  play(rate) {
    this.front.defaultPlaybackRate = rate;
    this.front.playbackRate = rate;
    return this.front.play();
  }

  pause() { this.front.pause(); }

  /** Empties the front element and hides it. */
  reset() { emptied(this.front); }

  stop() {
    this.engine?.stop();
    this.engine = null;
    this.active = null;
    this.reporting = null;
    this.incoming = null;
    this.deferredNext = undefined;
    this.discardNext();
    this.reset();
  }
}
