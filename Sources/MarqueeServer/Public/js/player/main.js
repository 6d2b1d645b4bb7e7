// The player page: a renderer for a Swift PlaybackSession. It creates a session, plays the
// asset's JSON manifest through MSE, reports what the media element does, turns gestures and
// keys into intents, and carries out the commands the session answers with.
import { setLanguage, t, formatTime } from '../i18n.js';
import { RendererSocket } from './renderer-socket.js';
import { MSELoader } from './mse-loader.js';
import { Timeline } from './timeline.js';
import { ScrubGesture } from './scrub-gesture.js';
import { Menu } from './menu.js';
import { InfoPanel } from './info-panel.js';
import { installKeyboard } from './keyboard.js';
import { installGamepad } from './gamepad.js';
import { installMediaSession } from './media-session.js';
import { ControlsVisibility } from './controls-visibility.js';
import { InterstitialPlayer } from './interstitial-player.js';

const $ = (id) => document.getElementById(id);
const player = $('player');
const video = $('video');
const params = new URLSearchParams(location.search);
const assetID = decodeURIComponent(location.pathname.split('/').filter(Boolean).pop() ?? '');

let session = null;     // the latest state snapshot from Swift
let manifest = null;
let socket = null;
let engine = null;
let scrubbing = false;
let pendingSeek = null; // a seek asked for and not yet carried out
let mediaSession = { update() {} };
const subtitleTracks = new Map();

const visibility = new ControlsVisibility(player, {
  isPlaying: () => Boolean(session?.desiresPlayback),
  isBusy: () => scrubbing || menus.some((m) => m.isOpen) || info.isOpen || !$('help').hidden,
});

// MARK: Intents

function intent(name, fields = {}) {
  if (!socket) return;
  socket.intent(name, fields);
}

const actions = {
  togglePlay: () => intent('toggle-play-pause'),
  play: () => intent('play'),
  pause: () => intent('pause'),
  skip: (seconds) => {
    if (session?.activeInterstitial) return intent('skip', { seconds });
    const target = clamp(displayedTime() + seconds);
    pendingSeek = target;
    showTime(target);
    intent('skip', { seconds });
  },
  seek: (time) => { pendingSeek = clamp(time); showTime(pendingSeek); intent('seek', { time }); },
  jump: (fraction) => { pendingSeek = clamp(fraction * duration()); showTime(pendingSeek); intent('seek-to-fraction', { fraction }); },
  speed: (step) => intent('step-speed', { step }),
  captions: () => intent('toggle-captions'),
  volume: (delta) => {
    video.muted = false;
    video.volume = Math.min(1, Math.max(0, Math.round((video.volume + delta) * 10) / 10));
    toast(`${Math.round(video.volume * 100)}%`);
  },
  mute: () => { video.muted = !video.muted; },
  fullscreen: () => toggleFullscreen(),
  info: () => info.toggle(),
  help: () => toggleHelp(),
  escape: () => {
    if (!$('help').hidden) { toggleHelp(); return true; }
    if (info.isOpen) { info.close(); return true; }
    return false;
  },
  activity: () => visibility.activity(),
};

// MARK: Time display

const duration = () => session?.duration ?? manifest?.duration ?? 0;
const clamp = (time) => Math.min(Math.max(time, 0), duration());
const displayedTime = () => pendingSeek ?? video.currentTime;

function showTime(time) {
  timeline.show(time);
  $('elapsed').textContent = formatTime(time);
  $('remaining').textContent = `-${formatTime(Math.max(0, duration() - time))}`;
}

const scrubber = {
  begin() {
    scrubbing = true;
    player.classList.add('scrubbing');
    visibility.show();
    $('scrub-preview').hidden = false;
  },
  move(time, clientX) {
    showTime(time);
    positionPreview(time, clientX);
  },
  end(time) {
    scrubbing = false;
    player.classList.remove('scrubbing');
    $('scrub-preview').hidden = true;
    actions.seek(time);
    visibility.activity();
  },
  key(event) {
    if (event.key === 'Home') { actions.seek(0); event.preventDefault(); }
    if (event.key === 'End') { actions.seek(duration()); event.preventDefault(); }
  },
};

