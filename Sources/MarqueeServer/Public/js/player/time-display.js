// The clock under the picture: elapsed and remaining time and the timeline's playhead,
// duration and break markers. The primary's time most of the time; during a break the ad's
// (its time, what is left, and a countdown in the ad badge), read from the break's player.
import { formatTime } from '../i18n.js';
import { adBadgeText, countdownSeconds } from './interstitial-overlay.js';
import { PLAYER_EVENT } from './player-events.js';

export class TimeDisplay {
  /**
   * @param {{timeline: import('./timeline.js').Timeline, elapsed: HTMLElement, remaining: HTMLElement, adBadge: HTMLElement}} elements
   * @param {import('./player-events.js').PlayerHub} hub
   * @param {import('./interstitial-player.js').InterstitialPlayer} interstitial the break's player (its `clock` and `clock` events)
   */
  constructor(elements, hub, interstitial) {
    this.elements = elements;
    this.hub = hub;
    this.interstitial = interstitial;
  }

  registerListeners() {
    this.hub.on(PLAYER_EVENT.STATE, this.onState, this);
    this.hub.on(PLAYER_EVENT.PRIMARY_RESUMED, this.onPrimaryResumed, this);
    this.hub.on(PLAYER_EVENT.REFUSED, this.onRefused, this);
    this.interstitial.addEventListener('clock', () => this.showAdTime());
  }

  /** Shows the primary at `time`. */
  show(time) {
    const { timeline, elapsed, remaining } = this.elements;
    timeline.show(time);
    elapsed.textContent = formatTime(time);
    remaining.textContent = `-${formatTime(Math.max(0, this.hub.duration() - time))}`;
  }

  /** During a break the clock is the ad's: its time, what is left, and a countdown badge. */
  showAdTime() {
    const { timeline, elapsed, remaining, adBadge } = this.elements;
    const session = this.hub.session;
    const ad = this.interstitial.clock;
    const total = Number.isFinite(ad.duration) && ad.duration > 0 ? ad.duration : session?.activeInterstitial?.duration ?? 0;
    const time = this.interstitial.isActive ? Math.min(ad.time, total || ad.time) : 0;
    const left = Math.max(0, total - time);
    timeline.setMarkers([]);
    timeline.setDuration(total);
    timeline.show(time);
    elapsed.textContent = formatTime(time);
    remaining.textContent = `-${formatTime(countdownSeconds(left))}`;
    adBadge.textContent = adBadgeText(session, left);
  }

  onState({ state }) {
    if (state.activeInterstitial) {
      this.showAdTime();
    } else {
      if (state.duration) this.elements.timeline.setDuration(state.duration);
      this.elements.timeline.setMarkers(state.interstitials);
    }
  }

  /** The primary's timeline again, where the primary resumes. */
  onPrimaryResumed() {
    this.elements.timeline.setDuration(this.hub.duration());
    this.elements.timeline.setMarkers(this.hub.session?.interstitials ?? []);
    this.show(this.hub.displayedTime());
  }

  /** A refused seek: the time shown goes back to where the primary is. */
  onRefused() { this.show(this.hub.media.currentTime); }
}
