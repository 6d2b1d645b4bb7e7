// The web remote (`/remote`): a phone's browser pairs with the TV that served the page over
// the device link (code shown on both, approval on both), then sends renderer-protocol intents
// over the encrypted channel and shows what the TV is playing. What it may do (skip interval,
// seek, speed) comes from the session's permissions in each now-playing snapshot; volume, audio and
// subtitles are the session's too (the TV page reports its volume; the pickers list the item's renditions).
import { addStrings, formatTime, pickLanguage, setLanguage, t } from '../i18n.js';
import { remoteStrings } from './remote-strings.js';
import { controlsView, pickerEntries, remoteTime, upNextView, volumeView } from './now-playing-view.js';
import { LinkClient, linkURL } from '../devicelink/link-client.js';
import { MessageType } from '../devicelink/frame.js';
import { linkCryptoAvailable } from '../devicelink/link-crypto.js';
import { loadIdentity, rememberTV, trustedTVs, forgetTV, trustsTV } from '../devicelink/identity-store.js';

addStrings(remoteStrings);
setLanguage(pickLanguage(navigator.languages));

const $ = (id) => document.getElementById(id);
const SERVICE = 'remote';
const ORIGIN_KEY = 'marquee.remote.tv';

const ui = {
  main: $('remote'), pairPanel: $('pair-panel'), codePanel: $('code-panel'), controls: $('controls-panel'),
  status: $('status'), retry: $('retry'), tvName: $('tv-name'),
  code: $('code'), approve: $('code-approve'), reject: $('code-reject'), codeWaiting: $('code-waiting'),
  title: $('now-title'), subtitle: $('now-subtitle'), position: $('position'), duration: $('duration'), seek: $('seek'),
  playPause: $('play-pause'), back: $('skip-back'), forward: $('skip-forward'), speedRow: $('speed-row'), speed: $('speed'),
  volumeRow: $('volume-row'), mute: $('remote-mute'), volume: $('remote-volume'), volumeLevel: $('volume-level'),
  audioRow: $('audio-row'), audio: $('audio'), subtitlesRow: $('subtitles-row'), subtitles: $('subtitles'),
  upNext: $('remote-up-next'), upNextText: $('remote-up-next-text'), upNextPlay: $('remote-up-next-play'), upNextCancel: $('remote-up-next-cancel'),
};

const state = {
  link: null,
  session: sessionStorage.getItem('marquee.remote.session') || crypto.randomUUID?.() || String(Math.random()).slice(2),
  snapshot: null,
  receivedAt: 0,
  nextIntent: 1,
  seeking: false,
  reconnectDelay: 200,
  wantConnected: false,
  adjustingVolume: false,
};
sessionStorage.setItem('marquee.remote.session', state.session);
// For the e2e tests (and anyone debugging): the live link.
window.marqueeRemote = state;

function show(panel) {
  for (const p of [ui.pairPanel, ui.codePanel, ui.controls]) p.hidden = p !== panel;
  ui.main.dataset.state = panel === ui.controls ? 'connected' : panel === ui.codePanel ? 'pairing' : 'idle';
}

function setStatus(text, error = false) {
  ui.status.textContent = text;
  ui.status.classList.toggle('error', error);
}

function localize() {
  document.title = `Marquee — ${t('rm_remoteTitle')}`;
  $('remote-title').textContent = t('rm_remoteTitle');
  $('pair').textContent = t('rm_pairWithTV');
  $('pair-intro').textContent = t('rm_pairIntro');
  $('code-question').textContent = t('rm_codeQuestion');
  ui.approve.textContent = t('rm_approveCode');
  ui.reject.textContent = t('rm_rejectCode');
  ui.retry.textContent = t('rm_pairAgain');
  $('speed-label').textContent = t('rm_speed');
  ui.seek.setAttribute('aria-label', t('rm_position'));
  $('audio-label').textContent = t('rm_audio');
  $('subtitles-label').textContent = t('rm_subtitles');
  ui.volume.setAttribute('aria-label', t('rm_volume'));
}

