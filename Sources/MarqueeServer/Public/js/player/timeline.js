// The knob-less timeline: press anywhere on it and drag; the playhead follows the pointer
// and playback seeks to where the drag ends. Arrow keys on the focused timeline skip.
import { formatTime, t } from '../i18n.js';

export class Timeline {
  /**
   * @param {HTMLElement} element the [role=slider] element
   * @param {{begin: Function, move: Function, end: Function, key: Function}} scrubber
   */
  constructor(element, scrubber) {
    this.element = element;
    this.fill = element.querySelector('.fill');
    this.markers = element.querySelector('.markers');
    this.scrubber = scrubber;
    this.duration = 0;
    this.time = 0;
    this.pointerID = null;
    element.addEventListener('pointerdown', (event) => this.press(event));
    element.addEventListener('pointermove', (event) => this.drag(event));
    element.addEventListener('pointerup', (event) => this.release(event));
    element.addEventListener('pointercancel', (event) => this.release(event));
    element.addEventListener('keydown', (event) => scrubber.key?.(event));
  }

  timeAt(clientX) {
    const rect = this.element.getBoundingClientRect();
    const fraction = Math.min(1, Math.max(0, (clientX - rect.left) / rect.width));
    return fraction * this.duration;
  }

  press(event) {
    if (!this.duration || event.button > 0) return;
    event.preventDefault();
    event.stopPropagation();
    this.pointerID = event.pointerId;
    this.element.setPointerCapture(event.pointerId);
    this.scrubber.begin('timeline');
    this.scrubber.move(this.timeAt(event.clientX), event.clientX);
  }

  drag(event) {
    if (event.pointerId !== this.pointerID) return;
    this.scrubber.move(this.timeAt(event.clientX), event.clientX);
  }

  release(event) {
    if (event.pointerId !== this.pointerID) return;
    this.pointerID = null;
    this.scrubber.end(this.timeAt(event.clientX));
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
    this.markers.replaceChildren(...ranges.map((range) => {
      const mark = document.createElement('span');
      mark.style.left = `calc(${this.duration ? (range.start / this.duration) * 100 : 0}% - 2px)`;
      mark.title = t('ad');
      return mark;
    }));
  }
}
