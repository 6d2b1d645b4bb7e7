// "Stats for nerds": a small panel over the picture with what the loader and the media element
// are doing, refreshed twice a second while it is open: the variant playing and whether it was
// chosen or automatic, the decoded resolution, the bandwidth estimate, the buffer ahead of the
// playhead, dropped frames (`getVideoPlaybackQuality()`) and the codecs. Closed by its ×, by
// Escape, or from the menu again.
import { addStrings, t } from '../i18n.js';
import { formatBitRate } from '../downloads-format.js';
import { ensureStylesheet } from '../stylesheet.js';
import { qualityStrings } from './quality-strings.js';
import { variantName } from './quality-menu.js';

addStrings(qualityStrings);

const ROWS = [
  ['variant', 'statVariant'], ['choice', 'statChoice'], ['resolution', 'statResolution'], ['bandwidth', 'statBandwidth'],
  ['buffer', 'statBuffer'], ['dropped', 'statDropped'], ['codecs', 'statCodecs'],
];

/** The codecs a MIME type names: `video/mp4; codecs="avc1.64001f,mp4a.40.2"` → ["avc1.64001f", "mp4a.40.2"]. */
export function codecsOf(mimeType) {
  const match = /codecs\s*=\s*"?([^";]+)"?/i.exec(mimeType ?? '');
  return match ? match[1].split(',').map((c) => c.trim()).filter(Boolean) : [];
}

/** Seconds buffered ahead of `time` in `ranges` (the range holding it), 0 when none does. */
export function bufferAhead(ranges, time) {
  for (let i = 0; i < (ranges?.length ?? 0); i++) {
    if (time >= ranges.start(i) - 0.1 && time <= ranges.end(i)) return ranges.end(i) - time;
  }
  return 0;
}

/** The panel's values, as text, from a loader and its element (pure, for tests). */
export function statsValues(engine, video) {
  const unknown = t('statUnknown');
  const variant = engine?.playingVariant;
  const quality = video.getVideoPlaybackQuality?.();
  const audio = engine?.manifest?.audio?.[engine.audioIndex];
  const codecs = [...codecsOf(variant?.mimeType), ...codecsOf(audio?.mimeType)];
  const declared = variant?.width ? ` · ${variant.width}×${variant.height}` : '';
  return {
    variant: variant ? `${variantName(variant)} · ${variant.id}${declared} · ${formatBitRate(variant.bandwidth)}` : unknown,
    choice: engine ? t(engine.isAutomatic ? 'statAutomatic' : 'statManual') : unknown,
    resolution: video.videoWidth
      ? `${video.videoWidth}×${video.videoHeight} · ${t('statViewport', { w: video.clientWidth, h: video.clientHeight })}` : unknown,
    bandwidth: engine?.throughput ? formatBitRate(engine.throughput) : unknown,
    buffer: t('statBufferValue', { s: bufferAhead(video.buffered, video.currentTime).toFixed(1) }),
    dropped: quality ? t('statDroppedValue', { dropped: quality.droppedVideoFrames, total: quality.totalVideoFrames }) : unknown,
    codecs: codecs.length ? codecs.join(', ') : unknown,
  };
}

export class StatsPanel {
  /** @param {HTMLElement} player @param {HTMLVideoElement} video @param {() => object|null} engine the MSE loader */
  constructor(player, video, engine) {
    ensureStylesheet('quality');
    this.video = video;
    this.engine = engine;
    this.timer = null;
    this.panel = document.createElement('section');
    this.panel.id = 'stats-panel';
    this.panel.className = 'stats-panel';
    this.panel.hidden = true;
    this.panel.setAttribute('aria-labelledby', 'stats-title');
    this.title = Object.assign(document.createElement('h2'), { id: 'stats-title' });
    this.closeButton = Object.assign(document.createElement('button'), { className: 'stats-close', textContent: '×' });
    this.closeButton.addEventListener('click', (event) => { event.stopPropagation(); this.close(); });
    this.list = document.createElement('dl');
    this.values = {};
    for (const [key] of ROWS) {
      const dt = document.createElement('dt');
      const dd = document.createElement('dd');
      dd.dataset.stat = key;
      this.values[key] = [dt, dd];
      this.list.append(dt, dd);
    }
    this.panel.append(this.closeButton, this.title, this.list);
    // Presses on the panel are the panel's: they neither play nor scrub the picture under it.
    this.panel.addEventListener('pointerdown', (event) => event.stopPropagation());
    this.panel.addEventListener('click', (event) => event.stopPropagation());
    this.panel.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') { event.stopPropagation(); this.close(); }
    });
    player.append(this.panel);
  }

  get isOpen() { return !this.panel.hidden; }

  toggle() { this.isOpen ? this.close() : this.open(); }

  open() {
    this.panel.hidden = false;
    this.render();
    clearInterval(this.timer);
    this.timer = setInterval(() => this.render(), 500);
  }

  close() {
    this.panel.hidden = true;
    clearInterval(this.timer);
    this.timer = null;
  }

  render() {
    this.title.textContent = t('statsForNerds');
    this.closeButton.setAttribute('aria-label', t('closeStats'));
    const values = statsValues(this.engine(), this.video);
    for (const [key, label] of ROWS) {
      const [dt, dd] = this.values[key];
      dt.textContent = t(label);
      dd.textContent = values[key];
    }
  }
}
