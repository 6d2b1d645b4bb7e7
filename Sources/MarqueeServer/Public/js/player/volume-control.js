// The on-screen volume: a speaker button that mutes and unmutes, and a slider beside it, in
// the top-right corner as in Apple's player. Both follow the media element (so the M and ↑/↓
// keys show here too), and the level and mute are remembered for the next page.

const STORAGE_KEY = 'marquee.volume';

export class VolumeControl {
  /**
   * @param {HTMLButtonElement} button the mute button
   * @param {HTMLInputElement} slider an <input type=range> from 0 to 1
   * @param {HTMLMediaElement[]} media the elements whose volume this sets (the first leads)
   * @param {{mute: () => string, volume: () => string}} labels
   */
  constructor(button, slider, media, labels) {
    this.button = button;
    this.slider = slider;
    this.media = media;
    this.labels = labels;
    this.restore();
    button.addEventListener('click', (event) => {
      event.stopPropagation();
      this.setMuted(!this.lead.muted);
    });
    slider.addEventListener('input', () => this.setVolume(Number(slider.value)));
    slider.addEventListener('pointerdown', (event) => event.stopPropagation());
    this.lead.addEventListener('volumechange', () => {
      for (const other of this.media.slice(1)) { other.volume = this.lead.volume; other.muted = this.lead.muted; }
      this.render();
      this.save();
    });
    this.render();
  }

  get lead() { return this.media[0]; }

  setVolume(volume) {
    const level = Math.min(1, Math.max(0, volume));
    for (const element of this.media) {
      element.volume = level;
      element.muted = level === 0;
    }
  }

  setMuted(muted) {
    // Unmuting at zero would be silent: come back at a quarter.
    if (!muted && this.lead.volume === 0) for (const element of this.media) element.volume = 0.25;
    for (const element of this.media) element.muted = muted;
  }

  restore() {
    try {
      const saved = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null');
      if (saved && Number.isFinite(saved.volume)) {
        for (const element of this.media) {
          element.volume = Math.min(1, Math.max(0, saved.volume));
          element.muted = Boolean(saved.muted);
        }
      }
    } catch { /* storage unavailable or unreadable: keep the defaults */ }
  }

  save() {
    try {
      localStorage.setItem(STORAGE_KEY, JSON.stringify({ volume: this.lead.volume, muted: this.lead.muted }));
    } catch { /* private mode: not remembered */ }
  }

  render() {
    const level = this.lead.muted ? 0 : this.lead.volume;
    const percent = Math.round(level * 100);
    this.slider.value = String(level);
    this.slider.style.setProperty('--level', `${percent}%`);
    this.slider.setAttribute('aria-valuetext', `${percent}%`);
    this.slider.setAttribute('aria-label', this.labels.volume());
    this.button.setAttribute('aria-label', this.labels.mute());
    this.button.setAttribute('aria-pressed', String(this.lead.muted));
    this.button.dataset.level = this.lead.muted || level === 0 ? 'muted' : level < 0.34 ? 'low' : level < 0.67 ? 'medium' : 'high';
  }
}
