// The info panel: opened by the chevron beside the title (or I), shows title, subtitle and
// description (scrolling when it is long, with an episode's release or live dates); a tap
// anywhere outside it closes it.
import { showDates } from './info-dates.js';

export class InfoPanel {
  constructor(panel, chevron, labels) {
    this.panel = panel;
    this.chevron = chevron;
    this.labels = labels;
    chevron.addEventListener('click', (event) => {
      event.stopPropagation();
      this.toggle();
    });
    this.closeOnTap = (event) => {
      if (event.target === chevron || chevron.contains(event.target)) return;
      if (panel.contains(event.target)) return; // reading: a long description scrolls
      event.stopPropagation();
      event.preventDefault();
      this.close();
    };
    this.update();
  }

  get isOpen() { return !this.panel.hidden; }

  setMetadata({ title, subtitle, description }) {
    this.panel.querySelector('#info-title').textContent = title ?? '';
    this.panel.querySelector('#info-subtitle').textContent = subtitle ?? '';
    this.panel.querySelector('#info-description').textContent = description ?? '';
    // Dates are formatted when the panel is open (the first Intl formatter of a page costs
    // milliseconds that would otherwise come before the first frame).
    this.metadata = arguments[0];
    if (this.isOpen) showDates(this.panel, this.metadata);
  }

  toggle() { this.isOpen ? this.close() : this.open(); }

  open() {
    showDates(this.panel, this.metadata);
    this.panel.hidden = false;
    this.update();
    setTimeout(() => document.addEventListener('pointerdown', this.closeOnTap, true));
  }

  close() {
    this.panel.hidden = true;
    document.removeEventListener('pointerdown', this.closeOnTap, true);
    this.update();
  }

  update() {
    this.chevron.setAttribute('aria-expanded', String(this.isOpen));
    this.chevron.setAttribute('aria-label', this.isOpen ? this.labels.close() : this.labels.open());
  }
}
