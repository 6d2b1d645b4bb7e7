// Watching together: this renderer follows the group's shared timeline (state.group.timeline:
// at `at` ms on the server's clock the item was at `time` s, moving at `rate`). It measures its
// clock's offset to the server NTP-style over the renderer socket (the probe with the shortest
// round trip wins), then every tick compares the element's time with where the group is and
// corrects: small drift by nudging the playback rate, large drift by seeking. The session
// decides what plays; this only keeps the picture on the group's clock.

/** Drift below this is left alone (seconds). */
export const DEAD_BAND = 0.015;
/** Drift above this is corrected by a seek, below it by the rate (seconds). */
export const SEEK_THRESHOLD = 0.6;
/** The largest rate change used to catch up (a fraction of the group's rate). */
export const MAX_NUDGE = 0.08;
/** How long the rate nudge takes to close a drift (seconds). */
const CATCH_UP = 1.5;

/** Where the group's item is at server time `serverNow` (ms). */
export function groupPosition(timeline, serverNow) {
  if (!timeline) return null;
  return timeline.time + Math.max(0, serverNow - timeline.at) / 1000 * timeline.rate;
}

/**
 * What to do about `drift` (element time minus group time, seconds) at group `rate`:
 * `{ seek: seconds }` to jump, or `{ rate }` to play at (a nudge, or the group's own rate).
 */
export function correction(drift, rate) {
  // Held, every renderer sits on the very time the group stopped at (to a tenth of a
  // millisecond), so all show one frame even when that time is on a frame's boundary.
  if (rate === 0) return Math.abs(drift) > 1e-4 ? { seek: -drift, rate: 0 } : { rate: 0 };
  if (Math.abs(drift) > SEEK_THRESHOLD) return { seek: -drift, rate };
  if (Math.abs(drift) <= DEAD_BAND) return { rate };
  const nudge = Math.max(-MAX_NUDGE, Math.min(MAX_NUDGE, -drift / CATCH_UP));
  return { rate: rate * (1 + nudge) };
}

/** NTP-style estimate from probes: the offset of the one with the shortest round trip. */
export class ClockOffset {
  constructor() { this.samples = []; }

  /** A probe sent at `t0` and answered at `t3` (this clock, ms), stamped `server` by the server. */
  add(t0, server, t3) {
    const rtt = t3 - t0;
    if (!(rtt >= 0)) return;
    this.samples.push({ rtt, offset: server - (t0 + rtt / 2) });
    if (this.samples.length > 16) this.samples.shift();
  }

  get known() { return this.samples.length > 0; }
  /** Server time minus this clock (ms). */
  get offset() { return this.best?.offset ?? 0; }
  get roundTrip() { return this.best?.rtt ?? null; }
  get best() { return this.samples.reduce((best, s) => (!best || s.rtt < best.rtt ? s : best), null); }
}

export class GroupSync {
  /**
   * @param {HTMLMediaElement} video the primary's element
   * @param {{ probe: (t0: number) => void, isBreakPlaying: () => boolean, now?: () => number }} options
   */
  constructor(video, { probe, isBreakPlaying, blocked = () => {}, stalled = () => {}, now = () => performance.timeOrigin + performance.now() }) {
    this.video = video;
    this.onStalled = stalled;
    this.reportedStall = false;
    this.onBlocked = blocked;
    /** The browser refused to play without a gesture: the group waits for this person's press. */
    this.blocked = false;
    this.probe = probe;
    this.isBreakPlaying = isBreakPlaying;
    this.now = now;
    this.clock = new ClockOffset();
    this.group = null;
    this.timer = null;
    this.probeTimer = null;
    /** When the last corrective seek began (this clock, ms), until its data arrived. */
    this.seekStarted = null;
    /** How long a seek takes to have data to play, learnt from the last ones (ms). */
    this.seekLatency = 300;
    this.holdTimer = null;
    this.stats = { seeks: 0, nudges: 0, drift: 0 };
  }

  /** Whether this page follows a group (commands for the primary's play, pause and seek are then the timeline's). */
  get active() { return Boolean(this.group); }

  /** Called with every session state. */
  update(state) {
    const group = state.group ?? null;
    if (group && !this.group) this.start();
    if (!group && this.group) this.stop();
    this.group = group;
    if (group && !this.clock.known) this.serverSkew = group.serverTime - this.now();
    if (group) this.tick();
  }

