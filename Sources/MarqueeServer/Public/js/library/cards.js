// Library cards: one for an asset (artwork, duration, packaging or watched progress, badges,
// status line with Retry for failures it can help, edit and delete or remove), one for a series (opens its
// seasons and episodes), and one for a file being uploaded.
import { t, formatTime, badgeName } from '../i18n.js';
import { protectButton, protectedBadge } from './protection.js';
import { assetLink } from './links.js';

const el = (tag, className, text) => {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
};

/** A card for one asset; `handlers` has edit(asset), remove(asset), retry(asset). */
export function assetCard(asset, handlers) {
  const item = el('li', 'asset-card');
  item.dataset.assetId = asset.id;
  item.dataset.status = asset.status;
  const ready = asset.status === 'ready';
  const link = el(ready ? 'a' : 'div', 'card-link');
  if (ready) link.href = assetLink(asset);
  link.append(artwork(asset), el('h2', null, asset.title), el('p', 'subtitle', subtitleOf(asset)), badges(asset.badges));
  const lock = protectedBadge(asset);
  if (lock) link.querySelector('.badges').append(lock);
  item.append(link);
  const status = statusLine(asset, handlers);
  if (status) item.append(status);
  item.append(actions(asset, handlers));
  return item;
}

function subtitleOf(asset) {
  if (asset.series) return [asset.series.title, asset.series.label].filter(Boolean).join(' · ');
  return asset.subtitle ?? '';
}

function artwork(asset) {
  const art = el('div', 'artwork' + (asset.portrait ? ' portrait' : ''));
  if (asset.artworkURL) art.style.backgroundImage = `url("${asset.artworkURL}")`;
  art.setAttribute('role', 'img');
  art.setAttribute('aria-label', asset.title);
  if (asset.duration) art.append(el('span', 'duration', formatTime(asset.duration)));
  if (asset.status === 'processing' || asset.status === 'pending') {
    art.append(bar('progress', asset.job?.progress ?? 0));
  } else if (asset.playback?.fraction > 0) {
    const watched = bar('watched', asset.playback.fraction);
    watched.title = t('watched', { p: Math.round(asset.playback.fraction * 100) });
    art.append(watched);
  }
  return art;
}

function bar(className, fraction) {
  const outer = el('div', className);
  const fill = el('span');
  fill.style.width = `${Math.round(Math.min(1, Math.max(0, fraction)) * 100)}%`;
  outer.append(fill);
  return outer;
}

function badges(names = []) {
  const row = el('div', 'badges');
  for (const name of names) row.append(el('span', 'badge', badgeName(name)));
  return row;
}

/** A plain-words failure reason: the page's translation of the job's reason code. */
export function failureText(job) {
  if (job?.reason) {
    const key = `reason_${job.reason}`;
    const text = t(key);
    if (text !== key) return text;
  }
  return job?.message ?? t('reason_unknown');
}

function statusLine(asset, handlers) {
  const line = el('p', 'job');
  if (asset.sourceMissing) line.textContent = t('missing');
  if (asset.status === 'pending') line.textContent = t('pending');
  if (asset.status === 'processing') line.textContent = t('processing', { p: Math.round((asset.job?.progress ?? 0) * 100) });
  if (asset.status === 'failed') {
    line.classList.add('failed');
    line.textContent = failureText(asset.job);
    // Retry only where the server says it can help (not for a damaged or non-media file);
    // removing is the card's own button below.
    if (asset.job?.id != null && asset.job.retryable !== false) {
      const buttons = el('span', 'job-buttons');
      const retry = el('button', 'retry', t('retry'));
      retry.type = 'button';
      retry.addEventListener('click', () => handlers.retry(asset));
      buttons.append(retry);
      line.append(buttons);
    }
  }
  return line.textContent ? line : null;
}

