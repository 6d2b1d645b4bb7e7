// Gets both sides of a hand-over ready before it happens, from the session's state:
// - the next break (the session's `upcomingInterstitial`) is prepared in the break's element
//   a few seconds before its boundary (at once for a pre-roll, near the end for a post-roll);
// - during a break, the ad that plays after the current one (`interstitialBreak.next`: the
//   break's next event, or the next asset of the playing event's asset list) is loaded in the
//   break's other element while the current ad plays, so the switch between ads shows no gap;
// - during a break, the paused primary element is moved to where the primary will resume
//   (`interstitialBreak.resumeAt`), so it resumes on a frame it already has.
// The session still decides when each break starts and ends; this module only loads ahead.

/** How long before its boundary a break is prepared. */
export const PREPARE_AHEAD_SECONDS = 5;

export class InterstitialPreloader {
  /**
   * @param {HTMLVideoElement} video the primary element
   * @param {import('./interstitial-player.js').InterstitialPlayer} player the break's player
   * @param {() => number} duration the primary's duration
   */
  constructor(video, player, duration) {
    this.video = video;
    this.player = player;
    this.duration = duration;
    this.upcoming = null;
    this.positioning = null; // the resumption time a seek of ours is moving the primary to
    video.addEventListener('timeupdate', () => this.check());
    video.addEventListener('seeked', () => this.check());
  }

  /** Follows a new state snapshot. */
  update(state) {
    this.upcoming = state?.activeInterstitial ? null : state?.upcomingInterstitial ?? null;
    this.check();
    const resumeAt = state?.interstitialBreak?.resumeAt;
    const event = state?.activeInterstitial;
    if (event && event.cue === 'none' && Number.isFinite(resumeAt)) this.positionPrimary(resumeAt);
    if (event) {
      const next = state.interstitialBreak?.next;
      this.player.prepareNext(next ? { event: next.interstitial, asset: next.asset ?? null } : null);
    }
  }

  /** Where the upcoming break sits on the primary's timeline. */
  boundaryOf(event) {
    if (event.cue === 'joinCue') return 0;
    if (event.cue === 'leaveCue') return this.duration();
    return event.time;
  }

  check() {
    const event = this.upcoming;
    if (this.player.isActive) return;
    if (!event) {
      if (this.player.preparedEvent) this.player.discard();
      return;
    }
    const ahead = event.cue === 'joinCue' ? 0 : this.boundaryOf(event) - this.video.currentTime;
    if (ahead <= PREPARE_AHEAD_SECONDS && ahead >= -0.5) this.player.prepare(event);
    else if (this.player.preparedEvent && ahead > 2 * PREPARE_AHEAD_SECONDS) this.player.discard();
  }

  /** Moves the paused primary to `time` while the break plays. */
  positionPrimary(time) {
    const video = this.video;
    if (!video.paused || Math.abs(video.currentTime - time) <= 0.001 || this.positioning === time) return;
    this.positioning = time;
    video.currentTime = time;
  }

  /** Whether this `seeked` is the primary arriving where a seek of ours sent it (not the
   *  session's seek, so nothing is reported); call from the primary's `seeked` listener. */
  consumeSeeked() {
    if (this.positioning === null) return false;
    const ours = Math.abs(this.video.currentTime - this.positioning) <= 0.05;
    this.positioning = null;
    return ours;
  }
}