function positionPreview(time, clientX) {
  const preview = $('scrub-preview');
  const rect = $('timeline').getBoundingClientRect();
  const x = clientX ?? rect.left + (duration() ? (time / duration()) * rect.width : 0);
  const half = 90;
  preview.style.left = `${Math.min(Math.max(x, half), innerWidth - half)}px`;
  preview.querySelector('.scrub-time').textContent = formatTime(time);
  const thumb = preview.querySelector('.thumbnail');
  const trick = manifest?.trickPlay;
  if (trick && manifest.trickPlayURL) {
    const index = Math.min(trick.count - 1, Math.floor(time / trick.interval));
    thumb.style.width = `${trick.tileWidth}px`;
    thumb.style.height = `${trick.tileHeight}px`;
    thumb.style.backgroundImage = `url("${manifest.trickPlayURL}")`;
    thumb.style.backgroundPosition = `-${(index % trick.columns) * trick.tileWidth}px -${Math.floor(index / trick.columns) * trick.tileHeight}px`;
    thumb.dataset.tile = String(index);
  }
}

const timeline = new Timeline($('timeline'), scrubber);

const gesture = new ScrubGesture($('gesture-surface'), {
  scrubber,
  duration,
  currentTime: () => displayedTime(),
  onTap: (event) => tap(event),
  onPinch: (scale) => setGravity(scale > 1 ? 'fill' : 'fit'),
});

function tap(event) {
  const rect = player.getBoundingClientRect();
  const inCentre = Math.abs(event.clientX - (rect.left + rect.width / 2)) < rect.width / 6 &&
    Math.abs(event.clientY - (rect.top + rect.height / 2)) < rect.height / 6;
  if (inCentre) {
    actions.togglePlay();
    return;
  }
  if (visibility.visible) visibility.hide(); else visibility.activity();
}

function setGravity(gravity) {
  player.dataset.gravity = gravity;
  toast(t(gravity));
}

player.addEventListener('wheel', (event) => {
  if (!event.ctrlKey) return;
  event.preventDefault();
  if (Math.abs(event.deltaY) < 2) return;
  setGravity(event.deltaY < 0 ? 'fill' : 'fit');
}, { passive: false });

// MARK: Menus and panels

const menus = [];
const overflow = new Menu($('menus'), $('overflow-button'), 'overflow-menu');
const renditions = new Menu($('menus'), $('renditions-button'), 'renditions-menu');
menus.push(overflow, renditions);

overflow.setBuilder(() => {
  const sections = [];
  if (session?.speeds?.length) {
    sections.push({
      key: 'speed', title: t('playbackSpeed'),
      items: session.speeds.map((speed) => ({
        label: speed.localizedNumericName, ariaLabel: speed.localizedName, value: speed.rate,
        checked: speed.rate === session.selectedSpeed?.rate,
        onSelect: () => intent('select-speed', { rate: speed.rate }),
      })),
    });
  }
  sections.push({ key: 'more', items: [{ label: t('keyboardShortcuts'), detail: '?', onSelect: () => toggleHelp() }] });
  return sections;
});

renditions.setBuilder(() => {
  const sections = [];
  if (session?.audio?.length) {
    sections.push({
      key: 'audio', title: t('audio'),
      items: session.audio.map((option) => ({
        label: option.name, value: option.id, checked: option.id === session.selectedAudio,
        onSelect: () => intent('select-audio', { rendition: option.id }),
      })),
    });
  }
  if (session?.subtitles?.length) {
    sections.push({
      key: 'subtitles', title: t('subtitles'),
      items: [{ label: t('off'), value: '', checked: session.selectedSubtitles == null, onSelect: () => intent('select-subtitles', { rendition: null }) },
        ...session.subtitles.map((option) => ({
          label: option.name, value: option.id, checked: option.id === session.selectedSubtitles,
          onSelect: () => intent('select-subtitles', { rendition: option.id }),
        }))],
    });
  }
  return sections;
});

const info = new InfoPanel($('info-panel'), $('info-button'), { open: () => t('moreInfo'), close: () => t('closeInfo') });