function actions(asset, handlers) {
  const row = el('div', 'card-actions');
  const edit = el('button', 'edit', t('edit'));
  edit.type = 'button';
  edit.setAttribute('aria-label', `${t('edit')} — ${asset.title}`);
  edit.addEventListener('click', () => handlers.edit(asset));
  // One button takes an item out of the library (undoable for a while). For an item that failed
  // it says so, since there is nothing to delete but the entry: "Remove from library".
  const label = asset.status === 'failed' ? t('removeFromLibrary') : t('delete');
  const remove = el('button', 'delete', label);
  remove.type = 'button';
  remove.setAttribute('aria-label', `${label} — ${asset.title}`);
  remove.addEventListener('click', () => handlers.remove(asset));
  row.append(edit, remove);
  if (handlers.protect) row.append(protectButton(asset, handlers.protect));
  return row;
}

/** A card standing for a whole series; activating it opens the series sheet. */
export function seriesCard(series, open) {
  const item = el('li', 'asset-card series-card');
  item.dataset.seriesId = series.id;
  const button = el('button', 'card-link');
  button.type = 'button';
  const art = el('div', 'artwork stacked');
  if (series.artworkURL) art.style.backgroundImage = `url("${series.artworkURL}")`;
  art.setAttribute('role', 'img');
  art.setAttribute('aria-label', series.title);
  const busy = series.seasons.flatMap((s) => s.episodes).filter((e) => e.status === 'processing' || e.status === 'pending');
  if (busy.length) art.append(bar('progress', busy.reduce((sum, e) => sum + (e.job?.progress ?? 0), 0) / busy.length));
  const count = series.episodeCount === 1 ? t('episodeOne') : t('episodes', { n: series.episodeCount });
  button.append(art, el('h2', null, series.title), el('p', 'subtitle', count), badges(series.badges));
  button.addEventListener('click', () => open(series));
  item.append(button);
  return item;
}

/** The seasons of a series as headed lists of episode rows, in the server's order. */
export function seasonLists(series, handlers) {
  return series.seasons.map((season) => {
    const section = el('section', 'season');
    section.append(el('h3', null, season.number == null ? t('seasonUnknown') : t('season', { n: season.number })));
    const list = el('ol', 'episodes');
    for (const episode of season.episodes) {
      const row = el('li', 'episode');
      row.dataset.assetId = episode.id;
      row.dataset.status = episode.status;
      const ready = episode.status === 'ready';
      const link = el(ready ? 'a' : 'span', 'episode-link');
      if (ready) link.href = assetLink(episode);
      const number = episode.series?.episode != null ? `${episode.series.episode}. ` : '';
      link.append(el('span', 'episode-title', number + (episode.series?.episodeTitle ?? episode.title)));
      if (episode.duration) link.append(el('span', 'episode-duration', formatTime(episode.duration)));
      row.append(link);
      if (episode.playback?.fraction > 0 && ready) row.append(bar('watched', episode.playback.fraction));
      const status = statusLine(episode, handlers);
      if (status) row.append(status);
      row.append(actions(episode, handlers));
      list.append(row);
    }
    section.append(list);
    return section;
  });
}

/** A placeholder card for a file being uploaded, with its progress and a cancel button. */
export function uploadCard(upload, onCancel) {
  const item = el('li', 'asset-card upload-card');
  item.dataset.uploadKey = upload.key;
  item.dataset.status = 'uploading';
  const art = el('div', 'artwork');
  art.append(bar('progress', upload.fraction));
  const line = el('p', 'job', t('uploading', { p: Math.floor(upload.fraction * 100) }));
  const cancel = el('button', 'cancel', t('cancel'));
  cancel.type = 'button';
  cancel.addEventListener('click', onCancel);
  item.append(art, el('h2', null, upload.file.name), line, cancel);
  return item;
}

/** Updates an upload card in place. */
export function showUploadProgress(card, fraction, text) {
  card.querySelector('.progress span').style.width = `${Math.floor(fraction * 100)}%`;
  card.querySelector('.job').textContent = text;
}
