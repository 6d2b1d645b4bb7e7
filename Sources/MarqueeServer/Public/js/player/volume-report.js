// The page's volume as part of its session: a remote (the web remote, `marquee remote`) sets
// it with the `set-volume` command, and what the viewer changes here (slider, ↑/↓, M) is
// reported to the session (`volume`), so the session stays the one place that knows it and
// remotes show the TV's real level.
import { REPORT } from './renderer-vocabulary.js';

export class VolumeReports {
  /**
   * @param {HTMLMediaElement} lead the element whose volume is the page's (the primary video)
   * @param {HTMLMediaElement[]} followers elements that take the same volume (the interstitial video)
   * @param {() => ({report: Function}|null)} socket the renderer socket, once open
   * @param {() => (object|null)} state the session's latest snapshot
   */
  constructor(lead, followers, socket, state) {
    this.lead = lead;
    this.followers = followers;
    this.socket = socket;
    this.state = state;
    this.timer = null;
    lead.addEventListener('volumechange', () => this.schedule());
  }

  /** Carries out `set-volume`: the level and mute of every element. */
  apply(command) {
    const level = Math.min(1, Math.max(0, Number(command.volume)));
    if (!Number.isFinite(level)) return;
    for (const element of [this.lead, ...this.followers]) {
      element.volume = level;
      element.muted = Boolean(command.muted);
    }
  }

  /** After each state: tells the session if the page's volume is not what it last heard. */
  sync() { this.schedule(); }

  schedule() {
    // A slider drag fires many events: report the level it settles on.
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.report(), 120);
  }

  report() {
    const state = this.state();
    const socket = this.socket();
    if (!state || !socket || typeof state.volume !== 'number') return;
    const volume = Math.round(this.lead.volume * 1000) / 1000;
    const muted = this.lead.muted;
    if (Math.abs(state.volume - volume) < 0.001 && state.muted === muted) return;
    socket.report(REPORT.volume, { volume, muted });
  }
}