/** Whether this browser paired with the TV that served this page. */
function pairedHere() {
  const key = localStorage.getItem(ORIGIN_KEY);
  return key !== null && trustedTVs().some((tv) => tv.identityKey === key && tv.services.includes(SERVICE));
}

async function connect(purpose) {
  state.wantConnected = true;
  ui.retry.hidden = true;
  setStatus(t('rm_connecting'));
  const identity = await loadIdentity();
  const link = new LinkClient({
    url: linkURL(), identity, service: SERVICE, session: state.session, purpose, trustsPeer: trustsTV,
  });
  state.link = link;
  link.addEventListener('code', (event) => {
    show(ui.codePanel);
    ui.code.textContent = `${event.code.slice(0, 3)} ${event.code.slice(3)}`;
    ui.approve.disabled = ui.reject.disabled = false;
    ui.codeWaiting.hidden = true;
    setStatus('');
    ui.approve.onclick = () => {
      ui.approve.disabled = ui.reject.disabled = true;
      ui.codeWaiting.textContent = t('rm_waitingForTV');
      ui.codeWaiting.hidden = false;
      event.approve(true);
    };
    ui.reject.onclick = () => event.approve(false);
  });
  link.addEventListener('open', (event) => {
    rememberTV(event.peer, SERVICE);
    localStorage.setItem(ORIGIN_KEY, trustedTVs().find((tv) => tv.deviceID === event.peer.deviceID)?.identityKey ?? '');
    ui.tvName.textContent = event.peer.name;
    show(ui.controls);
    setStatus(t('rm_connected'));
    render();
    sendPendingPlayItem(link);
  });
  link.addEventListener('message', (event) => receive(event.messageType, event.body));
  link.addEventListener('close', (event) => closed(link, event.reason, event.error));
  try {
    await link.connect();
  } catch {
    // `close` has said why.
  }
}

function closed(link, reason, error) {
  if (state.link !== link) return;
  const wasOpen = link.peer !== null;
  if (reason === 'not-paired') {
    // Revoked on the TV (or never paired): forget it here too, and offer to pair again.
    if (link.peer) forgetTV(link.peer.identityKey);
    const key = localStorage.getItem(ORIGIN_KEY);
    if (key) forgetTV(Uint8Array.from(atob(key), (c) => c.charCodeAt(0)));
    localStorage.removeItem(ORIGIN_KEY);
  }
  const refusedText = t(`rm_refused_${reason}`, { minutes: Math.ceil((error?.retryAfter ?? 60) / 60) });
  if (refusedText !== `rm_refused_${reason}`) {
    state.wantConnected = false;
    show(ui.pairPanel);
    setStatus(refusedText, true);
    ui.retry.hidden = reason === 'pairing-locked';
    return;
  }
  if (reason === 'closed-locally') return;
  if (reason === 'channel' || reason === 'bad-frame') {
    setStatus(t('rm_linkBroken'), true);
  }
  if (wasOpen && state.wantConnected && pairedHere()) {
    // The TV went away or the phone slept: reconnect as the paired device, backing off.
    setStatus(t('rm_reconnecting'));
    const delay = state.reconnectDelay;
    state.reconnectDelay = Math.min(delay * 2, 10000);
    setTimeout(() => { if (state.link === link) connect('connect'); }, delay);
    return;
  }
  show(ui.pairPanel);
  if (reason !== 'channel' && reason !== 'bad-frame') setStatus(t('rm_closed', { reason }), true);
  ui.retry.hidden = false;
}

// "Play on TV" from a player: once the TV plays that item, it plays at the speed it had there.
const handoff = new URLSearchParams(location.search);
let handoffRate = handoff.has('asset') ? Number(handoff.get('rate')) : null;
// A player not yet paired with the TV came here to pair first (`pair=1`): once the link is
// open, the "Play on TV" it asked for is carried out (the item, from its time, at its speed).
let pendingPlayItem = handoff.get('pair') === '1' && handoff.has('asset')
  ? { assetID: handoff.get('asset'), time: Number(handoff.get('t')) || 0, rate: Number(handoff.get('rate')) || 1 } : null;

