// The Live Activities page: every live activity in each presentation, kept current from
// `GET /api/activities/events` (Server-Sent Events). Swift decides the activities and their
// states (stale, ended, dismissed); this page lays them out at Apple's point sizes.
import { addStrings, pickLanguage, setLanguage, t } from '../i18n.js';
import { activityStrings } from './strings.js';
import { describe } from './describe.js';
import { build, fill } from './presentations.js';
import { islandArrangement, listed, normalize, pastDismissal } from './arrangement.js';

addStrings(activityStrings);
setLanguage(new URLSearchParams(location.search).get('lang') ?? pickLanguage(navigator.languages));

const $ = (id) => document.getElementById(id);
/** id → snapshot, as the server last sent it. */
const activities = new Map();
/** id → {lock, compact, minimal, expanded, row} elements. */
const views = new Map();
const hidden = new Set();
let expandedUntil = 0;
let expandedID = null;
let bannerTimer = 0;

function applyStrings() {
  document.title = `Marquee — ${t('liveActivities')}`;
  $('activities-title').textContent = t('liveActivities');
  $('library-link').textContent = t('library');
  $('downloads-link').textContent = t('downloads');
  $('phone-title').textContent = t('iphone');
  $('presentations-title').textContent = t('presentations');
  $('standby-toggle').textContent = t('standby');
  $('night-toggle').textContent = t('nightMode');
  $('standby-close').textContent = t('close');
  $('empty').textContent = t('noActivities');
}

const now = () => Date.now() / 1000;

/** What is live first, then the most relevant; ties keep the start order (as the server orders them). */
function ordered() {
  return listed(activities.values(), hidden);
}

function viewsFor(id) {
  let set = views.get(id);
  if (set) return set;
  const row = document.createElement('li');
  row.className = 'presentation-row';
  row.dataset.activityId = id;
  const label = (key) => { const l = document.createElement('span'); l.className = 'label'; l.textContent = t(key); return l; };
  const cell = (key, element) => { const c = document.createElement('div'); c.className = `cell cell-${key}`; c.append(label(key), element); return c; };
  set = { lock: build('lock', id, 'li'), compact: build('compact', id), minimal: build('minimal', id), expanded: build('expanded', id),
          lockCopy: build('lock', id), row };
  const dismiss = document.createElement('button');
  dismiss.type = 'button';
  dismiss.className = 'dismiss';
  dismiss.textContent = '×';
  dismiss.setAttribute('aria-label', t('dismiss'));
  dismiss.addEventListener('click', () => { hidden.add(id); render(); });
  set.lock.append(dismiss);
  row.append(cell('compact', set.compact), cell('minimal', set.minimal), cell('expanded', set.expanded), cell('lockScreen', set.lockCopy));
  views.set(id, set);
  return set;
}

function remove(id) {
  const set = views.get(id);
  if (set) for (const element of Object.values(set)) element.remove();
  views.delete(id);
  activities.delete(id);
}

/** Lays every activity out again (order, island arrangement) and refreshes every field. */
function render() {
  const time = now();
  // An ended activity goes at its dismissal date even if the server's word is late.
  for (const [id, snapshot] of activities) if (pastDismissal(snapshot, time)) remove(id);
  const list = ordered();
  $('empty').hidden = list.length > 0;
  const lock = $('lockscreen'), rows = $('presentations');
  list.forEach((snapshot, index) => {
    const set = viewsFor(snapshot.activity.id);
    const fields = describe(snapshot, time);
    for (const key of ['lock', 'compact', 'minimal', 'expanded', 'lockCopy']) fill(set[key], fields, snapshot);
    if (lock.children[index] !== set.lock) lock.insertBefore(set.lock, lock.children[index] ?? null);
    if (rows.children[index] !== set.row) rows.insertBefore(set.row, rows.children[index] ?? null);
  });
  for (const [id, set] of views) if (!list.some((s) => s.activity.id === id)) { set.lock.remove(); set.row.remove(); }
  arrangeIsland(list);
  if (!$('standby').hidden) renderStandBy(list, time);
}

/** The system's Dynamic Island: the most relevant activity compact (or expanded after an
 *  alert or a tap); a second one competes as a detached minimal view. */
function arrangeIsland(list) {
  const island = $('island'), detached = $('island-minimal');
  const arrangement = islandArrangement(list, { expandedID, expanding: Date.now() < expandedUntil });
  island.dataset.mode = arrangement.mode;
  island.replaceChildren(...(arrangement.main ? [views.get(arrangement.main.id)[arrangement.main.view].cloneNode(true)] : []));
  detached.hidden = !arrangement.detached;
  detached.replaceChildren(...(arrangement.detached ? [views.get(arrangement.detached).minimal.cloneNode(true)] : []));
}

