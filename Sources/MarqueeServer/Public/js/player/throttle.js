// The one throttle of the player's time reports: the primary's and the playing ad's clocks go
// to the session at most four times a second, and a report sent outside the throttle (a
// boundary reached, a seek landed) starts its interval again.

/** Lets a call through at most once per `interval` milliseconds. */
export class Throttle {
  constructor(interval = 250, now = () => performance.now()) {
    this.interval = interval;
    this.now = now;
    this.last = 0;
  }

  /** Whether this call may go through (more than `interval` since the last one); if so it counts as the last. */
  admit() {
    const now = this.now();
    if (now - this.last <= this.interval) return false;
    this.last = now;
    return true;
  }

  /** Counts a call made anyway as the last one. */
  note() { this.last = this.now(); }
}
