// The library page: the shelf (single items and series, sorted and filtered), search,
// adding media (drag and drop or choose files, uploaded in resumable chunks; or a path on
// the server), live packaging progress pushed over Server-Sent Events (no polling), delete
// with undo, editing details, and retry or remove for items that failed.
import { addStrings, pageLanguage, setLanguage, t, badgeName } from './i18n.js';
import { libraryStrings } from './library/strings.js';
import { Upload } from './library/uploader.js';
import { assetCard, seriesCard, seasonLists, uploadCard, showUploadProgress } from './library/cards.js';
import { MetadataEditor } from './library/editor.js';
import { subtitleStrings } from './library/subtitle-strings.js';
import { isSubtitleFile, languageFromName, uploadSubtitleFile } from './library/subtitle-files.js';
import { FrameHits } from './library/frame-hits.js';
import { setProtected } from './library/protection.js';
import { libraryParameters, placeAsset, shelfStatus, visibleItems } from './library/shelf.js';
import { homeStrings } from './library/home-strings.js';
import { HomeRows } from './library/home.js';

addStrings(libraryStrings);
addStrings(homeStrings);
addStrings(subtitleStrings);
setLanguage(pageLanguage());
const $ = (id) => document.getElementById(id);
const list = $('assets');
const status = $('library-status');
const search = $('search');
const sort = $('sort');
const BADGES = ['4K', 'HD', 'HDR', 'Dolby Vision', 'Dolby Atmos', '5.1', 'CC'];
const UNDO_SECONDS = 6;

let items = [];                 // the shelf as the server last sent it
const hidden = new Set();       // assets deleted on this page, waiting out their undo
const uploads = new Map();      // key → { upload, card }
const badgeFilter = new Set();
let loadedOnce = false;
const home = new HomeRows($('home'), $('library-heading'));

// MARK: Strings

function applyStrings() {
  $('library-title').textContent = t('library');
  document.title = `Marquee — ${t('library')}`;
  search.placeholder = t('searchPlaceholder');
  search.setAttribute('aria-label', t('search'));
  sort.setAttribute('aria-label', t('sortBy'));
  sort.options[0].textContent = t('sortRecent');
  sort.options[1].textContent = t('sortTitle');
  sort.options[2].textContent = t('sortDuration');
  $('add-button').textContent = t('add');
  $('badge-filters').setAttribute('aria-label', t('filterBadges'));
  $('add-title').textContent = t('addMedia');
  $('drop-zone-text').textContent = t('dropHere');
  $('drop-zone-hint').textContent = t('dropHint');
  $('choose-files').textContent = t('chooseFiles');
  $('server-path-label').textContent = t('serverPath');
  $('server-path-hint').textContent = t('serverPathHint');
  $('server-path-add').textContent = t('addPath');
  $('add-close').textContent = t('close');
  $('drop-overlay-text').textContent = t('dropHere');
  $('series-close').textContent = t('close');
  editor.applyStrings();
  $('badge-filters').replaceChildren(...BADGES.map((name) => {
    const chip = document.createElement('button');
    chip.type = 'button';
    chip.className = 'chip';
    chip.textContent = badgeName(name);
    chip.dataset.badge = name;
    chip.setAttribute('aria-pressed', 'false');
    chip.addEventListener('click', () => {
      if (badgeFilter.has(name)) badgeFilter.delete(name); else badgeFilter.add(name);
      chip.setAttribute('aria-pressed', String(badgeFilter.has(name)));
      load();
    });
    return chip;
  }));
}

// MARK: Loading and rendering

let loading = null;
let reloadTimer = null;
let makingSamples = false;

async function load() {
  const parameters = libraryParameters({ sort: sort.value, query: search.value.trim(), badges: badgeFilter });
  const request = fetch(`/api/library?${parameters}`, { cache: 'no-store' });
  loading = request;
  home.load();
  try {
    const response = await request;
    const body = await response.json();
    if (!response.ok) throw new Error(body.error?.message ?? response.statusText);
    if (loading !== request) return; // a newer load is on its way
    items = body.items;
    makingSamples = body.makingSamples === true;
    loadedOnce = true;
    render();
  } catch (error) {
    status.textContent = String(error.message ?? error);
  }
}

/** Reloads the shelf soon, once, however many changes arrive meanwhile. */
function reloadSoon() {
  clearTimeout(reloadTimer);
  reloadTimer = setTimeout(load, 150);
}

function render() {
  // The rows are the home screen's: they step aside while a search or a filter is on.
  home.render(search.value.trim() !== '' || badgeFilter.size > 0);
  const shown = visibleItems(items, hidden);
  status.textContent = shelfStatus({ shown: shown.length || uploads.size || frameHits.count, query: search.value.trim(), badges: badgeFilter, makingSamples,
    canAdd: document.body.dataset.role !== 'viewer' });
  list.replaceChildren(...[...uploads.values()].map((u) => u.card), ...shown.map((item) => (
    item.kind === 'series' ? seriesCard(item.series, openSeries) : assetCard(item.asset, handlers))));
  if ($('series-sheet').open) refreshSeriesSheet();
}

