// The downloads page: paste an HLS address, pick a variant (or type a predicate, checked as
// you type with the error underlined at its column), and follow the downloads the server
// runs — progress pushed over Server-Sent Events, pause, resume, cancel, retry, delete.
import { addStrings, language, pickLanguage, setLanguage, t, formatTime } from './i18n.js';
import { downloadStrings } from './downloads-strings.js';
import { downloadActions, errorSpan, formatBytes, progressLine, variantSummary } from './downloads-format.js';

addStrings(downloadStrings);
setLanguage(pickLanguage(navigator.languages));

const $ = (id) => document.getElementById(id);
let inspection = null;
let predicateCheck = { valid: true };
const downloads = new Map();
let diskUsage = 0;

// MARK: Strings

function applyStrings() {
  document.title = `Marquee — ${t('downloads')}`;
  $('downloads-title').textContent = t('downloads');
  $('library-link').textContent = t('library');
  $('add-title').textContent = t('addDownload');
  $('inspect').textContent = t('inspect');
  $('url').placeholder = t('urlPlaceholder');
  $('url').setAttribute('aria-label', t('addDownload'));
  $('title-label').textContent = t('titleLabel');
  $('variants-legend').textContent = t('chooseVariant');
  $('predicate-label').textContent = t('choosePredicate');
  $('predicate-hint').textContent = t('predicateHint');
  $('predicate').setAttribute('aria-label', t('choosePredicate'));
  $('audio-legend').textContent = t('audioLanguages');
  $('subtitles-legend').textContent = t('subtitleLanguages');
  $('start').textContent = t('download');
  $('list-title').textContent = t('downloads');
}

// MARK: Formatting

function languageName(code) {
  if (!code) return '';
  try { return new Intl.DisplayNames([language()], { type: 'language' }).of(code) ?? code; } catch { return code; }
}

function badgeLabel(name) {
  const label = t(`badge_${name}`);
  return label.startsWith('badge_') ? name : label;
}

function badgeList(names) {
  const box = document.createElement('span');
  box.className = 'badges';
  for (const name of names) {
    const badge = document.createElement('span');
    badge.className = 'badge';
    badge.dataset.badge = name;
    badge.textContent = badgeLabel(name);
    box.append(badge);
  }
  return box;
}

// MARK: Inspecting a stream

