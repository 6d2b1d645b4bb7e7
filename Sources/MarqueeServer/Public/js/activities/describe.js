// What each kind of activity shows, as plain fields the presentations lay out: the built-in
// types (Downloading, NowPlaying, Ingest, Premiere) and any custom type, whose state's first
// fields are shown as they are.
import { t, formatTime } from '../i18n.js';

export function formatBytes(bytes) {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 MB';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes, unit = 0;
  while (value >= 1000 && unit < units.length - 1) { value /= 1000; unit += 1; }
  return `${value >= 100 || unit === 0 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}

/** Seconds since the epoch for a date the API sends (ISO 8601 or a number of seconds). */
export function epoch(value) {
  if (value == null) return null;
  if (typeof value === 'number') return value;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms / 1000 : null;
}

/**
 * The fields of one activity at `now` (seconds): `icon`, `tint`, `title`, `subtitle`,
 * `value` (the short number or time for compact and minimal), `percent` (0–100 or null),
 * `progress` (0–1 or null) and `detail`.
 */
export function describe(snapshot, now) {
  const { activity } = snapshot;
  const state = activity.content?.state ?? {};
  const attributes = activity.attributes ?? {};
  switch (activity.type) {
    case 'Downloading': {
      const percent = Math.max(0, Math.min(100, Math.floor(state.percent ?? 0)));
      const phase = state.phase ?? 'downloading';
      const sizes = state.expectedBytes ? t('ofSize', { done: formatBytes(state.bytesWritten), total: formatBytes(state.expectedBytes) })
        : formatBytes(state.bytesWritten);
      const eta = phase === 'downloading' && Number.isFinite(state.secondsRemaining) ? t('left', { t: formatTime(state.secondsRemaining) }) : '';
      return {
        icon: phase === 'failed' ? '⚠︎' : phase === 'paused' || phase === 'pausing' ? '⏸' : '↓', tint: phase === 'failed' ? '#ff453a' : '#0a84ff',
        title: attributes.title ?? t('downloading'), subtitle: phase === 'failed' ? (state.message || t('failed')) : t(phase),
        value: `${percent}%`, percent, progress: percent / 100, detail: [sizes, eta].filter(Boolean).join(' · '), phase,
      };
    }
    case 'NowPlaying': {
      const moving = !state.paused && activity.phase !== 'ended' && snapshot.state !== 'stale';
      const since = moving ? Math.max(0, now - (epoch(state.positionDate) ?? now)) * (state.rate ?? 1) : 0;
      const duration = state.duration ?? null;
      const position = Math.min(duration ?? Infinity, (state.position ?? 0) + since);
      if (state.upNextTitle && activity.phase !== 'ended') {
        const left = state.upNextDate == null ? null : Math.max(0, Math.ceil((epoch(state.upNextDate) ?? now) - now));
        return {
          icon: '⏭', tint: '#ff375f', title: attributes.title ?? t('nowPlaying'), subtitle: t('upNextTitle', { title: state.upNextTitle }),
          value: left == null ? '' : t('upNextIn', { s: left }), percent: null, progress: null, detail: state.upNextTitle, artwork: attributes.artworkURL,
        };
      }
      const together = state.watching ? t('watchingTogether', { n: state.watching }) : null;
      return {
        icon: state.paused ? '⏸' : '▶︎', tint: '#ff375f', title: attributes.title ?? t('nowPlaying'),
        subtitle: together ?? (state.paused ? t('pausedPlayback') : (attributes.subtitle || t('nowPlaying'))),
        value: duration ? t('remaining', { t: formatTime(duration - position) }) : formatTime(position),
        percent: null, progress: duration ? position / duration : null,
        detail: duration ? `${formatTime(position)} / ${formatTime(duration)}` : formatTime(position), artwork: attributes.artworkURL,
      };
    }
    case 'Ingest': {
      const percent = Math.max(0, Math.min(100, Math.floor(state.percent ?? 0)));
      return {
        icon: '⇪', tint: '#30d158', title: state.currentTitle ?? t('ingest'), subtitle: t('ingestCount', { n: state.count ?? 0 }),
        value: `${percent}%`, percent, progress: percent / 100, detail: t('ingest'),
      };
    }
    case 'Premiere': {
      const startsAt = epoch(state.startsAt) ?? now;
      const playing = state.phase === 'playing';
      return {
        icon: '★', tint: '#ffd60a', title: attributes.title ?? t('premiere'), subtitle: playing ? t('premiereNow') : t('startsIn'),
        value: playing ? '▶︎' : formatTime(Math.max(0, startsAt - now)), percent: null, progress: null,
        detail: new Date(startsAt * 1000).toLocaleString(), artwork: attributes.artworkURL,
      };
    }
    default: {
      const entries = Object.entries(state).filter(([, v]) => v === null || typeof v !== 'object').slice(0, 3);
      const first = entries[0];
      const numeric = entries.find(([, v]) => typeof v === 'number');
      return {
        icon: '●', tint: '#bf5af2', title: attributes.title ?? attributes.name ?? activity.type, subtitle: activity.type,
        value: numeric ? String(numeric[1]) : first ? String(first[1]).slice(0, 6) : '', percent: null, progress: null,
        detail: entries.map(([k, v]) => `${k}: ${v}`).join(' · '),
      };
    }
  }
}