function toggleHelp() {
  const help = $('help');
  help.hidden = !help.hidden;
  if (!help.hidden) {
    const rows = [
      ['Space / K', t('helpPlayPause')], ['J / L  ← / →', t('helpSkip')], ['↑ / ↓', t('helpVolume')], ['M', t('helpMute')],
      ['F', t('helpFullscreen')], ['C', t('helpCaptions')], ['I', t('helpInfo')], ['< / >', t('helpSpeed')],
      ['0 – 9', t('helpJump')], ['?', t('helpHelp')],
    ];
    $('help-keys').replaceChildren(...rows.flatMap(([keys, what]) => {
      const dt = document.createElement('dt');
      dt.innerHTML = keys.split('  ').map((k) => `<kbd>${k}</kbd>`).join(' ');
      const dd = document.createElement('dd');
      dd.textContent = what;
      return [dt, dd];
    }));
  }
}

function toggleFullscreen() {
  if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
  else player.requestFullscreen?.().catch(() => {});
}

let toastTimer = null;
function toast(text) {
  const element = $('toast');
  element.textContent = text;
  element.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { element.hidden = true; }, 1200);
}

function showError(message) {
  $('error-title').textContent = t('errorTitle');
  $('error-message').textContent = message;
  $('error').hidden = false;
  $('loading').hidden = true;
  player.dataset.state = 'failed';
}

// MARK: Buttons

$('play-pause').addEventListener('click', (e) => { e.stopPropagation(); actions.togglePlay(); });
$('skip-back').addEventListener('click', (e) => { e.stopPropagation(); actions.skip(-10); });
$('skip-forward').addEventListener('click', (e) => { e.stopPropagation(); actions.skip(10); });
$('captions-button').addEventListener('click', (e) => { e.stopPropagation(); actions.captions(); });
$('fullscreen-button').addEventListener('click', (e) => { e.stopPropagation(); toggleFullscreen(); });
$('pip-button').addEventListener('click', async (e) => {
  e.stopPropagation();
  try {
    if (document.pictureInPictureElement) await document.exitPictureInPicture();
    else await video.requestPictureInPicture();
  } catch (error) { toast(String(error.message ?? error)); }
});
document.addEventListener('fullscreenchange', () => {
  $('fullscreen-button').setAttribute('aria-label', document.fullscreenElement ? t('exitFullscreen') : t('fullscreen'));
});

function applyStrings() {
  $('back').setAttribute('aria-label', t('back'));
  $('skip-back').setAttribute('aria-label', t('skipBack'));
  $('skip-forward').setAttribute('aria-label', t('skipForward'));
  $('timeline').setAttribute('aria-label', t('timeline'));
  $('elapsed').setAttribute('aria-label', t('elapsed'));
  $('remaining').setAttribute('aria-label', t('remaining'));
  $('captions-button').setAttribute('aria-label', t('captions'));
  $('renditions-button').setAttribute('aria-label', t('audioAndSubtitles'));
  $('pip-button').setAttribute('aria-label', t('pip'));
  $('fullscreen-button').setAttribute('aria-label', t('fullscreen'));
  $('overflow-button').setAttribute('aria-label', t('more'));
  $('loading').setAttribute('aria-label', t('loading'));
  $('help-title').textContent = t('keyboardShortcuts');
  $('pip-button').hidden = !document.pictureInPictureEnabled;
  info.update();
}

// MARK: Session state and commands

