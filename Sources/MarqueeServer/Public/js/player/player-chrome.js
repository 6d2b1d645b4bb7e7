// The player's chrome around the picture: the controls' labels in the session's language,
// the buttons, full screen and picture in picture, the picture's gravity (fit or fill: its
// button, pinch, a double tap, Ctrl+wheel), the keyboard help, toasts and the failure overlay.
//
// A double tap on a touch screen switches fit and fill, as on Apple's player; a double click
// with a mouse goes full screen and back, as every desktop video player and QuickTime do (a
// desktop viewer has the fit/fill button, Ctrl+wheel, and fill matters most in full screen).
import { addStrings, t } from '../i18n.js';

addStrings({
  en: { fillScreen: 'Fill the screen' },
  ja: { fillScreen: '画面いっぱいに表示' },
});

/** Two taps closer than this in time (ms) and space (px) are a double tap. */
const DOUBLE_TAP_MS = 300;
const DOUBLE_TAP_SLOP = 40;

export class Toast {
  constructor(element) {
    this.element = element;
    this.timer = null;
  }

  show(text, milliseconds = 1200) {
    this.element.textContent = text;
    this.element.hidden = false;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => { this.element.hidden = true; }, milliseconds);
  }
}

const HELP_ROWS = [
  ['Space / K', 'helpPlayPause'], ['J / L  ← / →', 'helpSkip'], ['↑ / ↓', 'helpVolume'], ['M', 'helpMute'],
  ['F', 'helpFullscreen'], ['C', 'helpCaptions'], ['I', 'helpInfo'], ['< / >', 'helpSpeed'],
  ['0 – 9', 'helpJump'], ['?', 'helpHelp'],
];

export class PlayerChrome {
  /**
   * @param {(id: string) => HTMLElement} $ the page's elements by id
   * @param {import('./player-events.js').PlayerHub} hub
   * @param {{toast: Toast, volume: {render: Function}, info: {update: Function}}} parts
   */
  constructor($, hub, parts) {
    this.$ = $;
    this.hub = hub;
    this.parts = parts;
    this.player = $('player');
  }

  /** Labels every control in the current language. */
  applyStrings() {
    const $ = this.$;
    $('back').setAttribute('aria-label', t('back'));
    $('skip-back').setAttribute('aria-label', t('skipBack', { s: this.hub.skipInterval }));
    $('skip-forward').setAttribute('aria-label', t('skipForward', { s: this.hub.skipInterval }));
    $('timeline').setAttribute('aria-label', t('timeline'));
    $('elapsed').setAttribute('aria-label', t('elapsed'));
    $('remaining').setAttribute('aria-label', t('remaining'));
    $('captions-button').setAttribute('aria-label', t('captions'));
    $('renditions-button').setAttribute('aria-label', t('audioAndSubtitles'));
    $('pip-button').setAttribute('aria-label', t('pip'));
    this.renderGravity();
    $('fullscreen-button').setAttribute('aria-label', t('fullscreen'));
    $('overflow-button').setAttribute('aria-label', t('more'));
    $('loading').setAttribute('aria-label', t('loading'));
    $('help-title').textContent = t('keyboardShortcuts');
    $('error-back').textContent = t('backToLibrary');
    this.parts.volume.render();
    $('pip-button').hidden = !document.pictureInPictureEnabled;
    this.parts.info.update();
  }