  /** A clock probe's answer (`{t0, server}`). */
  answered({ t0, server }) { this.clock.add(t0, server, this.now()); }

  start() {
    const send = () => this.probe(this.now());
    for (let i = 0; i < 6; i += 1) setTimeout(send, i * 120);
    this.probeTimer = setInterval(send, 5000);
    this.timer = setInterval(() => this.tick(), 100);
  }

  stop() {
    clearInterval(this.timer);
    clearInterval(this.probeTimer);
    this.timer = this.probeTimer = null;
    this.video.playbackRate = this.video.defaultPlaybackRate;
  }

  /** The server's time now (ms), by the measured offset (or the last snapshot's, until measured). */
  serverNow() { return this.now() + (this.clock.known ? this.clock.offset : (this.serverSkew ?? 0)); }

  /** Where the group is now, in seconds of the item. */
  target() { return groupPosition(this.group?.timeline, this.serverNow()); }

  tick() {
    const video = this.video;
    if (!this.group || this.isBreakPlaying() || video.readyState < 1) return;
    const { rate } = this.group.timeline;
    const startsIn = this.group.timeline.at - this.serverNow();
    if (rate > 0 && startsIn > 0) {
      // A start scheduled a moment ahead, so every renderer starts the same frame: wait on it.
      if (!video.paused) video.pause();
      if (Math.abs(video.currentTime - this.group.timeline.time) > DEAD_BAND && !video.seeking) video.currentTime = this.group.timeline.time;
      if (startsIn <= 110 && !this.startTimer) {
        this.startTimer = setTimeout(() => {
          this.startTimer = null;
          video.playbackRate = rate;
          if (!this.blocked) this.play();
        }, startsIn);
      }
      return;
    }
    const target = Math.min(this.target(), Number.isFinite(video.duration) ? video.duration : Infinity);
    const drift = video.currentTime - target;
    this.stats.drift = drift;
    if (this.seekStarted !== null) {
      // After a seek, wait for the data to play from before judging the drift again; how long
      // that took is how far ahead the next seek aims. Data that takes more than a second to
      // come is a stall the group waits for (the element itself says nothing while paused).
      const waited = this.now() - this.seekStarted;
      if (video.readyState < 3 && waited > 1000 && !this.reportedStall) {
        this.reportedStall = true;
        this.onStalled();
      }
      if (video.readyState < 3 && (waited < 4000 || this.reportedStall)) return;
      this.reportedStall = false;
      this.seekLatency = 0.7 * this.seekLatency + 0.3 * Math.min(3000, this.now() - this.seekStarted);
      this.seekStarted = null;
    }
    if (video.seeking) return;
    if (this.holdTimer) return;
    const fix = correction(drift, rate);
    // Held: stop first, so the seek lands on the group's time and stays there (a playing
    // element moves on between the seek and the next tick, and is sent there again forever).
    if (rate === 0 && !video.paused) video.pause();
    if (fix.seek !== undefined) {
      this.seekStarted = this.now();
      this.stats.seeks += 1;
      // A seek lands once its data has loaded: aim where the group will be by then.
      video.currentTime = Math.max(0, target + (rate > 0 ? (this.seekLatency / 1000 + 0.05) * rate : 0));
      return;
    }
    if (rate === 0) {
      if (!video.paused) video.pause();
      return;
    }
    if (drift > 0.1 && !video.paused) {
      // Ahead (a seek that aimed too far): hold still until the group reaches this frame.
      video.pause();
      this.stats.holds = (this.stats.holds ?? 0) + 1;
      this.holdTimer = setTimeout(() => { this.holdTimer = null; if (!this.blocked) this.play(); }, (drift / rate) * 1000);
      return;
    }
    if (fix.rate !== rate) this.stats.nudges += 1;
    if (Math.abs(video.playbackRate - fix.rate) > 0.001) video.playbackRate = fix.rate;
    if (video.paused && !video.ended && !this.blocked) this.play();
  }

  play() {
    this.video.play().catch((error) => {
      if (error.name !== 'NotAllowedError' || this.blocked) return;
      this.stats.refusals = (this.stats.refusals ?? 0) + 1;
      this.blocked = true;
      this.onBlocked();
    });
  }

  /** The person pressed play: start this page with their gesture (the group stops waiting once it plays). */
  unblock() {
    this.blocked = false;
    this.stats.presses = (this.stats.presses ?? 0) + 1;
    this.video.play().catch(() => {});
  }
}