function applyState(state) {
  const wasPlaying = Boolean(session?.desiresPlayback);
  session = state;
  const playing = state.desiresPlayback;
  player.dataset.playing = String(playing);
  player.dataset.status = state.status;
  player.dataset.rate = String(state.rate);
  player.dataset.selectedSpeed = String(state.selectedSpeed?.rate ?? '');
  $('play-pause').setAttribute('aria-label', playing ? t('pause') : t('play'));
  const metadata = state.metadata;
  $('title').textContent = metadata.title;
  $('subtitle').textContent = metadata.subtitle ?? '';
  document.title = metadata.title;
  info.setMetadata(metadata);
  $('captions-button').hidden = !state.subtitles.length;
  $('captions-button').setAttribute('aria-pressed', String(state.selectedSubtitles != null));
  $('renditions-button').hidden = state.audio.length < 2 && !state.subtitles.length;
  const restricted = Boolean(state.activeInterstitial && state.activeInterstitial.restrictions > 1);
  $('skip-back').disabled = restricted;
  $('skip-forward').disabled = restricted;
  $('ad-badge').hidden = !state.activeInterstitial;
  if (state.activeInterstitial) $('ad-badge').textContent = t('ad');
  if (state.duration) timeline.setDuration(state.duration);
  timeline.setMarkers(state.interstitials);
  $('loading').hidden = !(state.status === 'waiting');
  if (state.status === 'failed') showError(state.failureMessage ?? '');
  for (const menu of menus) if (menu.isOpen) menu.render();
  if (!playing) visibility.show(); else if (!wasPlaying) visibility.activity();
  mediaSession.update({ playing, duration: duration(), time: video.currentTime, rate: state.rate });
}

async function carryOut(command) {
  switch (command.command) {
    case 'play': {
      const target = interstitial.isActive ? interstitial.video : video;
      target.defaultPlaybackRate = command.rate;
      target.playbackRate = command.rate;
      try {
        await target.play();
      } catch (error) {
        if (error.name === 'NotAllowedError') intent('pause');
      }
      break;
    }
    case 'pause':
      (interstitial.isActive ? interstitial : video).pause();
      break;
    case 'seek':
      pendingSeek = command.time;
      video.currentTime = command.time;
      break;
    case 'play-interstitial':
      video.pause();
      await interstitial.start(command.interstitial, command.rate);
      break;
    case 'resume-primary':
      interstitial.stop();
      pendingSeek = command.time;
      video.currentTime = command.time;
      if (command.rate > 0) {
        video.defaultPlaybackRate = command.rate;
        video.playbackRate = command.rate;
        video.play().catch(() => {});
      }
      break;
    case 'select-audio':
      engine?.selectAudio(command.rendition);
      break;
    case 'select-subtitles':
      for (const [id, track] of subtitleTracks) track.mode = id === command.rendition ? 'showing' : 'disabled';
      break;
  }
}

const interstitial = new InterstitialPlayer($('interstitial-video'), (report, fields) => socket?.report(report, fields));

// MARK: Media element reports

let lastTimeReport = 0;
function wireReports() {
  video.addEventListener('loadedmetadata', () => socket.report('ready', { duration: manifest.duration || video.duration }));
  video.addEventListener('timeupdate', () => {
    if (!scrubbing && !gesture.isCoasting && pendingSeek === null) showTime(video.currentTime);
    const now = performance.now();
    if (!interstitial.isActive && now - lastTimeReport > 250) {
      lastTimeReport = now;
      socket.report('time', { time: video.currentTime });
    }
    mediaSession.update({ playing: session?.desiresPlayback, duration: duration(), time: video.currentTime, rate: video.playbackRate });
  });
  video.addEventListener('seeked', () => {
    pendingSeek = null;
    if (!scrubbing && !gesture.isCoasting) showTime(video.currentTime);
    socket.report('time', { time: video.currentTime });
  });
  video.addEventListener('waiting', () => { if (!interstitial.isActive) { $('loading').hidden = false; socket.report('stalled'); } });
  video.addEventListener('playing', () => { $('loading').hidden = true; socket.report('playing'); });
  video.addEventListener('canplay', () => { if (session?.status !== 'waiting') $('loading').hidden = true; });
  video.addEventListener('ended', () => { if (!interstitial.isActive) socket.report('ended'); });
  video.addEventListener('error', () => {
    const error = video.error;
    const message = error ? `${['', 'MEDIA_ERR_ABORTED', 'MEDIA_ERR_NETWORK', 'MEDIA_ERR_DECODE', 'MEDIA_ERR_SRC_NOT_SUPPORTED'][error.code] ?? 'MEDIA_ERR'}: ${error.message}` : 'unknown media error';
    // Firefox reports a sound output it cannot open (a machine without an audio device) as a
    // decode error, then plays on, silently: only a decode error after which the media stops
    // fails the session.
    if (error?.code === MediaError.MEDIA_ERR_DECODE && !video.paused) {
      const at = video.currentTime;
      setTimeout(() => {
        if (video.currentTime > at || video.ended) console.warn(`media element: ${message}; playback goes on`);
        else socket.report('failed', { message });
      }, 1000);
      return;
    }
    socket.report('failed', { message });
  });
}

