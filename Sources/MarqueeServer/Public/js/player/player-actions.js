// What the viewer's gestures, keys, gamepad and media keys ask for. Most become intents to
// the session, which decides; a skip or seek also moves the time shown at once (the seek
// asked for, `hub.pendingSeek`) until the session's seek lands or is refused. Volume, mute,
// full screen and the page's panels are the page's own.
import { INTENT } from './renderer-vocabulary.js';

/**
 * @param {import('./player-events.js').PlayerHub} hub
 * @param {{show: (time: number) => void, toast: (text: string) => void, info: {toggle: Function, close: Function, isOpen: boolean},
 *          chrome: {toggleFullscreen: Function, toggleHelp: Function, helpOpen: boolean}, visibility: {activity: Function}}} parts
 */
export function playerActions(hub, { show, toast, info, chrome, visibility, groupSync = null, stats = null }) {
  const intent = (name, fields) => hub.intent(name, fields);
  const video = hub.media;
  /** Shows `time` as the seek asked for. */
  const aim = (time) => { hub.pendingSeek = time; show(time); };
  return {
    // Watching together with this browser's autoplay refused: the press starts this page
    // (the gesture the browser wants), not a pause for the whole group.
    togglePlay: () => (groupSync?.blocked ? groupSync.unblock() : intent(INTENT.togglePlayPause)),
    play: () => intent(INTENT.play),
    pause: () => intent(INTENT.pause),
    skip: (seconds) => {
      if (hub.session?.activeInterstitial) return intent(INTENT.skip, { seconds });
      aim(hub.clamp(hub.displayedTime() + seconds));
      intent(INTENT.skip, { seconds });
    },
    /** One skip back (−1) or forward (+1) by the session's interval; the session decides. */
    skipStep: (direction) => {
      if (!hub.session?.activeInterstitial) aim(hub.clamp(hub.displayedTime() + direction * hub.skipInterval));
      intent(INTENT.skipInterval, { direction });
    },
    skipInterstitial: () => intent(INTENT.skipInterstitial),
    seek: (time) => { aim(hub.clamp(time)); intent(INTENT.seek, { time }); },
    jump: (fraction) => { aim(hub.clamp(fraction * hub.duration())); intent(INTENT.seekToFraction, { fraction }); },
    speed: (step) => intent(INTENT.stepSpeed, { step }),
    captions: () => intent(INTENT.toggleCaptions),
    volume: (delta) => {
      video.muted = false;
      video.volume = Math.min(1, Math.max(0, Math.round((video.volume + delta) * 10) / 10));
      toast(`${Math.round(video.volume * 100)}%`);
    },
    mute: () => { video.muted = !video.muted; },
    fullscreen: () => chrome.toggleFullscreen(),
    info: () => info.toggle(),
    help: () => chrome.toggleHelp(),
    escape: () => {
      if (chrome.helpOpen) { chrome.toggleHelp(); return true; }
      if (info.isOpen) { info.close(); return true; }
      if (stats?.isOpen) { stats.close(); return true; }
      return false;
    },
    activity: () => visibility.activity(),
  };
}
