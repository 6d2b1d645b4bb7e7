// The player page's named events and the hub that carries them, as hls.js names its events
// once (`events.ts`) and its controllers subscribe in `registerListeners()`. The hub also
// holds what the page's parts share: the session's latest snapshot (Swift decides; the page
// renders it), the manifest, the renderer socket and loader once they exist, and the seek
// asked for and not yet carried out.

export const PLAYER_EVENT = Object.freeze({
  /** A session snapshot arrived and is the hub's `session` now: `{ state, previous }`. */
  STATE: 'state',
  /** The session sent the primary to `hub.pendingSeek` (a `seek` command). */
  SEEK_COMMANDED: 'seek-commanded',
  /** The primary took the screen back from a break (a `resume-primary` command, carried out). */
  PRIMARY_RESUMED: 'primary-resumed',
  /** The session refused an intent; the seek asked for is dropped: `{ reason, message, availableIn }`. */
  REFUSED: 'refused',
  /** A scrub of the timeline or the picture began. */
  SCRUB_STARTED: 'scrub-started',
});

export class PlayerHub {
  /** @param {HTMLVideoElement} media the primary's element */
  constructor(media) {
    this.media = media;
    this.listeners = new Map();
    this.session = null;     // the latest state snapshot from Swift
    this.manifest = null;    // the asset's JSON playback manifest
    this.socket = null;      // the renderer socket, once the session exists
    this.engine = null;      // the MSE loader, if the page plays through one
    this.pendingSeek = null; // a seek asked for and not yet carried out
    this.scrubbing = false;
    this.mediaSession = { update() {} };
  }

  on(name, listener, context) {
    if (!this.listeners.has(name)) this.listeners.set(name, []);
    this.listeners.get(name).push({ listener, context });
  }

  off(name, listener, context) {
    const list = this.listeners.get(name) ?? [];
    const index = list.findIndex((entry) => entry.listener === listener && entry.context === context);
    if (index >= 0) list.splice(index, 1);
  }

  /** Calls the listeners of `name` with `data`, in the order they subscribed. */
  trigger(name, data = {}) {
    for (const { listener, context } of [...(this.listeners.get(name) ?? [])]) listener.call(context, data);
  }

  /** Takes a snapshot from the session and lets every part render it. */
  applyState(state) {
    const previous = this.session;
    this.session = state;
    this.trigger(PLAYER_EVENT.STATE, { state, previous });
  }

  intent(name, fields = {}) { this.socket?.intent(name, fields); }

  report(name, fields = {}) { this.socket?.report(name, fields); }

  duration() { return this.session?.duration ?? this.manifest?.duration ?? 0; }

  clamp(time) { return Math.min(Math.max(time, 0), this.duration()); }

  /** Where the page shows the primary: the seek asked for, else the element's time. */
  displayedTime() { return this.pendingSeek ?? this.media.currentTime; }

  /** The skip interval the session allows (10 s before it says). */
  get skipInterval() { return this.session?.permissions?.skipInterval ?? 10; }
}
