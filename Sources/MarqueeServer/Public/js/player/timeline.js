// The knob-less timeline. Apple's grab-anywhere drag is relative: a press anywhere on the bar
// does not move the playhead, a drag moves it by the distance dragged (the bar's width is the
// whole item), and playback seeks to where the drag ends. A click without a drag seeks to the
// point clicked. Arrow keys on the focused timeline skip.
import { formatTime, t } from '../i18n.js';
import { interstitialMarks } from './interstitial-markers.js';

const DRAG_SLOP = 4; // px a press may move and still be a click

export class Timeline {
  /**
   * @param {HTMLElement} element the [role=slider] element
   * @param {{begin: Function, move: Function, end: Function, cancel: Function, click: Function, key: Function}} scrubber
   */
  constructor(element, scrubber) {
    this.element = element;
    this.fill = element.querySelector('.fill');
    this.markers = element.querySelector('.markers');
    this.scrubber = scrubber;
    this.duration = 0;
    this.time = 0;
    this.press = null; // {id, x, origin, dragging, target}
    element.addEventListener('pointerdown', (event) => this.down(event));
    element.addEventListener('pointermove', (event) => this.drag(event));
    element.addEventListener('pointerup', (event) => this.release(event));
    element.addEventListener('pointercancel', (event) => this.abandon(event));
    element.addEventListener('lostpointercapture', (event) => this.abandon(event));
    element.addEventListener('keydown', (event) => scrubber.key?.(event));
  }

  timeAt(clientX) {
    const rect = this.element.getBoundingClientRect();
    const fraction = Math.min(1, Math.max(0, (clientX - rect.left) / rect.width));
    return fraction * this.duration;
  }

  down(event) {
    if (!this.duration || event.button > 0 || this.press) return;
    event.preventDefault();
    event.stopPropagation();
    this.element.setPointerCapture(event.pointerId);
    this.press = { id: event.pointerId, x: event.clientX, origin: this.time, dragging: false, target: this.time };
  }

  drag(event) {
    const press = this.press;
    if (!press || event.pointerId !== press.id) return;
    const dx = event.clientX - press.x;
    if (!press.dragging) {
      if (Math.abs(dx) < DRAG_SLOP) return;
      press.dragging = true;
      this.scrubber.begin('timeline');
    }
    const width = this.element.getBoundingClientRect().width || 1;
    press.target = Math.min(this.duration, Math.max(0, press.origin + (dx / width) * this.duration));
    this.scrubber.move(press.target);
  }

  release(event) {
    const press = this.press;
    if (!press || event.pointerId !== press.id) return;
    this.press = null;
    if (press.dragging) this.scrubber.end(press.target);
    else this.scrubber.click(this.timeAt(event.clientX));
  }

  abandon(event) {
    const press = this.press;
    if (!press || event.pointerId !== press.id) return;
    this.press = null;
    if (press.dragging) this.scrubber.cancel();
  }

  setDuration(duration) {
    this.duration = duration || 0;
    this.element.setAttribute('aria-valuemax', String(Math.round(this.duration)));
    this.render();
  }

  /** Shows `time` on the timeline (the playhead, or the scrub target while scrubbing). */
  show(time) {
    this.time = Math.min(Math.max(time || 0, 0), this.duration || 0);
    this.render();
  }

  render() {
    const fraction = this.duration ? this.time / this.duration : 0;
    this.fill.style.width = `${fraction * 100}%`;
    this.element.setAttribute('aria-valuenow', this.time.toFixed(2));
    this.element.setAttribute('aria-valuetext', `${formatTime(this.time)} / ${formatTime(this.duration)}`);
    this.element.dataset.time = this.time.toFixed(3);
  }

  setMarkers(ranges) {
    this.markers.replaceChildren(...interstitialMarks(ranges, this.duration, t('ad')));
  }
}