async function api(method, path, body) {
  const response = await fetch(path, {
    method, headers: body ? { 'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  const data = text ? JSON.parse(text) : null;
  if (!response.ok) throw new Error(data?.error?.message ?? response.statusText);
  return data;
}

function showError(id, message) {
  const element = $(id);
  element.textContent = message ?? '';
  element.hidden = !message;
}

async function inspect(event) {
  event.preventDefault();
  const url = $('url').value.trim();
  showError('inspect-error', null);
  $('choose-form').hidden = true;
  $('inspect').disabled = true;
  $('inspect-status').textContent = t('inspecting');
  try {
    inspection = await api('POST', '/api/downloads/inspect', { url });
    renderInspection();
    $('inspect-status').textContent = t('variantCount', { n: inspection.variants.length, d: formatTime(inspection.duration ?? 0) });
  } catch (error) {
    inspection = null;
    $('inspect-status').textContent = '';
    showError('inspect-error', error.message);
  } finally {
    $('inspect').disabled = false;
  }
}

function renderInspection() {
  $('title').value = inspection.title;
  const list = $('variants');
  list.replaceChildren(...inspection.variants.map((variant, index) => variantItem(variant, index)));
  const first = list.querySelector('input');
  if (first) first.checked = true;
  checks('audio-languages', inspection.audioLanguages, 'audio');
  checks('subtitle-languages', inspection.subtitleLanguages, 'subtitles');
  $('audio-languages-box').hidden = inspection.audioLanguages.length === 0;
  $('subtitle-languages-box').hidden = inspection.subtitleLanguages.length === 0;
  $('choose-form').hidden = false;
  showError('start-error', null);
}

function variantItem(variant, index) {
  const item = document.createElement('li');
  item.className = 'variant';
  item.dataset.uri = variant.uri;
  const label = document.createElement('label');
  label.className = 'variant-choice';
  const radio = document.createElement('input');
  radio.type = 'radio';
  radio.name = 'variant';
  radio.value = variant.uri;
  radio.dataset.index = String(index);
  radio.id = `variant-${index}`;
  const main = document.createElement('span');
  main.className = 'variant-main';
  const title = document.createElement('span');
  title.className = 'variant-title';
  title.textContent = variantSummary(variant);
  title.append(' ', badgeList(variant.badges));
  const audio = document.createElement('span');
  audio.className = 'variant-line variant-audio';
  audio.textContent = `${t('audioLanguages')}: ` + (variant.audio.length
    ? variant.audio.map((a) => `${languageName(a.language) || a.name || '—'}${a.channels ? ` (${t('channels', { n: a.channels })})` : ''}`).join(', ')
    : '—');
  const subtitles = document.createElement('span');
  subtitles.className = 'variant-line variant-subtitles';
  subtitles.textContent = `${t('subtitleLanguages')}: ` + (variant.subtitles.length
    ? variant.subtitles.map((s) => languageName(s.language) || s.name).join(', ') : t('noSubtitles'));
  main.append(title, audio, subtitles);
  const size = document.createElement('span');
  size.className = 'variant-size';
  size.textContent = variant.estimatedBytes ? t('estimated', { size: formatBytes(variant.estimatedBytes) }) : '';
  label.append(radio, main, size);
  item.append(label);
  return item;
}

function checks(id, languages, name) {
  $(id).replaceChildren(...languages.map((code, index) => {
    const label = document.createElement('label');
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.name = name;
    box.value = code;
    box.checked = index === 0;
    label.append(box, languageName(code));
    return label;
  }));
}

// MARK: The predicate, checked as it is typed

let checkTimer = null;
let checkSequence = 0;

function predicateChanged() {
  $('use-predicate').checked = true;
  clearTimeout(checkTimer);
  checkTimer = setTimeout(validatePredicate, 120);
  renderMirror();
}

async function validatePredicate() {
  const predicate = $('predicate').value;
  const sequence = ++checkSequence;
  try {
    const result = await api('POST', '/api/downloads/validate', { predicate, url: inspection?.url });
    if (sequence !== checkSequence) return;
    predicateCheck = result;
  } catch (error) {
    predicateCheck = { valid: false, message: error.message, column: null };
  }
  renderMirror();
}

function renderMirror() {
  const text = $('predicate').value;
  const mirror = $('predicate-mirror');
  const field = mirror.parentElement;
  const check = predicateCheck;
  const valid = check.valid || !text.trim();
  field.classList.toggle('invalid', !valid);
  $('predicate').setAttribute('aria-invalid', String(!valid));
  showPick(valid && text.trim() ? check : null);
  if (valid || !check.column) {
    mirror.textContent = text;
    showError('predicate-error', valid ? null : check.message);
    return;
  }
  // The column counts characters (1-based); underline the character there to the end of its word.
  const { chars, start, end } = errorSpan(text, check.column);
  const mark = document.createElement('mark');
  mark.className = 'error-at';
  mark.dataset.column = String(check.column);
  mark.textContent = chars.slice(start, end).join('') || ' ';
  mirror.replaceChildren(chars.slice(0, start).join(''), mark, chars.slice(end).join(''));
  showError('predicate-error', t('predicateColumn', { c: check.column, m: check.message }));
  $('predicate-error').dataset.column = String(check.column);
}

/** Marks the variant a valid predicate picks (or says that none matches). */
function showPick(check) {
  for (const item of document.querySelectorAll('#variants .variant')) item.classList.remove('predicate-pick');
  const hint = $('predicate-hint');
  hint.classList.remove('no-match');
  if (!check || check.matches == null) { hint.textContent = t('predicateHint'); return; }
  if (!check.matches) {
    hint.textContent = t('predicateNoMatch');
    hint.classList.add('no-match');
    return;
  }
  const variant = inspection.variants[check.chosen];
  document.querySelectorAll('#variants .variant')[check.chosen]?.classList.add('predicate-pick');
  hint.textContent = t('predicatePicks', { v: variantSummary(variant, { frameRate: false }) });
}

// MARK: Starting a download

async function start(event) {
  event.preventDefault();
  if (!inspection) return;
  const chosen = document.querySelector('input[name=variant]:checked');
  const body = {
    url: inspection.url,
    title: $('title').value.trim() || undefined,
    audio: [...document.querySelectorAll('input[name=audio]:checked')].map((b) => b.value),
    subtitles: [...document.querySelectorAll('input[name=subtitles]:checked')].map((b) => b.value),
  };
  if (!chosen) return showError('start-error', t('pickOne'));
  if (chosen.id === 'use-predicate') {
    await validatePredicate();
    if (!predicateCheck.valid) return showError('start-error', t('badPredicate'));
    if (!$('predicate').value.trim()) return showError('start-error', t('pickOne'));
    body.predicate = $('predicate').value;
  } else {
    body.variant = chosen.value;
    body.variantIndex = Number(chosen.dataset.index);
  }
  showError('start-error', null);
  $('start').disabled = true;
  try {
    const created = await api('POST', '/api/downloads', body);
    upsert(created);
    // Started: the picker folds away and the new download is brought into view.
    $('choose-form').hidden = true;
    $('inspect-status').textContent = '';
    document.querySelector(`.download[data-id="${CSS.escape(created.id)}"]`)?.scrollIntoView({ block: 'nearest' });
  } catch (error) {
    showError('start-error', error.message);
  } finally {
    $('start').disabled = false;
  }
}

// MARK: The list

function upsert(download) {
  // Answers and pushed events can arrive out of order: keep whichever the server made last.
  const known = downloads.get(download.id);
  if (known && known.revision > download.revision) return;
  downloads.set(download.id, download);
  const existing = document.querySelector(`.download[data-id="${CSS.escape(download.id)}"]`);
  const item = downloadItem(download);
  if (existing) existing.replaceWith(item); else $('downloads').prepend(item);
  renderSummary();
}

function remove(id) {
  downloads.delete(id);
  document.querySelector(`.download[data-id="${CSS.escape(id)}"]`)?.remove();
  renderSummary();
}

function renderAll(list) {
  downloads.clear();
  for (const d of list) downloads.set(d.id, d);
  $('downloads').replaceChildren(...[...list].reverse().map(downloadItem));
  renderSummary();
}

function renderSummary() {
  $('disk-usage').textContent = t('diskUsage', { size: formatBytes(diskUsage) });
  $('disk-usage').dataset.bytes = String(diskUsage);
  $('list-status').textContent = downloads.size ? '' : t('noDownloads');
}

function downloadItem(d) {
  const item = document.createElement('li');
  item.className = 'download';
  item.dataset.id = d.id;
  item.dataset.state = d.state;
  item.dataset.progress = String(d.progress);
  item.dataset.completedFiles = String(d.completedFiles);
  const title = document.createElement('h3');
  title.textContent = d.title;
  const source = document.createElement('p');
  source.className = 'source';
  source.textContent = d.url;
  const line = document.createElement('p');
  line.className = 'line';
  line.textContent = progressLine(d);
  const bar = document.createElement('div');
  bar.className = 'bar';
  bar.setAttribute('role', 'progressbar');
  bar.setAttribute('aria-valuemin', '0');
  bar.setAttribute('aria-valuemax', '100');
  bar.setAttribute('aria-valuenow', String(Math.round(d.progress * 100)));
  bar.setAttribute('aria-label', d.title);
  const fill = document.createElement('span');
  fill.style.width = `${Math.round(d.progress * 100)}%`;
  bar.append(fill);
  item.append(title, source, line, bar);
  if (d.message) {
    const message = document.createElement('p');
    message.className = 'message';
    message.textContent = d.message;
    item.append(message);
  }
  const actions = document.createElement('div');
  actions.className = 'actions';
  const button = (action) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.action = action;
    b.textContent = t(action);
    b.addEventListener('click', () => act(d.id, action, b));
    actions.append(b);
  };
  for (const action of downloadActions(d)) button(action);
  if (d.playerURL) {
    const play = document.createElement('a');
    play.className = 'play';
    play.href = d.playerURL;
    play.textContent = d.state === 'finished' ? t('play') : t('playPartial');
    actions.append(play);
  }
  item.append(actions);
  return item;
}

async function act(id, action, button) {
  button.disabled = true;
  try {
    if (action === 'delete') {
      await api('DELETE', `/api/downloads/${encodeURIComponent(id)}`);
      remove(id);
    } else {
      upsert(await api('POST', `/api/downloads/${encodeURIComponent(id)}/${action}`));
    }
  } catch (error) {
    const item = document.querySelector(`.download[data-id="${CSS.escape(id)}"]`);
    if (item) {
      let message = item.querySelector('.message');
      if (!message) { message = document.createElement('p'); message.className = 'message'; item.append(message); }
      message.textContent = error.message;
    }
    button.disabled = false;
  }
}

// MARK: Live updates

function listen() {
  const events = new EventSource('/api/downloads/events');
  events.addEventListener('downloads', (event) => {
    const data = JSON.parse(event.data);
    diskUsage = data.diskUsage;
    renderAll(data.downloads);
    $('list-status').dataset.live = 'true';
  });
  events.addEventListener('download', (event) => {
    const data = JSON.parse(event.data);
    diskUsage = data.diskUsage;
    upsert(data.download);
  });
  events.addEventListener('removed', (event) => {
    const data = JSON.parse(event.data);
    diskUsage = data.diskUsage;
    remove(data.id);
  });
  events.addEventListener('error', () => {
    if (events.readyState !== EventSource.OPEN) $('list-status').textContent = t('connectionLost');
  });
  events.addEventListener('open', () => { if (!downloads.size) renderSummary(); });
}

applyStrings();
$('inspect-form').addEventListener('submit', inspect);
$('choose-form').addEventListener('submit', start);
$('predicate').addEventListener('input', predicateChanged);
// A click into the field chooses the predicate (typing does too); Tab passing through it does
// not, or a keyboard user would lose the variant just chosen on the way to Download.
$('predicate').addEventListener('pointerdown', () => { $('use-predicate').checked = true; });
const initial = new URLSearchParams(location.search).get('url');
if (initial) { $('url').value = initial; }
listen();