/** Reloads the home screen's rows soon, once, however many changes arrive meanwhile. */
let homeTimer = null;
function reloadHomeSoon() {
  clearTimeout(homeTimer);
  homeTimer = setTimeout(() => home.load(), 300);
}

/** Applies one pushed asset: updated in place when its card is showing, else a reload. */
function applyAsset(asset) {
  reloadHomeSoon();
  if (hidden.has(asset.id)) return;
  const { place, index } = placeAsset(items, asset, { filtered: badgeFilter.size > 0 });
  if (place === 'replace') {
    items[index] = { kind: 'asset', asset };
    const old = list.querySelector(`.asset-card[data-asset-id="${CSS.escape(asset.id)}"]`);
    if (old) old.replaceWith(assetCard(asset, handlers)); else render();
    return;
  }
  // Progress of an episode: patched in place; re-render (cheap), and re-sort soon.
  if (place === 'series') render();
  reloadSoon();
}

function applyRemoved(id) {
  reloadHomeSoon();
  const before = items.length;
  items = items.filter((item) => item.kind !== 'asset' || item.asset.id !== id);
  if (items.length !== before) render(); else reloadSoon();
}

// MARK: Live changes (Server-Sent Events)

function listen() {
  const events = new EventSource('/api/events');
  events.addEventListener('asset', (event) => applyAsset(JSON.parse(event.data)));
  events.addEventListener('removed', (event) => applyRemoved(JSON.parse(event.data).id));
  events.addEventListener('open', () => { if (loadedOnce) load(); }); // reconnected: catch up
  events.addEventListener('error', () => { if (events.readyState !== EventSource.OPEN) status.textContent = t('offline'); });
  window.marqueeLibrary = { events, get items() { return items; } };
}

// MARK: Actions on cards

const handlers = {
  edit: (asset) => editor.open(asset),
  remove: (asset) => remove(asset),
  protect: async (asset, wanted) => {
    try { applyAsset(await setProtected(asset, wanted)); } catch (error) { toast(error.message); }
  },
  retry: async (asset) => {
    const response = await fetch(`/api/jobs/${asset.job.id}/retry`, { method: 'POST' });
    if (!response.ok) toast((await response.json()).error?.message ?? response.statusText);
  },
};

const editor = new MetadataEditor($('edit-sheet'), (saved) => {
  toast(t('saved'));
  applyAsset(saved);
  reloadSoon();
});

async function remove(asset) {
  // Deleting from the keyboard: focus goes to Undo (the card and its button are gone), and
  // back to the card if it is undone.
  const fromKeyboard = Boolean(document.activeElement?.closest?.('.asset-card, .episode'));
  hidden.add(asset.id);
  render();
  const response = await fetch(`/api/assets/${encodeURIComponent(asset.id)}`, { method: 'DELETE' });
  if (!response.ok && response.status !== 404) {
    hidden.delete(asset.id);
    render();
    toast((await response.json()).error?.message ?? response.statusText);
    return;
  }
  const note = toast(t('deleted', { t: asset.title }), {
    action: t('undo'),
    seconds: UNDO_SECONDS,
    onAction: async () => {
      const restored = await fetch(`/api/assets/${encodeURIComponent(asset.id)}/restore`, { method: 'POST' });
      hidden.delete(asset.id);
      if (!restored.ok) { toast((await restored.json()).error?.message ?? restored.statusText); return; }
      await load();
      if (fromKeyboard) document.querySelector(`.asset-card[data-asset-id="${CSS.escape(asset.id)}"] a`)?.focus();
    },
    onExpire: () => hidden.delete(asset.id),
  });
  note.classList.add('undo-toast');
  if (fromKeyboard) note.querySelector('button')?.focus();
}

// MARK: Series sheet

let openSeriesID = null;

function openSeries(series) {
  openSeriesID = series.id;
  refreshSeriesSheet();
  $('series-sheet').showModal();
}

function refreshSeriesSheet() {
  const item = visibleItems(items, hidden).find((i) => i.kind === 'series' && i.series.id === openSeriesID);
  if (!item) { $('series-sheet').close(); return; }
  $('series-title').textContent = item.series.title;
  $('series-seasons').replaceChildren(...seasonLists(item.series, handlers));
}

$('series-close').addEventListener('click', () => $('series-sheet').close());

// MARK: Adding media

