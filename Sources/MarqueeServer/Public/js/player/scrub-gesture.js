// Swipe across the picture to scrub: the playhead moves with the finger or pointer; on a
// fast release it keeps going with momentum and slows to a stop (not for a person who asked
// for reduced motion), and a press (a grab) stops it where it is. A short press without movement is a tap, handed to `onTap`.

const TAP_SLOP = 10;            // px a press may move and still be a tap
const FRICTION_PER_FRAME = 0.93; // velocity kept per 16.7 ms frame
const MOMENTUM_GAIN = 0.5;       // share of the release velocity that carries on
const MIN_VELOCITY = 0.002;      // seconds of media per ms, below which momentum stops
const MIN_FLING = 0.01;          // release velocity (media s/ms) that starts momentum

export class ScrubGesture {
  /**
   * @param {HTMLElement} surface where swipes and taps land
   * @param {object} options {scrubber (begin, move, end, cancel), duration(), currentTime(), onTap(event), onPinch(scale),
   *   reducedMotion() (default: the `prefers-reduced-motion` media query)}
   */
  constructor(surface, options) {
    this.surface = surface;
    this.options = options;
    this.pointers = new Map();
    this.momentum = null;
    surface.addEventListener('pointerdown', (e) => this.down(e));
    surface.addEventListener('pointermove', (e) => this.move(e));
    surface.addEventListener('pointerup', (e) => this.up(e));
    surface.addEventListener('pointercancel', (e) => this.cancel(e));
  }

  /** Seconds of media per pixel: a full-width swipe covers the whole item, at most 5 minutes. */
  secondsPerPixel() {
    const span = Math.min(this.options.duration(), 300);
    return span / Math.max(this.surface.clientWidth, 1);
  }

  get isCoasting() { return this.momentum !== null; }

  /** A person who asked for reduced motion gets no momentum: the playhead stops where it is let go. */
  reducedMotion() {
    return this.options.reducedMotion?.() ?? globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
  }

  down(event) {
    this.surface.setPointerCapture(event.pointerId);
    this.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY, startX: event.clientX, startY: event.clientY });
    if (this.pointers.size === 2) {
      // A second finger turns the gesture into a pinch: a swipe under way is called off (the
      // playhead goes back where it was) rather than dropped half-done.
      if (this.swipe?.active) this.options.scrubber.cancel();
      this.swipe = null;
      this.pinchStart = this.spread();
      return;
    }
    if (this.pointers.size > 2) return;
    if (this.momentum) {
      // A grab stops the coasting timeline where it is.
      this.stopMomentum(true);
      this.grabbed = true;
    } else {
      this.grabbed = false;
    }
    this.swipe = { id: event.pointerId, active: false, startTime: 0, samples: [{ x: event.clientX, t: event.timeStamp }] };
  }

  move(event) {
    const pointer = this.pointers.get(event.pointerId);
    if (!pointer) return;
    pointer.x = event.clientX;
    pointer.y = event.clientY;
    if (this.pointers.size === 2 && this.pinchStart) {
      const scale = this.spread() / this.pinchStart;
      if (scale > 1.25 || scale < 0.8) {
        this.options.onPinch(scale);
        this.pinchStart = this.spread();
      }
      return;
    }
    const swipe = this.swipe;
    if (!swipe || swipe.id !== event.pointerId) return;
    const dx = event.clientX - pointer.startX;
    const dy = event.clientY - pointer.startY;
    if (!swipe.active) {
      if (Math.abs(dx) < TAP_SLOP || Math.abs(dx) < Math.abs(dy) || !this.options.duration()) return;
      swipe.active = true;
      swipe.startTime = this.options.currentTime();
      swipe.originX = event.clientX;
      this.options.scrubber.begin('swipe');
    }
    swipe.samples.push({ x: event.clientX, t: event.timeStamp });
    if (swipe.samples.length > 8) swipe.samples.shift();
    this.target = this.clamp(swipe.startTime + (event.clientX - swipe.originX) * this.secondsPerPixel());
    this.options.scrubber.move(this.target);
  }

  up(event) {
    const pointer = this.pointers.get(event.pointerId);
    this.pointers.delete(event.pointerId);
    if (this.pointers.size > 0 || !pointer) return;
    this.pinchStart = null;
    const swipe = this.swipe;
    this.swipe = null;
    if (!swipe || swipe.id !== event.pointerId) return;
    if (swipe.active) {
      const velocity = this.releaseVelocity(swipe.samples, event);
      if (Math.abs(velocity) >= MIN_FLING && !this.reducedMotion()) this.coast(velocity);
      else this.options.scrubber.end(this.target);
      return;
    }
    if (this.grabbed) {
      this.grabbed = false;
      return;
    }
    const moved = Math.hypot(event.clientX - pointer.startX, event.clientY - pointer.startY);
    if (moved < TAP_SLOP) this.options.onTap(event);
  }

  cancel(event) {
    this.pointers.delete(event.pointerId);
    if (this.swipe?.active && this.swipe.id === event.pointerId) this.options.scrubber.cancel();
    if (this.swipe?.id === event.pointerId) this.swipe = null;
    if (this.pointers.size < 2) this.pinchStart = null;
  }

  /** Media seconds per millisecond over the last ~100 ms of the swipe. */
  releaseVelocity(samples, event) {
    const last = { x: event.clientX, t: event.timeStamp };
    const recent = samples.filter((s) => last.t - s.t <= 100);
    const first = recent[0] ?? samples[samples.length - 1];
    const dt = last.t - first.t;
    if (dt <= 0) return 0;
    return ((last.x - first.x) / dt) * this.secondsPerPixel();
  }

  coast(velocity) {
    let previous = performance.now();
    const state = { velocity: velocity * MOMENTUM_GAIN };
    this.momentum = state;
    this.surface.dataset.coasting = 'true';
    const step = (now) => {
      if (this.momentum !== state) return;
      const dt = Math.min(now - previous, 64);
      previous = now;
      this.target = this.clamp(this.target + state.velocity * dt);
      state.velocity *= Math.pow(FRICTION_PER_FRAME, dt / 16.7);
      this.options.scrubber.move(this.target);
      const atEdge = this.target <= 0 || this.target >= this.options.duration();
      if (Math.abs(state.velocity) < MIN_VELOCITY || atEdge) this.stopMomentum(true);
      else requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  }

  stopMomentum(commit) {
    if (!this.momentum) return;
    this.momentum = null;
    delete this.surface.dataset.coasting;
    if (commit) this.options.scrubber.end(this.target);
  }

  spread() {
    const [a, b] = [...this.pointers.values()];
    return Math.hypot(a.x - b.x, a.y - b.y) || 1;
  }

  clamp(time) {
    return Math.min(Math.max(time, 0), this.options.duration());
  }
}
