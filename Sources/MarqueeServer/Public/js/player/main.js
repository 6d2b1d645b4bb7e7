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
import { installKeyboard, noteKeyboardFocus } from './keyboard.js';
import { installGamepad } from './gamepad.js';
import { installMediaSession } from './media-session.js';
import { ControlsVisibility } from './controls-visibility.js';
import { InterstitialPlayer } from './interstitial-player.js';
import { ScrubFrames } from './scrub-frames.js';
import { VolumeControl } from './volume-control.js';
import { CuePlacement } from './cue-placement.js';
import { BoundaryHold } from './boundary-hold.js';
import { UpNext, resumeTime } from './up-next.js';
import { INTENT, REPORT, COMMAND } from './renderer-vocabulary.js';
import { LiveText } from './live-text.js';
import { linkNowPlaying } from '../now-playing/player-link.js';
import { InterstitialOverlay, adBadgeText } from './interstitial-overlay.js';
import { InterstitialEditor } from './interstitial-editor.js';
import { nextPresentedFrame } from './interstitial-handoff.js';
import { InterstitialPreloader } from './interstitial-preload.js';
import { VolumeReports } from './volume-report.js';

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
let liveText = null;    // Live Text on the paused frame (live-text.js)
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
  togglePlay: () => intent(INTENT.togglePlayPause),
  play: () => intent(INTENT.play),
  pause: () => intent(INTENT.pause),
  skip: (seconds) => {
    if (session?.activeInterstitial) return intent(INTENT.skip, { seconds });
    const target = clamp(displayedTime() + seconds);
    pendingSeek = target;
    showTime(target);
    intent(INTENT.skip, { seconds });
  },
  /** One skip back (−1) or forward (+1) by the session's interval; the session decides. */
  skipStep: (direction) => {
    const seconds = direction * (session?.permissions?.skipInterval ?? 10);
    if (!session?.activeInterstitial) {
      pendingSeek = clamp(displayedTime() + seconds);
      showTime(pendingSeek);
    }
    intent(INTENT.skipInterval, { direction });
  },
  skipInterstitial: () => intent(INTENT.skipInterstitial),
  seek: (time) => { pendingSeek = clamp(time); showTime(pendingSeek); intent(INTENT.seek, { time }); },
  jump: (fraction) => { pendingSeek = clamp(fraction * duration()); showTime(pendingSeek); intent(INTENT.seekToFraction, { fraction }); },
  speed: (step) => intent(INTENT.stepSpeed, { step }),
  captions: () => intent(INTENT.toggleCaptions),
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

// The picture follows a scrub (keyframes of the playing variant); see scrub-frames.js.
const frames = new ScrubFrames(video, () => (engine?.currentVariant ?? manifest?.video?.[0])?.segments?.map((s) => s.start));
let resumeAfterScrub = false; // playback paused for a scrub goes on once the session's seek lands

function resumeIfScrubPaused() {
  if (!resumeAfterScrub) return;
  resumeAfterScrub = false;
  if (session?.desiresPlayback && !interstitial.isActive) video.play().catch(() => {});
}

function stopScrubbing() {
  scrubbing = false;
  player.classList.remove('scrubbing');
  $('scrub-preview').hidden = true;
}

const scrubber = {
  begin() {
    scrubbing = true;
    liveText?.clear();
    player.classList.add('scrubbing');
    visibility.show();
    $('scrub-preview').hidden = false;
    if (!session?.activeInterstitial) frames.begin();
  },
  move(time, clientX) {
    showTime(time);
    positionPreview(time, clientX);
    frames.show(time);
  },
  end(time) {
    stopScrubbing();
    resumeAfterScrub = frames.finish();
    actions.seek(time);
    if (resumeAfterScrub) setTimeout(resumeIfScrubPaused, 1500); // in case no seek comes back
    visibility.activity();
  },
  /** The scrub was called off (a second finger, a cancelled pointer): nothing moves. */
  cancel() {
    stopScrubbing();
    if (frames.cancel() && session?.desiresPlayback) video.play().catch(() => {});
    showTime(displayedTime());
    visibility.activity();
  },
  /** A click on the timeline without a drag seeks to the point clicked. */
  click(time) {
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
  // The preview and its time label sit above the bar, never over it.
  preview.style.bottom = `${Math.max(0, player.clientHeight - rect.top + 10)}px`;
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
        disabled: session.permissions ? !session.permissions.canChangeRate : false,
        onSelect: () => intent(INTENT.selectSpeed, { rate: speed.rate }),
      })),
    });
  }
  // Keyboard shortcuts are not offered on touch phones (touch and no fine pointer, no hover).
  const touchOnly = matchMedia('(any-pointer: coarse)').matches && !matchMedia('(any-pointer: fine), (any-hover: hover)').matches;
  if (!touchOnly) {
    sections.push({ key: 'more', items: [{ label: t('keyboardShortcuts'), detail: '?', onSelect: () => toggleHelp() }] });
  }
  return sections;
});

