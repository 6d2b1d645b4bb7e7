// "Up Next": when an episode ends, a card offers the next episode of its series (from
// GET /api/assets/{id}/up-next) and plays it after a short countdown unless dismissed.
import { t, addStrings } from '../i18n.js';
import { ensureStylesheet } from '../stylesheet.js';

addStrings({
  en: { upNext: 'Up Next', playNext: 'Play next episode', playingIn: 'Playing in {s} s', notReady: 'Not ready yet', cancel: 'Cancel' },
  ja: { upNext: '次のエピソード', playNext: '次のエピソードを再生', playingIn: '{s}秒後に再生', notReady: 'まだ準備ができていません', cancel: 'キャンセル' },
});

const COUNTDOWN = 8;

export class UpNext {
  constructor(player, assetID, { navigate = (url) => location.assign(url), countdown = COUNTDOWN } = {}) {
    this.player = player;
    this.assetID = assetID;
    this.navigate = navigate;
    this.countdown = countdown;
    this.card = null;
    this.timer = null;
    this.next = undefined; // undefined: not asked yet; null: none
    ensureStylesheet('up-next');
  }

  /** Called with every session state; shows the card at `ended`, hides it when playback resumes. */
  async update(state) {
    this.endedNow = state.status === 'ended';
    if (state.status === 'ended' && !state.activeInterstitial) {
      if (this.card) return;
      if (this.next === undefined) {
        this.next = null;
        try {
          const response = await fetch(`/api/assets/${encodeURIComponent(this.assetID)}/up-next`, { cache: 'no-store' });
          if (response.ok) this.next = (await response.json()).next ?? null;
        } catch { /* offline: no card */ }
      }
      if (this.next && !this.card && this.endedNow) this.show(this.next);
    } else {
      this.hide();
    }
  }

  show(next) {
    const card = document.createElement('aside');
    card.id = 'up-next';
    card.className = 'up-next';
    card.setAttribute('aria-label', t('upNext'));
    const art = document.createElement('div');
    art.className = 'up-next-art';
    if (next.artworkURL) art.style.backgroundImage = `url("${next.artworkURL}")`;
    const text = document.createElement('div');
    text.className = 'up-next-text';
    const heading = document.createElement('p');
    heading.className = 'up-next-heading';
    heading.textContent = t('upNext');
    const title = document.createElement('p');
    title.className = 'up-next-title';
    title.textContent = next.series?.label || next.title;
    const series = document.createElement('p');
    series.className = 'up-next-series';
    series.textContent = next.series?.title ?? '';
    const count = document.createElement('p');
    count.className = 'up-next-countdown';
    text.append(heading, title, series, count);
    const play = document.createElement('button');
    play.id = 'up-next-play';
    play.type = 'button';
    play.className = 'up-next-play';
    play.textContent = t('playNext');
    const ready = next.status === 'ready';
    play.disabled = !ready;
    play.addEventListener('click', (event) => { event.stopPropagation(); this.play(); });
    const cancel = document.createElement('button');
    cancel.type = 'button';
    cancel.className = 'up-next-cancel';
    cancel.textContent = t('cancel');
    cancel.addEventListener('click', (event) => { event.stopPropagation(); this.stopCountdown(); card.remove(); });
    for (const button of [play, cancel]) button.addEventListener('pointerdown', (event) => event.stopPropagation());
    card.append(art, text, play, cancel);
    this.player.append(card);
    this.card = card;
    if (!ready) { count.textContent = t('notReady'); return; }
    let left = this.countdown;
    count.textContent = t('playingIn', { s: left });
    this.timer = setInterval(() => {
      left -= 1;
      count.textContent = t('playingIn', { s: Math.max(0, left) });
      if (left <= 0) this.play();
    }, 1000);
  }

  play() {
    this.stopCountdown();
    if (this.next) this.navigate(this.next.playerURL);
  }

  stopCountdown() {
    clearInterval(this.timer);
    this.timer = null;
    this.card?.querySelector('.up-next-countdown')?.replaceChildren();
  }

  hide() {
    this.stopCountdown();
    this.card?.remove();
    this.card = null;
  }
}
