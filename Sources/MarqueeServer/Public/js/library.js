// The library page: artwork, title, duration and badges for every asset, search, and
// ingest progress while jobs run.
import { pickLanguage, setLanguage, t, formatTime, badgeName } from './i18n.js';

setLanguage(pickLanguage(navigator.languages));
const list = document.getElementById('assets');
const status = document.getElementById('library-status');
const search = document.getElementById('search');
document.getElementById('library-title').textContent = t('library');
document.title = `Marquee — ${t('library')}`;
search.placeholder = t('searchPlaceholder');
search.setAttribute('aria-label', t('search'));

let timer = null;
let lastRendered = '';

async function refresh() {
  clearTimeout(timer);
  const query = search.value.trim();
  try {
    const response = await fetch(`/api/assets${query ? `?q=${encodeURIComponent(query)}` : ''}`);
    if (!response.ok) throw new Error((await response.json()).error?.message ?? response.statusText);
    const { assets } = await response.json();
    render(assets.filter((a) => a.role === 'feature'), query); // ads and other hidden roles never show, searched or not
    const busy = assets.some((a) => a.status === 'pending' || a.status === 'processing');
    if (busy || (!query && assets.length === 0)) timer = setTimeout(refresh, 1000);
  } catch (error) {
    status.textContent = String(error.message ?? error);
    timer = setTimeout(refresh, 3000);
  }
}

function render(assets, query) {
  const signature = JSON.stringify(assets);
  if (signature === lastRendered) return;
  lastRendered = signature;
  status.textContent = assets.length ? '' : query ? t('noResults', { q: query }) : t('empty');
  list.replaceChildren(...assets.map(card));
}

function card(asset) {
  const item = document.createElement('li');
  item.className = 'asset-card';
  item.dataset.assetId = asset.id;
  item.dataset.status = asset.status;
  const link = document.createElement(asset.status === 'ready' ? 'a' : 'div');
  if (asset.status === 'ready') link.href = asset.playerURL;
  const art = document.createElement('div');
  art.className = 'artwork' + (asset.portrait ? ' portrait' : '');
  if (asset.artworkURL) art.style.backgroundImage = `url("${asset.artworkURL}")`;
  art.setAttribute('role', 'img');
  art.setAttribute('aria-label', asset.title);
  if (asset.duration) {
    const duration = document.createElement('span');
    duration.className = 'duration';
    duration.textContent = formatTime(asset.duration);
    art.append(duration);
  }
  if (asset.status === 'processing' && asset.job) {
    const bar = document.createElement('div');
    bar.className = 'progress';
    bar.innerHTML = '<span></span>';
    bar.firstChild.style.width = `${Math.round(asset.job.progress * 100)}%`;
    art.append(bar);
  }
  const title = document.createElement('h2');
  title.textContent = asset.title;
  const subtitle = document.createElement('p');
  subtitle.className = 'subtitle';
  subtitle.textContent = asset.subtitle ?? '';
  const badges = document.createElement('div');
  badges.className = 'badges';
  for (const name of asset.badges) {
    const badge = document.createElement('span');
    badge.className = 'badge';
    badge.textContent = badgeName(name);
    badges.append(badge);
  }
  link.append(art, title, subtitle, badges);
  item.append(link);
  const job = jobLine(asset);
  if (job) item.append(job);
  return item;
}

function jobLine(asset) {
  const line = document.createElement('p');
  line.className = 'job';
  if (asset.sourceMissing) line.textContent = t('missing');
  if (asset.status === 'pending') line.textContent = t('pending');
  if (asset.status === 'processing') line.textContent = t('processing', { p: Math.round((asset.job?.progress ?? 0) * 100) });
  if (asset.status === 'failed') {
    line.classList.add('failed');
    line.textContent = t('failed', { m: asset.job?.message ?? '' });
    if (asset.job?.id != null) {
      const retry = document.createElement('button');
      retry.textContent = t('retry');
      retry.addEventListener('click', async () => {
        await fetch(`/api/jobs/${asset.job.id}/retry`, { method: 'POST' });
        refresh();
      });
      line.append(retry);
    }
  }
  return line.textContent ? line : null;
}

let debounce = null;
search.addEventListener('input', () => {
  clearTimeout(debounce);
  debounce = setTimeout(refresh, 150);
});
refresh();