renditions.setBuilder(() => {
  const sections = [];
  if (session?.audio?.length) {
    sections.push({
      key: 'audio', title: t('audio'),
      items: session.audio.map((option) => ({
        label: option.name, value: option.id, checked: option.id === session.selectedAudio,
        onSelect: () => intent(INTENT.selectAudio, { rendition: option.id }),
      })),
    });
  }
  if (session?.subtitles?.length) {
    sections.push({
      key: 'subtitles', title: t('subtitles'),
      items: [{ label: t('off'), value: '', checked: session.selectedSubtitles == null, onSelect: () => intent(INTENT.selectSubtitles, { rendition: null }) },
        ...session.subtitles.map((option) => ({
          label: option.name, value: option.id, checked: option.id === session.selectedSubtitles,
          onSelect: () => intent(INTENT.selectSubtitles, { rendition: option.id }),
        }))],
    });
  }
  return sections;
});

const info = new InfoPanel($('info-panel'), $('info-button'), { open: () => t('moreInfo'), close: () => t('closeInfo') });
const volume = new VolumeControl($('mute-button'), $('volume-slider'), [video, $('interstitial-video'), $('interstitial-video-next')],
  { mute: () => t('mute'), volume: () => t('volume') });
const volumeReports = new VolumeReports(video, [$('interstitial-video')], () => socket, () => session);
new CuePlacement(video, player, document.querySelector('.bottom-bar'));

