// The quality section of the "…" menu: Auto (showing the variant playing, "Auto (720p)") and
// each video variant of the manifest, highest first, as "1080p" with its bit rate. Choosing
// holds that variant in the MSE loader; Auto goes back to choosing by measured throughput.
//
// The choice is the page's own, not the session's: it depends on this device's connection and
// screen, which only the page measures (the loader's throughput, the element's size), and each
// renderer of a session (a phone and a TV watching together) needs its own. The session still
// decides everything that is shared (time, rate, audio and subtitles).
import { addStrings, t } from '../i18n.js';
import { formatBitRate } from '../downloads-format.js';
import { qualityStrings } from './quality-strings.js';

addStrings(qualityStrings);

/** "1080p" for a variant: its picture's short side (a portrait 1080×1920 is 1080p too). */
export function variantName(variant) {
  const { width, height } = variant ?? {};
  const side = width && height ? Math.min(width, height) : height ?? width;
  return side ? `${side}p` : formatBitRate(variant?.bandwidth) || (variant?.id ?? '');
}

/**
 * The menu section for a loader's view of its variants, or null when there is nothing to
 * choose (one variant, or no loader). `view`: `{variants, manual: id|null, playing: variant}`.
 */
export function qualitySection(view, { choose }) {
  const variants = view?.variants ?? [];
  if (variants.length < 2) return null;
  const automatic = view.manual == null;
  const playing = view.playing ? variantName(view.playing) : null;
  const items = [{
    label: automatic && playing ? t('qualityAutoCurrent', { q: playing }) : t('qualityAuto'),
    value: 'auto', checked: automatic, onSelect: () => choose(null),
  }];
  for (const variant of [...variants].sort((a, b) => (b.bandwidth ?? 0) - (a.bandwidth ?? 0))) {
    const name = variantName(variant);
    const rate = formatBitRate(variant.bandwidth);
    items.push({
      label: name, detail: rate || undefined, ariaLabel: rate ? t('qualityItem', { q: name, rate }) : undefined,
      value: variant.id, checked: !automatic && view.manual === variant.id, onSelect: () => choose(variant.id),
    });
  }
  return { key: 'quality', title: t('quality'), items };
}

/** What the quality section reads from an MSE loader (null without one). */
export function qualityView(engine) {
  if (!engine?.variants) return null;
  return {
    variants: engine.variants,
    manual: engine.isAutomatic ? null : engine.currentVariant?.id ?? null,
    playing: engine.playingVariant,
  };
}