  /** Wires the buttons to `actions` (and picture in picture, which the page does itself). */
  wireButtons(actions) {
    const $ = this.$;
    const press = (id, action) => $(id).addEventListener('click', (event) => { event.stopPropagation(); action(); });
    press('play-pause', () => actions.togglePlay());
    press('skip-back', () => actions.skipStep(-1));
    press('skip-forward', () => actions.skipStep(1));
    press('captions-button', () => actions.captions());
    press('fullscreen-button', () => this.toggleFullscreen());
    press('gravity-button', () => this.setGravity(this.player.dataset.gravity === 'fill' ? 'fit' : 'fill'));
    // A mouse's double click on the picture: full screen (a touch's double tap is in `tap`).
    $('gesture-surface').addEventListener('dblclick', (event) => {
      if (this.lastPointerType === 'touch') return;
      event.preventDefault();
      this.toggleFullscreen();
    });
    $('gesture-surface').addEventListener('pointerdown', (event) => { this.lastPointerType = event.pointerType; }, true);
    $('pip-button').addEventListener('click', async (event) => {
      event.stopPropagation();
      try {
        if (document.pictureInPictureElement) await document.exitPictureInPicture();
        else await this.hub.media.requestPictureInPicture();
      } catch (error) { this.parts.toast.show(String(error.message ?? error)); }
    });
    document.addEventListener('fullscreenchange', () => {
      $('fullscreen-button').setAttribute('aria-label', document.fullscreenElement ? t('exitFullscreen') : t('fullscreen'));
    });
    this.player.addEventListener('wheel', (event) => {
      if (!event.ctrlKey) return;
      event.preventDefault();
      if (Math.abs(event.deltaY) < 2) return;
      this.setGravity(event.deltaY < 0 ? 'fill' : 'fit');
    }, { passive: false });
  }

  /**
   * A tap on the picture: in its centre it plays or pauses, elsewhere it shows or hides the
   * controls. On a touch screen a second tap soon after switches fit and fill instead, so a
   * touch's tap waits that long before it acts; a mouse's click acts at once.
   */
  tap(event, actions, visibility) {
    if (event.pointerType !== 'touch') return this.singleTap(event, actions, visibility);
    const { clientX: x, clientY: y, timeStamp: time } = event;
    const first = this.pendingTap;
    if (first && time - first.time < DOUBLE_TAP_MS && Math.hypot(x - first.x, y - first.y) < DOUBLE_TAP_SLOP) {
      clearTimeout(first.timer);
      this.pendingTap = null;
      this.setGravity(this.player.dataset.gravity === 'fill' ? 'fit' : 'fill');
      return;
    }
    if (first) { clearTimeout(first.timer); this.singleTap(first.event, actions, visibility); }
    const pending = { time, x, y, event: { clientX: x, clientY: y } };
    pending.timer = setTimeout(() => {
      if (this.pendingTap === pending) this.pendingTap = null;
      this.singleTap(pending.event, actions, visibility);
    }, DOUBLE_TAP_MS);
    this.pendingTap = pending;
  }

  singleTap(event, actions, visibility) {
    const rect = this.player.getBoundingClientRect();
    const inCentre = Math.abs(event.clientX - (rect.left + rect.width / 2)) < rect.width / 6 &&
      Math.abs(event.clientY - (rect.top + rect.height / 2)) < rect.height / 6;
    if (inCentre) {
      actions.togglePlay();
      return;
    }
    if (visibility.visible) visibility.hide(); else visibility.activity();
  }

  setGravity(gravity) {
    this.player.dataset.gravity = gravity;
    this.parts.toast.show(t(gravity));
    this.renderGravity();
  }

  /** The fit/fill button: "Fill the screen", pressed while the picture fills. */
  renderGravity() {
    const button = this.$('gravity-button');
    button.setAttribute('aria-pressed', String(this.player.dataset.gravity === 'fill'));
    button.setAttribute('aria-label', t('fillScreen'));
    button.hidden = this.player.dataset.audioOnly === 'true';
  }

  toggleFullscreen() {
    if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
    else this.player.requestFullscreen?.().catch(() => {});
  }

  get helpOpen() { return !this.$('help').hidden; }

  toggleHelp() {
    const help = this.$('help');
    help.hidden = !help.hidden;
    if (help.hidden) return;
    this.$('help-keys').replaceChildren(...HELP_ROWS.flatMap(([keys, key]) => {
      const dt = document.createElement('dt');
      dt.innerHTML = keys.split('  ').map((k) => `<kbd>${k}</kbd>`).join(' ');
      const dd = document.createElement('dd');
      dd.textContent = t(key, { s: this.hub.skipInterval });
      return [dt, dd];
    }));
  }

  showError(message) {
    const $ = this.$;
    $('error-title').textContent = t('errorTitle');
    $('error-back').textContent = t('backToLibrary');
    $('error-message').textContent = message;
    $('error').hidden = false;
    $('loading').hidden = true;
    this.player.dataset.state = 'failed';
  }
}