function renderStandBy(list, time) {
  const container = $('standby-card');
  const first = list[0];
  if (!first) { container.replaceChildren(); return; }
  let card = container.firstElementChild;
  if (!card || card.dataset.activityId !== first.activity.id) {
    card = build('standby', first.activity.id);
    container.replaceChildren(card);
  }
  const fields = describe(first, time);
  fill(card, fields, first);
  $('standby').style.setProperty('--tint', fields.tint);
}

function showAlert(snapshot) {
  const alert = snapshot.activity.alert;
  if (!alert) return;
  const banner = $('alert-banner');
  banner.querySelector('.alert-title').textContent = alert.title;
  banner.querySelector('.alert-body').textContent = alert.body;
  banner.hidden = false;
  expandedID = snapshot.activity.id;
  expandedUntil = Date.now() + 4000;
  clearTimeout(bannerTimer);
  bannerTimer = setTimeout(() => { banner.hidden = true; render(); }, 4000);
}

function connect() {
  const source = new EventSource('/api/activities/events');
  source.addEventListener('snapshot', (event) => {
    for (const id of [...activities.keys()]) remove(id);
    for (const snapshot of JSON.parse(event.data)) activities.set(snapshot.activity?.id ?? snapshot.id, normalize(snapshot));
    $('push-status').classList.remove('error');
    render();
  });
  source.addEventListener('activity', (event) => {
    const snapshot = normalize(JSON.parse(event.data));
    activities.set(snapshot.activity.id, snapshot);
    render();
  });
  source.addEventListener('alert', (event) => { showAlert(normalize(JSON.parse(event.data))); render(); });
  source.addEventListener('dismissed', (event) => { remove(JSON.parse(event.data).id); render(); });
  source.onerror = () => { $('push-status').textContent = t('connectionLost'); };
  source.onopen = () => loadPushStatus();
}

/**
 * On a screen narrower than the 430 pt phone and its bezel (a 390 px iPhone), the stage is
 * zoomed to fit: nothing is cut off, and inside it points stay in proportion.
 */
function fitStage() {
  const stage = document.querySelector('.stage');
  if (!stage) return;
  const padding = parseFloat(getComputedStyle(document.querySelector('main')).paddingLeft) * 2 || 0;
  const available = document.documentElement.clientWidth - padding;
  const needed = 430 + 2 * 12;  // the phone and its bezel (box-shadow)
  stage.style.zoom = available < needed ? String(available / needed) : '';
}
addEventListener('resize', fitStage);
fitStage();

async function loadPushStatus() {
  try {
    const status = await (await fetch('/api/activities/push-status')).json();
    $('push-status').textContent = status.enabled ? t('pushesOn', { env: status.environment })
      : status.reasonCode === 'not-configured' ? t('pushesNotConfigured') : t('pushesOff', { reason: status.reason });
  } catch { /* the event stream reports connection trouble */ }
}

function setStandBy(on) {
  $('standby').hidden = !on;
  $('standby-toggle').setAttribute('aria-pressed', String(on));
  document.body.classList.toggle('in-standby', on);
  render();
}

function updateClock() {
  const date = new Date();
  $('clock-time').textContent = date.toLocaleTimeString(document.documentElement.lang, { hour: 'numeric', minute: '2-digit' });
  $('clock-date').textContent = date.toLocaleDateString(document.documentElement.lang, { weekday: 'long', month: 'long', day: 'numeric' });
}

applyStrings();
updateClock();
$('standby-toggle').addEventListener('click', () => setStandBy($('standby').hidden));
$('standby-close').addEventListener('click', () => setStandBy(false));
$('night-toggle').addEventListener('click', () => {
  const on = !$('standby').classList.contains('night');
  $('standby').classList.toggle('night', on);
  $('night-toggle').setAttribute('aria-pressed', String(on));
});
$('island').addEventListener('click', () => {
  const first = ordered()[0];
  if (!first) return;
  expandedID = first.activity.id;
  expandedUntil = Date.now() > expandedUntil ? Date.now() + 4000 : 0;
  render();
});
if (new URLSearchParams(location.search).has('standby')) setStandBy(true);
// Times (positions, countdowns, ETAs) move on between events; dismissal dates pass.
setInterval(() => { updateClock(); render(); }, 250);
connect();
