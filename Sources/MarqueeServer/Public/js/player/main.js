// The player page: a renderer for a Swift PlaybackSession. It creates a session, plays the
// asset's JSON manifest through MSE, reports what the media element does, turns gestures and
// keys into intents, and carries out the commands the session answers with.
//
// This file only wires the page: it finds the elements, hands each part the ones it draws,
// and lets the parts follow one another through the hub's named events (player-events.js).
import { t } from '../i18n.js';
import { RendererSocket } from './renderer-socket.js';
import { MSELoader } from './mse-loader.js';
import { Timeline } from './timeline.js';
import { ScrubGesture } from './scrub-gesture.js';
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
import { UpNext } from './up-next.js';
import { INTENT, REPORT } from './renderer-vocabulary.js';
import { LiveText } from './live-text.js';
import { linkNowPlaying } from '../now-playing/player-link.js';
import { InterstitialOverlay } from './interstitial-overlay.js';
import { InterstitialEditor } from './interstitial-editor.js';
import { InterstitialPreloader } from './interstitial-preload.js';
import { VolumeReports } from './volume-report.js';
import { PLAYER_EVENT, PlayerHub } from './player-events.js';
import { TimeDisplay } from './time-display.js';
import { ScrubController } from './scrub-controller.js';
import { CommandRunner } from './commands.js';
import { SubtitleTracks } from './subtitle-tracks.js';
import { MediaReports } from './media-reports.js';
import { SessionView } from './session-view.js';
import { PlayerChrome, Toast } from './player-chrome.js';
import { PlayerMenus } from './player-menus.js';
import { StatsPanel } from './stats-panel.js';
import { variantName } from './quality-menu.js';
import { playerActions } from './player-actions.js';
import { earlySession, openSession, pageAssetID } from './session-start.js';
import { GroupSync } from './group-sync.js';
import { TogetherPanel } from './together.js';

const $ = (id) => document.getElementById(id);
const player = $('player');
const video = $('video');
const params = new URLSearchParams(location.search);
const assetID = pageAssetID();

const hub = new PlayerHub(video);

const toast = new Toast($('toast'));
const info = new InfoPanel($('info-panel'), $('info-button'), { open: () => t('moreInfo'), close: () => t('closeInfo') });
const volume = new VolumeControl($('mute-button'), $('volume-slider'), [video, $('interstitial-video'), $('interstitial-video-next')],
  { mute: () => t('mute'), volume: () => t('volume') });
const chrome = new PlayerChrome($, hub, { toast, volume, info });
const stats = new StatsPanel(player, video, () => hub.engine);
// The quality menu holds a variant in this page's loader (the page's own choice: quality-menu.js).
const chooseQuality = (id) => {
  hub.engine?.selectVariant(id);
  const chosen = id === null ? null : hub.engine?.variants?.find((v) => v.id === id);
  toast.show(t('qualityChosen', { q: chosen ? variantName(chosen) : t('qualityAuto') }));
};
const menus = new PlayerMenus({ container: $('menus'), overflowButton: $('overflow-button'), renditionsButton: $('renditions-button') },
  hub, { toggleHelp: () => chrome.toggleHelp(), chooseQuality, toggleStats: () => stats.toggle() });
const visibility = new ControlsVisibility(player, {
  // A page whose browser refused to play in a group keeps its controls up for the press it needs.
  isPlaying: () => Boolean(hub.session?.desiresPlayback) && !groupSync.blocked,
  isBusy: () => hub.scrubbing || menus.anyOpen || info.isOpen || chrome.helpOpen,
});

// The break's player, and the clock under the picture (the primary's, or the ad's during a break).
const interstitial = new InterstitialPlayer($('interstitial-video'), (report, fields) => hub.report(report, fields), () => hub.session?.id, $('interstitial-video-next'));
let liveText = null; // Live Text on the paused frame (live-text.js), once the session exists
let together = null; // Watch together (together.js), once the session exists
const show = (time) => display.show(time);
const actions = playerActions(hub, { show, toast: (text) => toast.show(text), info, chrome, visibility, stats, groupSync: { get blocked() { return groupSync.blocked; }, unblock: () => groupSync.unblock() } });

