// The home screen's rows above the full library: Continue watching (with progress), Next up
// and Recently added. Swift decides what is in each row (`GET /api/home`); this module only
// renders them as horizontally scrolling rows of cards, and hides a row that is empty.
import { t, formatTime } from '../i18n.js';
import { playerLink } from './links.js';

const el = (tag, className, text) => {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
};

/** "12 min left", or "Less than a minute left"; "" when the length is unknown. */
export function timeLeftText(remaining) {
  if (typeof remaining !== 'number' || !Number.isFinite(remaining)) return '';
  if (remaining < 60) return t('homeUnderMinuteLeft');
  return t('homeMinutesLeft', { n: Math.round(remaining / 60) });
}

export class HomeRows {
  /** `section` holds the rows; `heading` is the full library's heading, shown with them. */
  constructor(section, heading) {
    this.section = section;
    this.heading = heading;
    this.rows = null;
    this.request = null;
  }

  async load() {
    const request = fetch('/api/home', { cache: 'no-store' });
    this.request = request;
    try {
      const response = await request;
      if (!response.ok) return;
      const rows = await response.json();
      if (this.request !== request) return;
      this.rows = rows;
      this.render();
    } catch {
      // The shelf below still shows; the rows come back with the next load.
    }
  }

  /** Shows the rows, or hides them all while `hidden` (a search or a filter is on). */
  render(hidden = this.hiddenByFilter) {
    this.hiddenByFilter = hidden;
    const rows = this.rows;
    const parts = [];
    if (rows && !hidden) {
      parts.push(this.row('continue-watching', t('homeContinue'), rows.continueWatching.map((entry) => this.progressCard(entry))));
      parts.push(this.row('next-up', t('homeNextUp'), rows.nextUp.map((entry) => this.card(entry.asset, { resume: false }))));
      parts.push(this.row('recently-added', t('homeRecent'), rows.recentlyAdded.map((asset) => this.card(asset))));
    }
    const shown = parts.filter(Boolean);
    this.section.replaceChildren(...shown);
    this.section.hidden = shown.length === 0;
    this.heading.hidden = shown.length === 0;
    this.heading.textContent = t('homeAll');
  }

  row(id, title, cards) {
    if (!cards.length) return null;
    const region = el('section', 'home-row');
    region.id = `home-${id}`;
    const heading = el('h2', 'home-row-title', title);
    heading.id = `home-${id}-title`;
    region.setAttribute('aria-labelledby', heading.id);
    const list = el('ul', 'home-cards');
    list.append(...cards);
    region.append(heading, list);
    return region;
  }

  card(asset, { resume = true } = {}) {
    const item = el('li', 'home-card');
    item.dataset.assetId = asset.id;
    const link = el('a', 'home-link');
    link.href = playerLink(asset.playerURL, resume && asset.playback?.resumeTime ? { resume: '1' } : {});
    const art = el('div', 'artwork' + (asset.portrait ? ' portrait' : ''));
    if (asset.artworkURL) art.style.backgroundImage = `url("${asset.artworkURL}")`;
    art.setAttribute('role', 'img');
    art.setAttribute('aria-label', asset.title);
    if (asset.duration) art.append(el('span', 'duration', formatTime(asset.duration)));
    const subtitle = asset.series ? [asset.series.title, asset.series.label].filter(Boolean).join(' · ') : (asset.subtitle ?? '');
    link.append(art, el('h3', null, asset.title));
    if (subtitle) link.append(el('p', 'subtitle', subtitle));
    item.append(link);
    return item;
  }

  progressCard(entry) {
    const item = this.card(entry.asset);
    const fraction = Math.min(1, Math.max(0, entry.fraction ?? 0));
    const left = timeLeftText(entry.remaining);
    const bar = el('div', 'home-progress');
    bar.setAttribute('role', 'progressbar');
    bar.setAttribute('aria-valuemin', '0');
    bar.setAttribute('aria-valuemax', '100');
    bar.setAttribute('aria-valuenow', String(Math.round(fraction * 100)));
    if (left) bar.setAttribute('aria-valuetext', left);
    bar.setAttribute('aria-label', t('homeProgress', { t: entry.asset.title }));
    const fill = el('span');
    fill.style.width = `${Math.round(fraction * 100)}%`;
    bar.append(fill);
    // After the artwork, not inside it: an image's children are hidden from screen readers.
    item.querySelector('.artwork').after(bar);
    if (left) item.querySelector('.home-link').append(el('p', 'time-left', left));
    return item;
  }
}
