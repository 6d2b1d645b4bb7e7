// "Up Next": the session offers the next episode when an item ends (`state.upNext`); this
// card draws the offer and its countdown and sends the viewer's choice as an intent. The
// session decides when the countdown ends (its own timer), so a remote or another tab sees
// and changes the same offer; when it is "chosen", the page moves on to the item.
import { t, addStrings } from '../i18n.js';
import { ensureStylesheet } from '../stylesheet.js';
import { INTENT } from './renderer-vocabulary.js';

addStrings({
  en: { upNext: 'Up Next', playNext: 'Play next episode', playingIn: 'Playing in {s} s', notReady: 'Not ready yet', cancel: 'Cancel' },
  ja: { upNext: '次のエピソード', playNext: '次のエピソードを再生', playingIn: '{s}秒後に再生', notReady: 'まだ準備ができていません', cancel: 'キャンセル' },
});

export class UpNext {
  /**
   * @param {HTMLElement} player where the card goes
   * @param {{ intent: (name: string, fields: object) => void, navigate?: (url: string) => void }} options
   */
  constructor(player, { intent, navigate = (url) => location.assign(url) }) {
    this.player = player;
    this.intent = intent;
    this.navigate = navigate;
    this.card = null;
    this.offer = null;
    this.timer = null;
    this.deadline = 0;
    this.navigated = false;
    ensureStylesheet('up-next');
  }

  /** Called with every session state: draws `state.upNext`, and follows a chosen item. */
  update(state) {
    const offer = state.upNext ?? null;
    if (offer?.state === 'chosen') {
      this.hide();
      if (!this.navigated) {
        this.navigated = true;
        this.navigate(offer.playerURL);
      }
      return;
    }
    if (offer?.state !== 'offered' || state.activeInterstitial) {
      this.hide();
      return;
    }
    if (!this.card || this.offer?.assetID !== offer.assetID) {
      this.hide();
      this.show(offer);
    }
    this.offer = offer;
    this.count(offer.secondsLeft);
  }

  show(offer) {
    const card = document.createElement('aside');
    card.id = 'up-next';
    card.className = 'up-next';
    card.setAttribute('aria-label', t('upNext'));
    const art = document.createElement('div');
    art.className = 'up-next-art';
    if (offer.artworkURL) art.style.backgroundImage = `url("${offer.artworkURL}")`;
    const text = document.createElement('div');
    text.className = 'up-next-text';
    const heading = document.createElement('p');
    heading.className = 'up-next-heading';
    heading.textContent = t('upNext');
    const title = document.createElement('p');
    title.className = 'up-next-title';
    title.textContent = offer.title;
    const series = document.createElement('p');
    series.className = 'up-next-series';
    series.textContent = offer.seriesTitle ?? '';
    const count = document.createElement('p');
    count.className = 'up-next-countdown';
    count.setAttribute('aria-live', 'polite');
    text.append(heading, title, series, count);
    const play = document.createElement('button');
    play.id = 'up-next-play';
    play.type = 'button';
    play.className = 'up-next-play';
    play.textContent = t('playNext');
    play.disabled = !offer.ready;
    play.addEventListener('click', (event) => { event.stopPropagation(); this.intent(INTENT.upNext, { choice: 'play' }); });
    const cancel = document.createElement('button');
    cancel.type = 'button';
    cancel.className = 'up-next-cancel';
    cancel.textContent = t('cancel');
    cancel.addEventListener('click', (event) => { event.stopPropagation(); this.intent(INTENT.upNext, { choice: 'dismiss' }); });
    for (const button of [play, cancel]) button.addEventListener('pointerdown', (event) => event.stopPropagation());
    card.append(art, text, play, cancel);
    this.player.append(card);
    this.card = card;
  }

  /** Shows the seconds the session said are left, counting down between its snapshots. */
  count(secondsLeft) {
    clearInterval(this.timer);
    this.timer = null;
    const label = this.card?.querySelector('.up-next-countdown');
    if (!label) return;
    if (!this.offer?.ready || secondsLeft == null) {
      label.textContent = this.offer?.ready ? '' : t('notReady');
      return;
    }
    this.deadline = Date.now() + secondsLeft * 1000;
    const draw = () => { label.textContent = t('playingIn', { s: Math.max(0, Math.ceil((this.deadline - Date.now()) / 1000)) }); };
    draw();
    this.timer = setInterval(draw, 250);
  }

  hide() {
    clearInterval(this.timer);
    this.timer = null;
    this.card?.remove();
    this.card = null;
    this.offer = null;
  }
}
