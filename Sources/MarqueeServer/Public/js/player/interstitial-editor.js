// A small ad-break editor on an asset's player page: list the asset's breaks, add one at the
// current time (or before / after the video) with an ad from the library, its restrictions
// and skip delay, delete one. The server validates and tells open sessions, so the timeline
// marks update at once; refusals are shown as the server words them.
//
// "Here (0:31)" follows the playhead while the panel is open and means the time when "Add
// break" is pressed. The panel's own fields keep their keys; its button does not, so Space, K
// and the digits still play, pause and jump while it has focus.
import { formatTime, t } from '../i18n.js';

async function json(response) {
  const body = await response.json().catch(() => null);
  if (!response.ok) throw new Error(body?.error?.message ?? `HTTP ${response.status}`);
  return body;
}

export class InterstitialEditor {
  /** @param {HTMLElement} player @param {{assetID: string, currentTime: () => number, toast: (text: string) => void}} options */
  constructor(player, { assetID, currentTime, toast }) {
    this.assetID = assetID;
    this.currentTime = currentTime;
    this.toast = toast;
    this.toggle = document.createElement('button');
    this.toggle.id = 'ad-breaks-button';
    this.toggle.className = 'ad-breaks-button';
    this.toggle.textContent = t('adBreaks');
    this.toggle.setAttribute('aria-expanded', 'false');
    this.panel = document.createElement('section');
    this.panel.id = 'ad-breaks';
    this.panel.className = 'ad-breaks';
    this.panel.hidden = true;
    for (const element of [this.toggle, this.panel]) {
      element.addEventListener('pointerdown', (event) => event.stopPropagation());
      element.addEventListener('click', (event) => event.stopPropagation());
    }
    this.panel.addEventListener('keydown', (event) => event.stopPropagation());
    this.toggle.addEventListener('click', () => (this.panel.hidden ? this.open() : this.close()));
    this.timer = null;
    // Shown only to people the server says may change the breaks (not viewers, not guests).
    this.toggle.hidden = true;
    player.append(this.toggle, this.panel);
    this.showIfAllowed();
  }

  async showIfAllowed() {
    const answer = await fetch(`/api/assets/${encodeURIComponent(this.assetID)}/interstitials`).then((r) => (r.ok ? r.json() : null)).catch(() => null);
    this.toggle.hidden = answer?.mayEdit !== true;
  }

  /** Names the button in the page's language (called once the session has chosen it). */
  applyStrings() {
    this.toggle.textContent = t('adBreaks');
  }

  async open() {
    this.panel.hidden = false;
    this.toggle.setAttribute('aria-expanded', 'true');
    await this.render();
    clearInterval(this.timer);
    this.timer = setInterval(() => this.showHere(), 250);
  }

  close() {
    this.panel.hidden = true;
    this.toggle.setAttribute('aria-expanded', 'false');
    clearInterval(this.timer);
    this.timer = null;
  }

  /** "Here (m:ss)" at the playhead now. */
  showHere() {
    const option = this.panel.querySelector('select[name="place"] option[value="here"]');
    const text = t('atCurrentTime', { t: formatTime(this.currentTime()) });
    if (option && option.textContent !== text) option.textContent = text;
  }

  async render() {
    const base = `/api/assets/${encodeURIComponent(this.assetID)}/interstitials`;
    const [{ events }, { assets }] = await Promise.all([
      fetch(base).then(json), fetch('/api/assets?role=interstitial').then(json),
    ]);
    const titles = new Map(assets.map((asset) => [asset.id, asset.title]));
    const list = document.createElement('ul');
    list.className = 'ad-break-list';
    if (!events.length) list.append(Object.assign(document.createElement('li'), { textContent: t('noBreaks') }));
    for (const event of events) {
      const item = document.createElement('li');
      item.dataset.eventId = event.id;
      const when = event.cue === 'pre' ? t('breakBefore') : event.cue === 'post' ? t('breakAfter') : t('breakAt', { t: formatTime(event.time) });
      const what = titles.get(event.content.assetID) ?? event.content.uri ?? event.content.assetList ?? '';
      const notes = [event.restrictions?.skip || event.restrictions?.jump ? t('restricted') : null,
        event.skipControl ? t('skippable', { s: event.skipControl.offset }) : null].filter(Boolean).join(', ');
      item.append(Object.assign(document.createElement('span'), { textContent: `${when} · ${what}${notes ? ` (${notes})` : ''}` }));
      const remove = Object.assign(document.createElement('button'), { textContent: t('deleteBreak'), className: 'delete-break' });
      remove.addEventListener('click', async () => {
        try {
          await fetch(`${base}/${encodeURIComponent(event.id)}`, { method: 'DELETE' }).then((r) => (r.ok ? null : json(r)));
          this.toast(t('breakDeleted'));
        } catch (error) { this.toast(error.message); }
        await this.render();
      });
      item.append(remove);
      list.append(item);
    }

    const form = document.createElement('form');
    form.className = 'ad-break-form';
    form.innerHTML = `
      <label>${t('breakPlace')} <select name="place">
        <option value="here">${t('atCurrentTime', { t: formatTime(this.currentTime()) })}</option>
        <option value="pre">${t('preRoll')}</option><option value="post">${t('postRoll')}</option></select></label>
      <label>${t('breakAd')} <select name="ad"></select></label>
      <label><input type="checkbox" name="skip"> ${t('restrictSkip')}</label>
      <label><input type="checkbox" name="jump"> ${t('restrictJump')}</label>
      <label><input type="checkbox" name="once"> ${t('playOnce')}</label>
      <label>${t('skipAfter')} <input type="number" name="skipOffset" min="0" step="0.5"></label>
      <button type="submit">${t('addBreak')}</button>`;
    const select = form.elements.ad;
    for (const asset of assets) select.append(new Option(asset.title, asset.id));
    if (!assets.length) form.replaceChildren(Object.assign(document.createElement('p'), { textContent: t('noAds') }));
    form.addEventListener('submit', async (submitted) => {
      submitted.preventDefault();
      const place = form.elements.place.value;
      const now = this.currentTime(); // when "Add break" is pressed, not when the panel opened
      const body = {
        time: place === 'here' ? Math.round(now * 1000) / 1000 : 0,
        cue: place === 'here' ? 'none' : place,
        once: form.elements.once.checked,
        content: { assetID: select.value },
        restrictions: { skip: form.elements.skip.checked, jump: form.elements.jump.checked },
      };
      const offset = form.elements.skipOffset.value;
      if (offset !== '') body.skipControl = { offset: Number(offset), labels: { en: 'Skip ad', ja: '広告をスキップ' } };
      try {
        await fetch(base, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }).then(json);
        this.toast(t('breakSaved'));
      } catch (error) { this.toast(error.message); }
      await this.render();
    });
    const close = Object.assign(document.createElement('button'), { textContent: '×', className: 'close-ad-breaks' });
    close.setAttribute('aria-label', t('closeAdBreaks'));
    close.addEventListener('click', () => this.close());
    const title = Object.assign(document.createElement('h2'), { textContent: t('adBreaks') });
    this.panel.replaceChildren(close, title, list, form);
  }
}
