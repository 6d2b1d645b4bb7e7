// What the page shows during an ad break, from the session's state: "Ad 1 of 2 · 0:12" in
// the badge and the skip button in the content overlay, shown while the session says the
// break may be skipped (its skip control's window), labelled as authored.
import { addStrings, formatTime, language, t } from '../i18n.js';
import { interstitialStrings } from './interstitial-strings.js';
import { ensureStylesheet } from '../stylesheet.js';

addStrings(interstitialStrings);

/**
 * Whole seconds a countdown shows for `secondsLeft`: rounded up, so it reaches 0:00 as the ad
 * ends, but a sliver under a tenth of a second (an ad of 5.02 s: the audio's priming, the
 * container's rounding) does not count, so a 5 s ad starts at 0:05.
 */
export function countdownSeconds(secondsLeft) {
  return Math.max(0, Math.ceil(Math.max(0, secondsLeft) - 0.1));
}

/** The badge text: "Ad · 0:12" for a lone ad, "Ad 1 of 2 · 0:12" inside a break of several. */
export function adBadgeText(state, secondsLeft) {
  const left = formatTime(countdownSeconds(secondsLeft));
  const position = state?.interstitialBreak;
  if (position && position.count > 1) return t('adPosition', { n: position.position, count: position.count, t: left });
  return t('adRemaining', { t: left });
}

export class InterstitialOverlay {
  /** @param {HTMLElement} player @param {() => void} onSkip sends the skip-interstitial intent */
  constructor(player, onSkip) {
    // The break's styles travel with the module (no edit to the shared player stylesheet).
    ensureStylesheet('interstitials');
    this.button = document.createElement('button');
    this.button.id = 'skip-ad-button';
    this.button.className = 'skip-ad-button';
    this.button.hidden = true;
    this.button.addEventListener('click', (event) => { event.stopPropagation(); onSkip(); });
    this.button.addEventListener('pointerdown', (event) => event.stopPropagation());
    player.append(this.button);
  }

  /** Draws the skip button from the session's state. */
  update(state) {
    const event = state?.activeInterstitial;
    const control = event?.skipControl;
    const show = Boolean(event && control && state.permissions?.canSkipInterstitial);
    this.button.hidden = !show;
    if (!show) return;
    const labels = control.labels ?? {};
    this.button.textContent = labels[language()] ?? labels[state.language] ?? labels.en ?? Object.values(labels)[0] ?? t('skipAd');
  }
}
