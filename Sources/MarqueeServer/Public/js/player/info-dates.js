// The info panel's dates line: "Live 23 Nov 2026, 20:00 – 22:15" for a live recording,
// "Released 1 May 2024" otherwise, in the page's language and the viewer's time zone.
import { t, language, addStrings } from '../i18n.js';

addStrings({
  en: { live: 'Live {start} – {end}', liveFrom: 'Live from {start}', released: 'Released {d}' },
  ja: { live: 'ライブ {start} – {end}', liveFrom: 'ライブ {start} から', released: '公開 {d}' },
});

export function showDates(panel, metadata) {
  let line = panel.querySelector('#info-dates');
  if (!line) {
    line = document.createElement('p');
    line.id = 'info-dates';
    line.className = 'info-dates';
    panel.querySelector('#info-description')?.before(line);
  }
  line.textContent = datesText(metadata ?? {});
  line.hidden = !line.textContent;
}

const formatters = new Map();

/** One formatter per language and style, made once (making one costs far more than using it). */
function formatter(options) {
  const key = `${language()} ${JSON.stringify(options)}`;
  if (!formatters.has(key)) formatters.set(key, new Intl.DateTimeFormat(language(), options));
  return formatters.get(key);
}

export function datesText({ liveStartDate, liveEndDate, releaseDate }) {
  const when = formatter({ dateStyle: 'medium', timeStyle: 'short' });
  const start = parse(liveStartDate);
  const end = parse(liveEndDate);
  if (start && end) {
    const sameDay = start.toDateString() === end.toDateString();
    const endText = sameDay ? formatter({ timeStyle: 'short' }).format(end) : when.format(end);
    return t('live', { start: when.format(start), end: endText });
  }
  if (start) return t('liveFrom', { start: when.format(start) });
  if (releaseDate) {
    if (/^\d{4}$/.test(releaseDate)) return t('released', { d: releaseDate });
    const date = parse(releaseDate.length === 10 ? `${releaseDate}T12:00:00` : releaseDate);
    return date ? t('released', { d: formatter({ dateStyle: 'long' }).format(date) }) : '';
  }
  return '';
}

function parse(text) {
  if (!text) return null;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? null : date;
}