function addSubtitleTracks() {
  for (const subtitles of manifest.subtitles) {
    const element = document.createElement('track');
    element.kind = 'subtitles';
    element.label = subtitles.name;
    if (subtitles.language) element.srclang = subtitles.language;
    element.src = subtitles.urls[0];
    element.id = subtitles.id;
    video.append(element);
    element.track.mode = 'disabled';
    subtitleTracks.set(subtitles.id, element.track);
  }
}

// MARK: Start

async function start() {
  $('loading').hidden = false;
  const body = { assetID, languages: [...navigator.languages] };
  if (params.has('speeds')) body.speeds = params.get('speeds') === '' ? [] : params.get('speeds').split(',').map(Number);
  if (params.has('lang')) body.language = params.get('lang');
  // The session and the manifest are fetched together; the manifest's URL follows from the asset.
  const [response, manifestResponse] = await Promise.all([
    fetch('/api/sessions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    fetch(`/api/assets/${encodeURIComponent(assetID)}/manifest.json`),
  ]);
  const created = await response.json();
  if (!response.ok) {
    setLanguage(params.get('lang') ?? navigator.language?.slice(0, 2));
    throw new Error(created.error?.message ?? response.statusText);
  }
  setLanguage(created.language);
  applyStrings();
  applyState(created);
  manifest = await manifestResponse.json();
  if (!manifestResponse.ok) throw new Error(manifest.error?.message ?? manifestResponse.statusText);
  // Music and podcasts have no picture: show their cover art in its place.
  player.dataset.audioOnly = String(!manifest.video.some((v) => v.width));
  if (player.dataset.audioOnly === 'true' && created.metadata.artworkURL) video.poster = created.metadata.artworkURL;
  timeline.setDuration(manifest.duration);
  showTime(0);

  socket = new RendererSocket(created.id);
  socket.addEventListener('state', (event) => applyState(event.detail.state));
  socket.addEventListener('commands', async (event) => {
    for (const command of event.detail.commands) await carryOut(command);
  });
  socket.addEventListener('refused', () => {
    pendingSeek = null;
    showTime(video.currentTime);
    toast(t('refused'));
  });
  socket.addEventListener('error', (event) => console.warn('renderer protocol:', event.detail.message));
  wireReports();
  const connected = socket.connect(); // frames sent before it opens are queued

  if (MSELoader.supported(manifest)) {
    engine = new MSELoader(video, manifest);
    engine.addEventListener('error', (event) => socket.report('failed', { message: String(event.detail?.message ?? event.detail) }));
    await engine.start();
  } else if (video.canPlayType('application/vnd.apple.mpegurl')) {
    video.src = manifest.hlsURL;
  } else {
    throw new Error('This browser supports neither Media Source Extensions for these codecs nor HLS.');
  }
  if (params.get('autoplay') !== '0') intent('play');
  addSubtitleTracks();
  mediaSession = installMediaSession(created.metadata, actions);
  await connected;
}

installKeyboard(actions);
installGamepad({
  activate: () => (document.activeElement instanceof HTMLButtonElement ? document.activeElement.click() : actions.togglePlay()),
  skip: actions.skip,
  focusStep: (step) => {
    const focusable = [...player.querySelectorAll('button:not([hidden]):not(:disabled), a[href], [role=slider]')]
      .filter((el) => el.offsetParent !== null);
    const index = focusable.indexOf(document.activeElement);
    focusable[(index + step + focusable.length) % focusable.length]?.focus();
  },
  activity: () => visibility.activity(),
});
window.marquee = { get session() { return session; }, get manifest() { return manifest; }, get engine() { return engine; } };
start().catch((error) => showError(String(error.message ?? error)));
