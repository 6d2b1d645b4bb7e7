// What the web remote shows of the TV's session, from its now-playing snapshot alone: the
// title, what the controls may do (the session's permissions), the position moving on while
// it plays, the volume and the rendition pickers. remote.js draws what these return.
import { t } from '../i18n.js';

/** Nothing allowed until a snapshot says. */
const NOTHING_ALLOWED = Object.freeze({ canSeek: false, canChangeRate: false, canPlayPause: false, skipInterval: 10 });

/** Where the TV is `elapsed` seconds after `snapshot` was received: moving on at its rate while it plays. */
export function remoteTime(snapshot, elapsed) {
  if (!snapshot) return 0;
  const since = snapshot.status === 'playing' ? elapsed * (snapshot.rate || 1) : 0;
  return Math.min(snapshot.currentTime + since, snapshot.duration ?? Infinity);
}

/** The controls for `snapshot` (null: nothing playing). */
export function controlsView(snapshot) {
  const s = snapshot;
  const permissions = s?.permissions ?? NOTHING_ALLOWED;
  const speeds = s?.speeds ?? [];
  const playing = s ? s.desiresPlayback : false;
  return {
    title: s ? s.metadata?.title ?? '' : t('rm_nothingPlaying'),
    subtitle: s?.metadata?.subtitle ?? '',
    playing,
    playLabel: playing ? t('rm_pause') : t('rm_play'),
    canPlayPause: Boolean(s) && permissions.canPlayPause,
    canSeek: Boolean(s) && permissions.canSeek,
    interval: Math.round(permissions.skipInterval),
    duration: s?.duration ?? 0,
    speeds,
    showSpeeds: Boolean(s) && permissions.canChangeRate && speeds.length > 0,
    speed: s ? String(s.selectedSpeed?.rate ?? s.rate) : null,
  };
}

/** The TV page's volume as the session knows it; hidden for a TV that does not report one. */
export function volumeView(snapshot) {
  const s = snapshot;
  if (!s || typeof s.volume !== 'number' || s.status === 'failed') return { hidden: true };
  const level = s.muted ? 0 : s.volume;
  return { hidden: false, level, percent: `${Math.round(level * 100)}%`, silent: s.muted || level === 0, muted: s.muted, volume: s.volume };
}

/** A picker's entries ([value, label]): "off" first when it has one, then each rendition by its name. */
export function pickerEntries(options, offLabel) {
  return (offLabel === null ? [] : [['', offLabel]]).concat(options.map((option) => [option.id, option.name || option.language || option.id]));
}

/** The session's Up Next offer, `elapsed` seconds after `snapshot` was received (hidden unless offered). */
export function upNextView(snapshot, elapsed = 0) {
  const offer = snapshot?.upNext;
  if (offer?.state !== 'offered') return { hidden: true };
  const left = offer.secondsLeft == null ? null : Math.max(0, Math.ceil(offer.secondsLeft - elapsed));
  return {
    hidden: false,
    text: left == null ? t('rm_upNext', { title: offer.title }) : t('rm_upNextIn', { title: offer.title, s: left }),
    canPlay: Boolean(offer.ready),
  };
}
