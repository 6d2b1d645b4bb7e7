// The controls as each session snapshot says: playing or not, the title, which buttons exist
// and which are enabled (the session's `permissions`, never the break's raw restrictions),
// the ad badge, the spinner and the failure overlay. Nothing here decides; it renders.
import { t } from '../i18n.js';
import { PLAYER_EVENT } from './player-events.js';

/** What the controls may do before the session says otherwise. */
const ALL_ALLOWED = Object.freeze({ canSeek: true, canChangeRate: true, skipInterval: 10 });

export class SessionView {
  /**
   * @param {{player: HTMLElement, playPause: HTMLElement, title: HTMLElement, subtitle: HTMLElement,
   *          captions: HTMLElement, renditions: HTMLElement, skipBack: HTMLElement, skipForward: HTMLElement,
   *          adBadge: HTMLElement, loading: HTMLElement, document: {title: string}}} elements
   * @param {import('./player-events.js').PlayerHub} hub
   * @param {{info: {setMetadata: Function}, showError: (message: string) => void}} parts
   */
  constructor(elements, hub, parts) {
    this.elements = elements;
    this.hub = hub;
    this.parts = parts;
  }

  registerListeners() {
    this.hub.on(PLAYER_EVENT.STATE, this.render, this);
  }

  render({ state }) {
    const e = this.elements;
    const playing = state.desiresPlayback;
    e.player.dataset.playing = String(playing);
    e.player.dataset.status = state.status;
    e.player.dataset.rate = String(state.rate);
    e.player.dataset.selectedSpeed = String(state.selectedSpeed?.rate ?? '');
    e.playPause.setAttribute('aria-label', playing ? t('pause') : state.status === 'ended' ? t('replay') : t('play'));
    const metadata = state.metadata;
    e.title.textContent = metadata.title;
    e.subtitle.textContent = metadata.subtitle ?? '';
    e.document.title = metadata.title;
    this.parts.info.setMetadata(metadata);
    e.captions.hidden = !state.subtitles.length;
    e.captions.setAttribute('aria-pressed', String(state.selectedSubtitles != null));
    e.renditions.hidden = state.audio.length < 2 && !state.subtitles.length;
    const allowed = state.permissions ?? ALL_ALLOWED;
    e.skipBack.disabled = !allowed.canSeek;
    e.skipForward.disabled = !allowed.canSeek;
    e.skipBack.setAttribute('aria-label', t('skipBack', { s: allowed.skipInterval }));
    e.skipForward.setAttribute('aria-label', t('skipForward', { s: allowed.skipInterval }));
    e.player.dataset.canSeek = String(allowed.canSeek);
    e.adBadge.hidden = !state.activeInterstitial;
    e.player.dataset.interstitial = String(Boolean(state.activeInterstitial));
    e.loading.hidden = !(state.status === 'waiting');
    if (state.status === 'failed') this.parts.showError(state.failureMessage ?? '');
  }
}