// Scrubbing: the timeline and the picture's swipe drive one scrubber; the picture follows
// (keyframes of the playing variant, see scrub-frames.js).
const frames = new ScrubFrames(video, () => (hub.engine?.currentVariant ?? hub.manifest?.video?.[0])?.segments?.map((s) => s.start));
const scrubber = new ScrubController({ player, preview: $('scrub-preview'), timeline: $('timeline') }, hub,
  { frames, visibility, isBreakPlaying: () => interstitial.isActive, show, seek: (time) => actions.seek(time) });
const timeline = new Timeline($('timeline'), scrubber);
const display = new TimeDisplay({ timeline, elapsed: $('elapsed'), remaining: $('remaining'), adBadge: $('ad-badge') }, hub, interstitial);
const gesture = new ScrubGesture($('gesture-surface'), {
  scrubber,
  duration: () => hub.duration(),
  currentTime: () => hub.displayedTime(),
  onTap: (event) => chrome.tap(event, actions, visibility),
  onPinch: (scale) => chrome.setGravity(scale > 1 ? 'fill' : 'fit'),
});

const volumeReports = new VolumeReports(video, [$('interstitial-video')], () => hub.socket, () => hub.session);
new CuePlacement(video, player, document.querySelector('.bottom-bar'));
const adOverlay = new InterstitialOverlay(player, () => hub.intent(INTENT.skipInterstitial));
const preloader = new InterstitialPreloader(video, interstitial, () => hub.duration());
const editor = new InterstitialEditor(player, { assetID, currentTime: () => video.currentTime, toast: (text) => toast.show(text, 2500) });
const upNext = new UpNext(player, { intent: (name, fields) => hub.intent(name, fields) });
const subtitles = new SubtitleTracks(video);
const groupSync = new GroupSync(video, {
  probe: (t0) => hub.socket?.probe(t0), isBreakPlaying: () => interstitial.isActive, blocked: () => { hub.report(REPORT.autoplayBlocked); visibility.show(); },
  stalled: () => hub.report(REPORT.stalled, { item: 'primary' }),
});
const commands = new CommandRunner(hub, { interstitial, subtitles, volume: volumeReports, followsGroup: () => groupSync.active });
const reports = new MediaReports(hub, { loading: $('loading') }, {
  interstitial, frames, preloader, show, isMoving: () => hub.scrubbing || gesture.isCoasting,
});
const hold = new BoundaryHold(video, (time) => reports.reportTime(time));
const view = new SessionView({
  player, playPause: $('play-pause'), title: $('title'), subtitle: $('subtitle'), captions: $('captions-button'),
  renditions: $('renditions-button'), skipBack: $('skip-back'), skipForward: $('skip-forward'), adBadge: $('ad-badge'),
  loading: $('loading'), document,
}, hub, { info, showError: (message) => chrome.showError(message) });

// Every snapshot, in the order the parts draw it.
view.registerListeners();
hub.on(PLAYER_EVENT.STATE, ({ state }) => adOverlay.update(state));
display.registerListeners();
hub.on(PLAYER_EVENT.STATE, ({ state }) => {
  hold.set(state.activeInterstitial ? null : state.boundary);
  preloader.update(state);
});
menus.registerListeners();
hub.on(PLAYER_EVENT.STATE, ({ state, previous }) => {
  if (!state.desiresPlayback) visibility.show(); else if (!previous?.desiresPlayback) visibility.activity();
  hub.mediaSession.update({ playing: state.desiresPlayback, duration: hub.duration(), time: video.currentTime, rate: state.rate });
  upNext.update(state);
  volumeReports.sync();
  groupSync.update(state);
  together?.update(state);
});
scrubber.registerListeners();
// The session says why, and for how long ("Ads can be skipped in 3 s"); the page shows it as said.
hub.on(PLAYER_EVENT.REFUSED, ({ message }) => toast.show(message || t('refused'), message ? 2500 : 1200));
chrome.wireButtons(actions);

// MARK: Start