function sendPendingPlayItem(link) {
  if (!pendingPlayItem || !link.isOpen) return;
  link.send(MessageType.playItem, pendingPlayItem);
  pendingPlayItem = null;
}

function receive(type, body) {
  state.reconnectDelay = 200;  // the link works: the next reconnection starts quickly again
  if (type === MessageType.nowPlaying) {
    state.snapshot = body?.session ?? null;
    state.receivedAt = performance.now();
    render();
    const s = state.snapshot;
    if (handoffRate && s && s.assetID === handoff.get('asset') && s.id !== handoff.get('from') && s.permissions?.canChangeRate) {
      if (Math.abs((s.selectedSpeed?.rate ?? s.rate) - handoffRate) > 0.001 && s.speeds?.some((speed) => speed.rate === handoffRate)) {
        sendIntent('select-speed', { rate: handoffRate });
      }
      handoffRate = null;
    }
  } else if (type === MessageType.intentResult) {
    if (body?.type === 'refused') setStatus(body.message ?? t('rm_refusedIntent', { reason: body.reason }), true);
    else if (body?.type === 'error') setStatus(body.message ?? '', true);
    else setStatus(t('rm_connected'));
  }
}

function sendIntent(intent, fields = {}) {
  if (!state.link?.isOpen) return;
  state.link.send(MessageType.intent, { v: 1, type: 'intent', id: state.nextIntent++, intent, ...fields });
}

/** Where the TV is now: the last snapshot's time, advanced while it plays. */
function currentTime() {
  return remoteTime(state.snapshot, (performance.now() - state.receivedAt) / 1000);
}

function render() {
  const s = state.snapshot;
  const view = controlsView(s);
  ui.title.textContent = view.title;
  ui.subtitle.textContent = view.subtitle;
  ui.playPause.textContent = view.playing ? '❚❚' : '▶';
  ui.playPause.setAttribute('aria-label', view.playLabel);
  ui.playPause.classList.toggle('play', !view.playing);
  ui.playPause.disabled = !view.canPlayPause;
  ui.back.textContent = `−${view.interval}`;
  ui.forward.textContent = `+${view.interval}`;
  ui.back.setAttribute('aria-label', t('rm_skipBack', { seconds: view.interval }));
  ui.forward.setAttribute('aria-label', t('rm_skipForward', { seconds: view.interval }));
  ui.back.disabled = ui.forward.disabled = ui.seek.disabled = !view.canSeek;
  ui.duration.textContent = formatTime(view.duration);
  ui.seek.max = String(s?.duration ?? 1);
  ui.speedRow.hidden = !view.showSpeeds;
  const options = view.speeds.map((speed) => `${speed.rate}:${speed.localizedNumericName}`).join('|');
  if (ui.speed.dataset.options !== options) {
    ui.speed.replaceChildren(...view.speeds.map((speed) => new Option(speed.localizedNumericName, String(speed.rate))));
    ui.speed.dataset.options = options;
  }
  if (s && document.activeElement !== ui.speed) ui.speed.value = view.speed;
  renderVolume(s);
  renderUpNext();
  renderPicker(ui.audioRow, ui.audio, s?.audio ?? [], s?.selectedAudio ?? '', null, 2);
  renderPicker(ui.subtitlesRow, ui.subtitles, s?.subtitles ?? [], s?.selectedSubtitles ?? '', t('rm_subtitlesOff'), 1);
  tick();
}

// Drawn, not emoji: a phone without an emoji font would show boxes.
const SPEAKER = '<path d="M3 9h4l5-4v14l-5-4H3z" fill="currentColor"/>';
const SPEAKER_ON = `<svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">${SPEAKER}<path d="M15.5 8.5a5 5 0 0 1 0 7M18 6a8.5 8.5 0 0 1 0 12" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>`;
const SPEAKER_OFF = `<svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">${SPEAKER}<path d="M16 9l5 6M21 9l-5 6" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>`;

