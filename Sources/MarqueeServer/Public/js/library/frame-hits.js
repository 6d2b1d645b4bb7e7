// Search results from inside the videos: frames whose recognised text matches the library's
// search box (GET /api/search), each opening the player at that moment, paused.
import { t, addStrings, formatTime } from '../i18n.js';

addStrings({
  en: { frameHits: 'In video frames', frameHitAt: '{title} at {time}' },
  ja: { frameHits: 'ビデオ内のテキスト', frameHitAt: '{title}（{time}）' },
});

export class FrameHits {
  /** @param {HTMLInputElement} search the library's search box; the list goes after `anchor`. */
  constructor(search, anchor, onChange = () => {}) {
    this.search = search;
    this.onChange = onChange;
    this.hits = [];
    this.section = document.createElement('section');
    this.section.id = 'frame-hits';
    this.section.className = 'frame-hits';
    this.section.hidden = true;
    this.heading = document.createElement('h2');
    this.heading.id = 'frame-hits-title';
    this.section.setAttribute('aria-labelledby', this.heading.id);
    this.list = document.createElement('ul');
    this.section.append(this.heading, this.list);
    anchor.after(this.section);
    this.request = null;
    this.timer = null;
    search.addEventListener('input', () => {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.load(), 150);
    });
    if (search.value.trim()) this.load();
  }

  get count() { return this.hits.length; }

  async load() {
    const query = this.search.value.trim();
    this.request?.abort();
    if (!query) { this.render([], query); return; }
    const controller = new AbortController();
    this.request = controller;
    try {
      const response = await fetch(`/api/search?q=${encodeURIComponent(query)}`, { signal: controller.signal, cache: 'no-store' });
      const body = await response.json();
      if (controller.signal.aborted) return;
      this.render(response.ok ? body.frames : [], query);
    } catch (error) {
      if (error.name !== 'AbortError') this.render([], query);
    }
  }

  render(hits, query) {
    this.hits = hits;
    this.heading.textContent = t('frameHits');
    this.list.replaceChildren(...hits.map((hit) => {
      const item = document.createElement('li');
      const link = document.createElement('a');
      link.className = 'frame-hit';
      link.href = hit.playerURL;
      link.dataset.assetId = hit.assetID;
      link.dataset.time = String(hit.time);
      const title = document.createElement('span');
      title.className = 'frame-hit-title';
      title.textContent = t('frameHitAt', { title: hit.title, time: formatTime(hit.time) });
      const text = document.createElement('span');
      text.className = 'frame-hit-text';
      const at = hit.text.toLowerCase().indexOf(query.toLowerCase());
      if (at >= 0) {
        const mark = document.createElement('mark');
        mark.textContent = hit.text.slice(at, at + query.length);
        text.append(hit.text.slice(0, at), mark, hit.text.slice(at + query.length));
      } else {
        text.textContent = hit.text;
      }
      link.append(title, text);
      item.append(link);
      return item;
    }));
    this.section.hidden = hits.length === 0;
    this.onChange();
  }
}