function addFiles(files) {
  for (const file of files) {
    const upload = new Upload(file);
    if (uploads.has(upload.key)) continue;
    const card = uploadCard(upload, async () => {
      await upload.cancel();
      uploads.delete(upload.key);
      render();
      toast(t('uploadCancelled'));
    });
    uploads.set(upload.key, { upload, card });
    upload.addEventListener('progress', (event) => {
      showUploadProgress(card, event.detail.fraction, t('uploading', { p: Math.floor(event.detail.fraction * 100) }));
    });
    upload.addEventListener('retrying', () => showUploadProgress(card, upload.fraction, t('uploadPaused')));
    upload.start().then((asset) => {
      uploads.delete(upload.key);
      items.unshift({ kind: 'asset', asset });
      render();
      reloadSoon();
    }).catch((error) => {
      if (upload.cancelled) return;
      card.classList.add('failed');
      showUploadProgress(card, upload.fraction, t('uploadFailed', { m: error.message }));
    });
  }
  render();
}

$('add-button').addEventListener('click', () => {
  $('add-error').textContent = '';
  $('add-sheet').showModal();
});
$('choose-files').addEventListener('click', () => $('file-input').click());
$('file-input').addEventListener('change', (event) => {
  addFiles([...event.target.files]);
  event.target.value = '';
  if ($('add-sheet').open) $('add-sheet').close();
});
$('server-path-add').addEventListener('click', async () => {
  const path = $('server-path').value.trim();
  if (!path) return;
  const response = await fetch('/api/assets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ paths: [path] }) });
  const body = await response.json().catch(() => null);
  if (!response.ok) { $('add-error').textContent = body?.error?.message ?? response.statusText; return; }
  $('server-path').value = '';
  $('add-sheet').close();
  load();
});

// Drag and drop anywhere on the page.
let dragDepth = 0;
const carriesFiles = (event) => [...(event.dataTransfer?.types ?? [])].includes('Files');
document.addEventListener('dragenter', (event) => {
  if (!carriesFiles(event)) return;
  event.preventDefault();
  dragDepth += 1;
  $('drop-overlay').hidden = false;
});
document.addEventListener('dragover', (event) => { if (carriesFiles(event)) event.preventDefault(); });
document.addEventListener('dragleave', () => {
  dragDepth = Math.max(0, dragDepth - 1);
  if (!dragDepth) $('drop-overlay').hidden = true;
});
document.addEventListener('drop', (event) => {
  if (!carriesFiles(event)) return;
  event.preventDefault();
  dragDepth = 0;
  $('drop-overlay').hidden = true;
  let files = [...event.dataTransfer.files];
  if (files.some(isSubtitleFile)) {
    dropSubtitles(files.filter(isSubtitleFile), event.target);
    files = files.filter((file) => !isSubtitleFile(file));
    if (!files.length) return;
  }
  if ($('add-sheet').open) $('add-sheet').close();
  addFiles(files);
});

// Subtitle files dropped on the edit sheet join its item; dropped on an item's card, that item.
async function dropSubtitles(files, target) {
  if ($('edit-sheet').open) {
    for (const file of files) await editor.subtitles.add(file);
    return;
  }
  const card = target?.closest?.('[data-asset-id]');
  if (!card) { toast(t('subtitleDropOnItem')); return; }
  const title = card.querySelector('h2, h3, .title')?.textContent ?? '';
  for (const file of files) {
    try {
      const added = await uploadSubtitleFile(card.dataset.assetId, file, { language: languageFromName(file.name) });
      toast(t('subtitleAddedTo', { l: added.label, t: title }));
    } catch (error) {
      toast(error.message, { seconds: 6 });
    }
  }
}

// MARK: Toasts

function toast(text, { action, onAction, onExpire, seconds = 3 } = {}) {
  const note = document.createElement('div');
  note.className = 'toast';
  note.setAttribute('role', 'status');
  const label = document.createElement('span');
  label.textContent = text;
  note.append(label);
  let timer = null;
  const dismiss = () => { clearTimeout(timer); note.remove(); };
  if (action) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = action;
    button.addEventListener('click', () => { dismiss(); onAction?.(); });
    note.append(document.createTextNode(' · '), button);
  }
  const expire = () => { dismiss(); onExpire?.(); };
  timer = setTimeout(expire, seconds * 1000);
  // Time enough to act: a toast holding focus stays until focus leaves it.
  note.addEventListener('focusin', () => clearTimeout(timer));
  note.addEventListener('focusout', () => { if (note.isConnected) timer = setTimeout(expire, seconds * 1000); });
  $('toasts').append(note);
  return note;
}

// MARK: Start

let debounce = null;
search.addEventListener('input', () => {
  clearTimeout(debounce);
  debounce = setTimeout(load, 150);
});
sort.addEventListener('change', load);
const frameHits = new FrameHits(search, list, () => render());
applyStrings();
listen();
load();
// Back from the player (the page restored from the back-forward cache): progress moved.
window.addEventListener('pageshow', (event) => { if (event.persisted) load(); });