async function start() {
  $('loading').hidden = false;
  const { created, readManifest } = await openSession(assetID, params, {
    asked: earlySession(assetID, params), onLanguage: () => { chrome.applyStrings(); editor.applyStrings(); },
  });
  hub.applyState(created);
  for (const warning of created.warnings ?? []) {
    console.warn(warning);
    toast.show(warning, 6000);
  }
  const manifest = hub.manifest = await readManifest();
  // Music and podcasts have no picture: show their cover art in its place.
  player.dataset.audioOnly = String(!manifest.video.some((v) => v.width));
  if (player.dataset.audioOnly === 'true' && created.metadata.artworkURL) video.poster = created.metadata.artworkURL;
  chrome.renderGravity();
  timeline.setDuration(manifest.duration);
  display.show(0);
  // Media loading starts first: the MediaSource opens and the first segments are fetched while
  // the rest of the page is set up (nothing below waits, so every listener is in place before
  // the element or the loader reports anything).
  let engineStarted = Promise.resolve();
  if (MSELoader.supported(manifest)) {
    hub.engine = new MSELoader(video, manifest);
    engineStarted = hub.engine.start();
  } else if (video.canPlayType('application/vnd.apple.mpegurl')) {
    video.src = manifest.hlsURL;
  } else {
    throw new Error('This browser supports neither Media Source Extensions for these codecs nor HLS.');
  }

  const socket = hub.socket = new RendererSocket(created.id, { participant: created.participantID ?? null });
  together = new TogetherPanel({ button: $('together-button'), panel: $('together-panel'), banner: $('together-banner') }, {
    sessionID: () => created.id, participantID: created.participantID ?? null, toast: (text) => toast.show(text, 3000),
    becameParticipant: (id) => { socket.participant = id; },
  });
  together.applyStrings();
  socket.addEventListener('clock', (event) => groupSync.answered(event.detail));
  socket.addEventListener('state', (event) => hub.applyState(event.detail.state));
  // A break's will-present and did-finish, for anything on the page that follows breaks.
  socket.addEventListener('interstitial', (event) => window.dispatchEvent(new CustomEvent('marquee:interstitial', { detail: event.detail.notification })));
  socket.addEventListener('commands', async (event) => {
    for (const command of event.detail.commands) await commands.carryOut(command);
  });
  socket.addEventListener('refused', (event) => {
    hub.pendingSeek = null;
    hub.trigger(PLAYER_EVENT.REFUSED, { reason: event.detail.reason, message: event.detail.message, availableIn: event.detail.availableIn });
  });
  socket.addEventListener('error', (event) => console.warn('renderer protocol:', event.detail.message));
  socket.addEventListener('gone', (event) => chrome.showError(event.detail.message));
  reports.registerListeners();
  const delay = Number.parseFloat(params.get('frameAnalysisDelay'));
  liveText = new LiveText(player, video, {
    assetID, sessionID: created.id, delay: Number.isFinite(delay) && delay >= 0 ? delay : undefined,
    allowed: () => hub.session?.allowsVideoFrameAnalysis !== false && !hub.session?.activeInterstitial,
    busy: () => hub.scrubbing || gesture.isCoasting || frames.isActive || hub.pendingSeek !== null || interstitial.isActive,
  });
  hub.on(PLAYER_EVENT.SCRUB_STARTED, () => liveText.clear());
  const connected = socket.connect(); // frames sent before it opens are queued
  // Leaving the page (or its going into the back-forward cache) closes the socket, so a group
  // sees this person leave at once; coming back from the cache reconnects.
  addEventListener('pagehide', () => socket.close());
  addEventListener('pageshow', (event) => { if (event.persisted) { socket.closed = false; socket.connect(); } });
  // The Now playing island (issue 15): this session is this browser's; another tab may take it over.
  linkNowPlaying({ sessionID: created.id, video, release: () => { socket.close(); video.pause(); toast.show(t('islandContinued'), 6000); } });

  hub.engine?.addEventListener('error', (event) => socket.report(REPORT.failed, { message: String(event.detail?.message ?? event.detail) }));
  await engineStarted;
  subtitles.add(manifest.subtitles);
  // The browser's now-playing controls once there is a picture: telling it costs the page's
  // thread milliseconds that would otherwise come before the first frame.
  const showInNowPlaying = () => { hub.mediaSession = installMediaSession(created.metadata, actions); };
  if (video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA) showInNowPlaying();
  else video.addEventListener('loadeddata', showInNowPlaying, { once: true });
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
window.marquee = { get session() { return hub.session; }, get manifest() { return hub.manifest; }, get engine() { return hub.engine; }, get liveText() { return liveText; }, get groupSync() { return groupSync; }, get stats() { return stats; } };
start().catch((error) => chrome.showError(String(error.message ?? error)));