/** The TV page's volume, as the session knows it; hidden for a TV that does not report one. */
function renderVolume(s) {
  const view = volumeView(s);
  ui.volumeRow.hidden = view.hidden;
  if (view.hidden) return;
  if (!state.adjustingVolume) ui.volume.value = String(view.level);
  ui.volumeLevel.textContent = view.percent;
  if (ui.mute.dataset.icon !== String(view.silent)) {
    ui.mute.innerHTML = view.silent ? SPEAKER_OFF : SPEAKER_ON;
    ui.mute.dataset.icon = String(view.silent);
  }
  ui.mute.setAttribute('aria-pressed', String(view.muted));
  ui.mute.setAttribute('aria-label', view.muted ? t('rm_unmute') : t('rm_mute'));
  ui.volumeRow.dataset.muted = String(view.muted);
  ui.volumeRow.dataset.volume = String(view.volume);
}

/** The TV's Up Next offer, its countdown moving on between snapshots; its buttons send the choice. */
function renderUpNext() {
  const view = upNextView(state.snapshot, (performance.now() - state.receivedAt) / 1000);
  ui.upNext.hidden = view.hidden;
  if (view.hidden) return;
  ui.upNextText.textContent = view.text;
  ui.upNextPlay.textContent = t('rm_playNext');
  ui.upNextCancel.textContent = t('rm_cancelNext');
  ui.upNextPlay.disabled = !view.canPlay;
}

/** An audio or subtitle menu listing what the TV's item offers, the session's choice selected. */
function renderPicker(row, select, options, selected, offLabel, minimum) {
  row.hidden = options.length < minimum;
  if (row.hidden) return;
  const entries = pickerEntries(options, offLabel);
  const key = entries.map(([id, name]) => `${id}:${name}`).join('|');
  if (select.dataset.options !== key) {
    select.replaceChildren(...entries.map(([id, name]) => new Option(name, id)));
    select.dataset.options = key;
  }
  if (document.activeElement !== select) select.value = selected;
}

function tick() {
  if (!state.seeking) {
    const time = currentTime();
    ui.position.textContent = formatTime(time);
    ui.seek.value = String(time);
  }
  renderUpNext();
}

setInterval(tick, 250);
ui.upNextPlay.addEventListener('click', () => sendIntent('up-next', { choice: 'play' }));
ui.upNextCancel.addEventListener('click', () => sendIntent('up-next', { choice: 'dismiss' }));

ui.playPause.addEventListener('click', () => sendIntent('toggle-play-pause'));
ui.back.addEventListener('click', () => sendIntent('skip-interval', { direction: -1 }));
ui.forward.addEventListener('click', () => sendIntent('skip-interval', { direction: 1 }));
ui.seek.addEventListener('input', () => {
  state.seeking = true;
  ui.position.textContent = formatTime(Number(ui.seek.value));
});
ui.seek.addEventListener('change', () => {
  state.seeking = false;
  sendIntent('seek', { time: Number(ui.seek.value) });
});
ui.speed.addEventListener('change', () => sendIntent('select-speed', { rate: Number(ui.speed.value) }));
ui.audio.addEventListener('change', () => sendIntent('select-audio', { rendition: ui.audio.value }));
ui.subtitles.addEventListener('change', () => sendIntent('select-subtitles', { rendition: ui.subtitles.value || null }));
ui.mute.addEventListener('click', () => sendIntent('set-muted', { muted: !(state.snapshot?.muted ?? false) }));
ui.volume.addEventListener('input', () => {
  state.adjustingVolume = true;
  ui.volumeLevel.textContent = `${Math.round(Number(ui.volume.value) * 100)}%`;
});
ui.volume.addEventListener('change', () => {
  state.adjustingVolume = false;
  sendIntent('set-volume', { volume: Number(ui.volume.value) });
});
$('pair').addEventListener('click', () => connect('pair'));
ui.retry.addEventListener('click', () => connect('pair'));
window.addEventListener('pagehide', () => { state.wantConnected = false; state.link?.close(); });

localize();
if (!(await linkCryptoAvailable())) {
  show(null);
  setStatus(t('rm_insecure'), true);
} else if (pairedHere()) {
  connect('connect');
} else {
  show(ui.pairPanel);
  if (handoff.get('pair') === '1') connect('pair');
}
