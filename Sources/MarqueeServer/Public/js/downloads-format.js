// What the downloads page writes about a download and a variant, from the server's answers:
// sizes, bit rates, the progress line, the actions offered and where a predicate's error is.
import { t, formatTime } from './i18n.js';

export function formatBytes(bytes) {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 KB';
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) { value /= 1000; unit += 1; }
  return `${value >= 100 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}

export function formatBitRate(bps) {
  if (!bps) return '';
  return bps >= 1e6 ? `${(bps / 1e6).toFixed(bps >= 1e7 ? 0 : 1)} Mb/s` : `${Math.round(bps / 1000)} kb/s`;
}

/** A variant's picture, frame rate and bit rate: "1280×720 · 30 fps · 2.5 Mb/s". */
export function variantSummary(variant, { frameRate = true } = {}) {
  const picture = variant.width ? `${variant.width}×${variant.height}` : t('audioOnly');
  const rate = frameRate && variant.frameRate ? ` · ${Math.round(variant.frameRate * 100) / 100} fps` : '';
  return `${picture}${rate} · ${formatBitRate(variant.averageBitRate ?? variant.peakBitRate)}`;
}

/**
 * "Downloading · 40% · 4 of 10 files · 2.0 MB · 1.0 MB/s · 0:03 left": the percentage is the
 * server's `progress`, files done over files in all, beside that same count; the bytes so far
 * stand alone (their total is an estimate that moves). While pausing, the files in flight
 * finish and the numbers may still move ("Pausing…"); once paused they stand still.
 */
export function progressLine(d) {
  const parts = [t(`state_${d.state}`)];
  if (['downloading', 'pausing', 'paused', 'queued'].includes(d.state) && d.totalFiles) {
    parts.push(`${Math.round(d.progress * 100)}%`);
    parts.push(t('filesOf', { done: d.completedFiles, total: d.totalFiles }));
    parts.push(formatBytes(d.bytesWritten));
    if (d.state === 'downloading' && d.bytesPerSecond > 0) parts.push(t('perSecond', { rate: formatBytes(d.bytesPerSecond) }));
    if (d.state === 'downloading' && d.secondsRemaining != null) parts.push(t('left', { t: formatTime(Math.ceil(d.secondsRemaining)) }));
  } else if (d.state === 'finished' || d.state === 'importing') {
    parts.push(formatBytes(d.bytesWritten));
  }
  return parts.join(' · ');
}

/** The buttons offered for a download in its state, in order. */
export function downloadActions(d) {
  // The server's lifecycle decides (`allowedActions` in every snapshot); the page restates nothing.
  return [...(d.allowedActions ?? [])];
}

/**
 * Where to underline a predicate's error: the character at `column` (1-based, counted in
 * characters) to the end of its word, as [start, end) in `[...text]`.
 */
export function errorSpan(text, column) {
  const chars = [...text];
  const start = Math.min(column - 1, chars.length);
  let end = start + 1;
  while (end < chars.length && /[\w.]/.test(chars[end]) && /[\w.]/.test(chars[start] ?? '')) end += 1;
  return { chars, start, end };
}