function toggleHelp() {
  const help = $('help');
  help.hidden = !help.hidden;
  if (!help.hidden) {
    const rows = [
      ['Space / K', t('helpPlayPause')], ['J / L  ← / →', t('helpSkip', { s: session?.permissions?.skipInterval ?? 10 })], ['↑ / ↓', t('helpVolume')], ['M', t('helpMute')],
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
function toast(text, milliseconds = 1200) {
  const element = $('toast');
  element.textContent = text;
  element.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { element.hidden = true; }, milliseconds);
}

function showError(message) {
  $('error-title').textContent = t('errorTitle');
  $('error-back').textContent = t('backToLibrary');
  $('error-message').textContent = message;
  $('error').hidden = false;
  $('loading').hidden = true;
  player.dataset.state = 'failed';
}

// MARK: Buttons

$('play-pause').addEventListener('click', (e) => { e.stopPropagation(); actions.togglePlay(); });
$('skip-back').addEventListener('click', (e) => { e.stopPropagation(); actions.skipStep(-1); });
$('skip-forward').addEventListener('click', (e) => { e.stopPropagation(); actions.skipStep(1); });
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
  $('skip-back').setAttribute('aria-label', t('skipBack', { s: session?.permissions?.skipInterval ?? 10 }));
  $('skip-forward').setAttribute('aria-label', t('skipForward', { s: session?.permissions?.skipInterval ?? 10 }));
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
  $('error-back').textContent = t('backToLibrary');
  volume.render();
  $('pip-button').hidden = !document.pictureInPictureEnabled;
  info.update();
}

// MARK: Session state and commands

let lastTimeReport = 0;

function applyState(state) {
  const wasPlaying = Boolean(session?.desiresPlayback);
  session = state;
  const playing = state.desiresPlayback;
  player.dataset.playing = String(playing);
  player.dataset.status = state.status;
  player.dataset.rate = String(state.rate);
  player.dataset.selectedSpeed = String(state.selectedSpeed?.rate ?? '');
  $('play-pause').setAttribute('aria-label', playing ? t('pause') : state.status === 'ended' ? t('replay') : t('play'));
  const metadata = state.metadata;
  $('title').textContent = metadata.title;
  $('subtitle').textContent = metadata.subtitle ?? '';
  document.title = metadata.title;
  info.setMetadata(metadata);
  $('captions-button').hidden = !state.subtitles.length;
  $('captions-button').setAttribute('aria-pressed', String(state.selectedSubtitles != null));
  $('renditions-button').hidden = state.audio.length < 2 && !state.subtitles.length;
  // What the controls may do is the session's to say (permissions), never read from the break's raw restrictions.
  const allowed = state.permissions ?? { canSeek: true, canChangeRate: true, skipInterval: 10 };
  $('skip-back').disabled = !allowed.canSeek;
  $('skip-forward').disabled = !allowed.canSeek;
  $('skip-back').setAttribute('aria-label', t('skipBack', { s: allowed.skipInterval }));
  $('skip-forward').setAttribute('aria-label', t('skipForward', { s: allowed.skipInterval }));
  player.dataset.canSeek = String(allowed.canSeek);
  $('ad-badge').hidden = !state.activeInterstitial;
  player.dataset.interstitial = String(Boolean(state.activeInterstitial));
  adOverlay.update(state);
  if (state.activeInterstitial) {
    showAdTime();
  } else {
    if (state.duration) timeline.setDuration(state.duration);
    timeline.setMarkers(state.interstitials);
  }
  hold.set(state.activeInterstitial ? null : state.boundary);
  preloader.update(state);
  $('loading').hidden = !(state.status === 'waiting');
  if (state.status === 'failed') showError(state.failureMessage ?? '');
  for (const menu of menus) if (menu.isOpen) menu.render();
  if (!playing) visibility.show(); else if (!wasPlaying) visibility.activity();
  mediaSession.update({ playing, duration: duration(), time: video.currentTime, rate: state.rate });
  upNext.update(state);
  volumeReports.sync();
}

const upNext = new UpNext(player, assetID);

async function carryOut(command) {
  switch (command.command) {
    case COMMAND.play: {
      const target = interstitial.isActive ? interstitial.video : video;
      target.defaultPlaybackRate = command.rate;
      target.playbackRate = command.rate;
      try {
        await target.play();
      } catch (error) {
        // The browser's autoplay policy: the session pauses and the page waits for a press.
        if (error.name === 'NotAllowedError') socket?.report(REPORT.autoplayBlocked);
      }
      break;
    }
    case COMMAND.pause:
      (interstitial.isActive ? interstitial : video).pause();
      break;
    case COMMAND.seek:
      pendingSeek = command.time;
      video.currentTime = command.time;
      resumeIfScrubPaused();
      break;
    case COMMAND.playInterstitial: {
      video.pause();
      // Picture in picture follows the break: the window shows the ad, not a frozen frame.
      const inPictureInPicture = document.pictureInPictureElement === video;
      await interstitial.start(command.interstitial, command.rate);
      if (inPictureInPicture) interstitial.takePictureInPicture();
      break;
    }
    case COMMAND.playInterstitialAsset:
      // The next asset of the playing event's asset list (picture in picture follows inside the player).
      await interstitial.start(command.interstitial, command.rate, command.asset);
      break;
    case COMMAND.resumePrimary:
      if (document.pictureInPictureElement === interstitial.video) {
        await video.requestPictureInPicture().catch((error) => console.warn('picture in picture:', error.message));
      }
      // A break that began where the primary was held resumes on that very frame: no seek,
      // so nothing plays twice.
      if (Math.abs(video.currentTime - command.time) > 0.001) {
        pendingSeek = command.time;
        video.currentTime = command.time;
      }
      if (command.rate > 0) {
        video.defaultPlaybackRate = command.rate;
        video.playbackRate = command.rate;
        video.play().catch(() => {});
        // The break stays on screen (and audible) until the primary presents its first frame again;
        // an ad that played to its end has nothing more to show, and a primary paused on the
        // frame it resumes on (moved there during the break) shows it at once.
        const shownAlready = interstitial.video.ended && !video.seeking && pendingSeek === null && video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA;
        if (!shownAlready) await nextPresentedFrame(video);
      }
      interstitial.stop();
      timeline.setDuration(duration());
      timeline.setMarkers(session?.interstitials ?? []);
      showTime(pendingSeek ?? video.currentTime);
      break;
    case COMMAND.selectAudio:
      engine?.selectAudio(command.rendition);
      break;
    case COMMAND.selectSubtitles:
      for (const [id, track] of subtitleTracks) track.mode = id === command.rendition ? 'showing' : 'disabled';
      break;
    case COMMAND.setVolume:
      volumeReports.apply(command);
      break;
  }
}

const interstitial = new InterstitialPlayer($('interstitial-video'), (report, fields) => socket?.report(report, fields), () => session?.id, $('interstitial-video-next'));
const adOverlay = new InterstitialOverlay(player, () => intent(INTENT.skipInterstitial));
const preloader = new InterstitialPreloader(video, interstitial, duration);
new InterstitialEditor(player, { assetID, currentTime: () => video.currentTime, toast: (text) => toast(text, 2500) });
for (const ad of interstitial.elements) {
  ad.addEventListener('timeupdate', () => { if (interstitial.isActive && ad === interstitial.video) showAdTime(); });
  ad.addEventListener('durationchange', () => { if (interstitial.isActive && ad === interstitial.video) showAdTime(); });
}

/** During a break the clock is the ad's: its time, what is left, and a countdown badge. */
function showAdTime() {
  const ad = interstitial.video;
  const total = Number.isFinite(ad.duration) && ad.duration > 0 ? ad.duration : session?.activeInterstitial?.duration ?? 0;
  const time = interstitial.isActive ? Math.min(ad.currentTime, total || ad.currentTime) : 0;
  const left = Math.max(0, total - time);
  timeline.setMarkers([]);
  timeline.setDuration(total);
  timeline.show(time);
  $('elapsed').textContent = formatTime(time);
  $('remaining').textContent = `-${formatTime(Math.ceil(left))}`;
  $('ad-badge').textContent = adBadgeText(session, left);
}

const hold = new BoundaryHold(video, (time) => {
  lastTimeReport = performance.now();
  socket?.report(REPORT.time, { time, ...PRIMARY });
});

// MARK: Media element reports

/** Names the primary as what a report is about, so the session drops one that crossed a
 * command starting a break (it would otherwise be read as the ad's clock). */
const PRIMARY = Object.freeze({ item: 'primary' });

function wireReports() {
  video.addEventListener('loadedmetadata', () => socket.report(REPORT.ready, { duration: manifest.duration || video.duration }));
  video.addEventListener('timeupdate', () => {
    if (!scrubbing && !gesture.isCoasting && pendingSeek === null) showTime(video.currentTime);
    const now = performance.now();
    if (!interstitial.isActive && !frames.isActive && now - lastTimeReport > 250) {
      lastTimeReport = now;
      socket.report(REPORT.time, { time: video.currentTime, ...PRIMARY });
    }
    mediaSession.update({ playing: session?.desiresPlayback, duration: duration(), time: video.currentTime, rate: video.playbackRate });
  });
  video.addEventListener('seeked', () => {
    if (preloader.consumeSeeked()) return; // the paused primary moved to where it resumes after the break
    if (frames.isActive) return; // a frame shown while scrubbing, not a seek of the session's
    pendingSeek = null;
    if (!scrubbing && !gesture.isCoasting) showTime(video.currentTime);
    socket.report(REPORT.time, { time: video.currentTime, ...PRIMARY });
  });
  video.addEventListener('waiting', () => { if (!interstitial.isActive && !frames.isActive) { $('loading').hidden = false; socket.report(REPORT.stalled, PRIMARY); } });
  video.addEventListener('playing', () => { $('loading').hidden = true; socket.report(REPORT.playing, PRIMARY); });
  video.addEventListener('canplay', () => { if (session?.status !== 'waiting') $('loading').hidden = true; });
  video.addEventListener('ended', () => { if (!interstitial.isActive) socket.report(REPORT.ended, PRIMARY); });
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
        else socket.report(REPORT.failed, { message });
      }, 1000);
      return;
    }
    socket.report(REPORT.failed, { message });
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
  const resuming = resumeTime(assetID, params); // asked before this page reports any time
  const body = { assetID, languages: [...navigator.languages] };
  // The session reads the address's speed list and says what it ignored (see `warnings`).
  if (params.has('speeds')) body.speedList = params.get('speeds');
  if (params.has('lang')) body.language = params.get('lang');
  if (params.has('allowsVideoFrameAnalysis')) body.allowsVideoFrameAnalysis = params.get('allowsVideoFrameAnalysis') !== 'false';
  // The session and the manifest are fetched together; the manifest's URL follows from the asset.
  const [response, manifestResponse] = await Promise.all([
    fetch('/api/sessions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    fetch(`/api/assets/${encodeURIComponent(assetID)}/manifest.json`),
  ]);
  const created = await response.json();
  if (!response.ok) {
    setLanguage(params.get('lang') ?? navigator.language?.slice(0, 2));
    applyStrings();
    throw new Error(created.error?.message ?? response.statusText);
  }
  setLanguage(created.language);
  applyStrings();
  applyState(created);
  for (const warning of created.warnings ?? []) {
    console.warn(warning);
    toast(warning, 6000);
  }
  manifest = await manifestResponse.json();
  if (!manifestResponse.ok) throw new Error(manifest.error?.message ?? manifestResponse.statusText);
  // Music and podcasts have no picture: show their cover art in its place.
  player.dataset.audioOnly = String(!manifest.video.some((v) => v.width));
  if (player.dataset.audioOnly === 'true' && created.metadata.artworkURL) video.poster = created.metadata.artworkURL;
  timeline.setDuration(manifest.duration);
  showTime(0);

  socket = new RendererSocket(created.id);
  socket.addEventListener('state', (event) => applyState(event.detail.state));
  // A break's will-present and did-finish, for anything on the page that follows breaks.
  socket.addEventListener('interstitial', (event) => window.dispatchEvent(new CustomEvent('marquee:interstitial', { detail: event.detail.notification })));
  socket.addEventListener('commands', async (event) => {
    for (const command of event.detail.commands) await carryOut(command);
  });
  socket.addEventListener('refused', () => {
    resumeIfScrubPaused();
    pendingSeek = null;
    showTime(video.currentTime);
    toast(t('refused'));
  });
  socket.addEventListener('error', (event) => console.warn('renderer protocol:', event.detail.message));
  wireReports();
  const delay = Number.parseFloat(params.get('frameAnalysisDelay'));
  liveText = new LiveText(player, video, {
    assetID, sessionID: created.id, delay: Number.isFinite(delay) && delay >= 0 ? delay : undefined,
    allowed: () => session?.allowsVideoFrameAnalysis !== false && !session?.activeInterstitial,
    busy: () => scrubbing || gesture.isCoasting || frames.isActive || pendingSeek !== null || interstitial.isActive,
  });
  const connected = socket.connect(); // frames sent before it opens are queued
  // The Now playing island (issue 15): this session is this browser's; another tab may take it over.
  linkNowPlaying({ sessionID: created.id, video, release: () => { socket.close(); video.pause(); toast(t('islandContinued'), 6000); } });

  if (MSELoader.supported(manifest)) {
    engine = new MSELoader(video, manifest);
    engine.addEventListener('error', (event) => socket.report(REPORT.failed, { message: String(event.detail?.message ?? event.detail) }));
    await engine.start();
  } else if (video.canPlayType('application/vnd.apple.mpegurl')) {
    video.src = manifest.hlsURL;
  } else {
    throw new Error('This browser supports neither Media Source Extensions for these codecs nor HLS.');
  }
  // `?t=` (a search hit) opens at that moment; `?resume=1` where the viewer stopped.
  const startAt = Number.parseFloat(params.get('t'));
  const resumeAt = (await resuming) ?? (Number.isFinite(startAt) && startAt > 0 ? startAt : null);
  if (resumeAt) {
    if (video.readyState < 1) await new Promise((resolve) => video.addEventListener('loadedmetadata', resolve, { once: true }));
    actions.seek(resumeAt); // after the 'ready' report, so the session knows the duration
  }
  // `?rate=` (handed over by "Play on…" from another device) plays at that speed if the session offers it.
  const startRate = Number.parseFloat(params.get('rate'));
  if (Number.isFinite(startRate) && startRate > 0 && startRate !== 1) intent(INTENT.selectSpeed, { rate: startRate });
  if (params.get('autoplay') !== '0') intent(INTENT.play);
  addSubtitleTracks();
  mediaSession = installMediaSession(created.metadata, actions);
  await connected;
}

installKeyboard(actions);
installGamepad({
  activate: () => (document.activeElement instanceof HTMLButtonElement ? document.activeElement.click() : actions.togglePlay()),
  skipStep: actions.skipStep,
  focusStep: (step) => {
    const focusable = [...player.querySelectorAll('button:not([hidden]):not(:disabled), a[href], [role=slider]')]
      .filter((el) => el.offsetParent !== null);
    const index = focusable.indexOf(document.activeElement);
    noteKeyboardFocus();
    focusable[(index + step + focusable.length) % focusable.length]?.focus();
  },
  activity: () => visibility.activity(),
});
window.marquee = { get session() { return session; }, get manifest() { return manifest; }, get engine() { return engine; }, get liveText() { return liveText; } };
start().catch((error) => showError(String(error.message ?? error)));
