// "Watch together" on the player: start a group (the server makes an invitation link, shown
// as text and a QR code), see who is watching, and the group's "Waiting for …" banner. The
// session and its group decide everything; this draws `state.group` and asks the server.
import { t, addStrings } from '../i18n.js';
import { ensureStylesheet } from '../stylesheet.js';
import { encodeQR, qrSVG } from '../devicelink/qr-code.js';

addStrings({
  en: {
    together: 'Watch together', togetherInvite: 'Invite people with this link', togetherCopy: 'Copy link', togetherCopied: 'Link copied',
    togetherWithdraw: 'Withdraw links', togetherWithdrawn: 'Links withdrawn: nobody new can join', togetherClose: 'Close',
    togetherWatching: 'Watching together · {n}', togetherWaiting: 'Waiting for {names}…', togetherYou: '{name} (you)',
    togetherStates: 'watching|waiting|catching up|away', togetherQR: 'QR code of the invitation link', togetherFailed: 'Could not start watching together: {message}',
    togetherInviteTV: 'Invite the TV', togetherTVInvited: 'The TV is joining', togetherPeople: 'Who is watching',
  },
  ja: {
    together: '一緒に見る', togetherInvite: 'このリンクで招待', togetherCopy: 'リンクをコピー', togetherCopied: 'リンクをコピーしました',
    togetherWithdraw: 'リンクを取り消す', togetherWithdrawn: 'リンクを取り消しました：新しく参加できません', togetherClose: '閉じる',
    togetherWatching: '一緒に視聴中 · {n}人', togetherWaiting: '{names}を待っています…', togetherYou: '{name}（あなた）',
    togetherStates: '視聴中|待機中|追いつき中|不在', togetherQR: '招待リンクのQRコード', togetherFailed: '一緒に見ることを開始できませんでした：{message}',
    togetherInviteTV: 'テレビを招待', togetherTVInvited: 'テレビが参加しています', togetherPeople: '視聴中の人',
  },
});

/** The banner's text for a group snapshot (null: no banner). */
export function bannerText(group) {
  if (!group) return null;
  if (group.waitingFor?.length) return t('togetherWaiting', { names: group.waitingFor.join(', ') });
  return t('togetherWatching', { n: group.watching });
}

/** The people list: [name, state label] for everyone present, this page's participant marked. */
export function peopleRows(group, participantID) {
  const labels = t('togetherStates').split('|');
  const states = ['watching', 'waiting', 'behind', 'away'];
  return (group?.participants ?? []).filter((p) => p.state !== 'away').map((p) => [
    p.id === participantID ? t('togetherYou', { name: p.name }) : p.name, labels[states.indexOf(p.state)] ?? p.state,
  ]);
}

export class TogetherPanel {
  /**
   * @param {{ button: HTMLElement, panel: HTMLElement, banner: HTMLElement }} elements
   * @param {{ sessionID: () => string, participantID: string | null, becameParticipant: (id: string) => void, toast: (text: string) => void, fetch?: typeof fetch }} options
   */
  constructor({ button, panel, banner }, { sessionID, participantID = null, becameParticipant, toast, fetch = globalThis.fetch.bind(globalThis) }) {
    Object.assign(this, { button, panel, banner, sessionID, participantID, becameParticipant, toast, fetch });
    this.group = null;
    this.invitation = null;
    ensureStylesheet('together');
    button.addEventListener('click', (event) => { event.stopPropagation(); this.panel.hidden ? this.open() : this.close(); });
    panel.addEventListener('pointerdown', (event) => event.stopPropagation());
    panel.addEventListener('click', (event) => event.stopPropagation());
  }

  applyStrings() {
    this.button.setAttribute('aria-label', t('together'));
    this.button.title = t('together');
  }

  /** Draws the group of a session state. */
  update(state) {
    this.group = state.group ?? null;
    const text = bannerText(this.group);
    this.banner.hidden = text === null;
    this.banner.textContent = text ?? '';
    this.banner.dataset.waiting = String(Boolean(this.group?.waitingFor?.length));
    this.button.setAttribute('aria-pressed', String(Boolean(this.group)));
    if (!this.panel.hidden) this.drawPeople();
  }

  /** Opens the panel, starting the group (and its first link) if this page is not in one yet. */
  async open() {
    this.panel.hidden = false;
    this.button.setAttribute('aria-expanded', 'true');
    if (!this.invitation) {
      const path = this.group && this.participantID ? 'group/invitations' : 'group';
      try {
        const response = await this.fetch(`/api/sessions/${encodeURIComponent(this.sessionID())}/${path}`, {
          method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: localStorage.getItem('marquee.name') ?? '' }),
        });
        const body = await response.json();
        // A guest invited by a link may watch, not invite: they see who is watching.
        if (response.status === 403 && this.group) {
          this.drawPeopleOnly();
          return;
        }
        if (!response.ok) throw new Error(body.error?.message ?? response.statusText);
        if (body.participantID) {
          this.participantID = body.participantID;
          this.becameParticipant(body.participantID);
        }
        this.invitation = body.invitation ?? body;
      } catch (error) {
        this.toast(t('togetherFailed', { message: error.message }));
        this.close();
        return;
      }
    }
    this.draw();
  }

  close() {
    this.panel.hidden = true;
    this.button.setAttribute('aria-expanded', 'false');
  }

  draw() {
    const url = new URL(this.invitation.url, location.href).href;
    const heading = document.createElement('h2');
    heading.textContent = t('together');
    const invite = document.createElement('p');
    invite.textContent = t('togetherInvite');
    const link = document.createElement('input');
    link.id = 'together-link';
    link.readOnly = true;
    link.value = url;
    link.setAttribute('aria-label', t('togetherInvite'));
    const qr = document.createElement('div');
    qr.className = 'together-qr';
    qr.innerHTML = qrSVG(encodeQR(url, { ecc: 'M' }), { label: t('togetherQR') });
    const copy = document.createElement('button');
    copy.type = 'button';
    copy.textContent = t('togetherCopy');
    copy.addEventListener('click', async () => {
      link.select();
      try { await navigator.clipboard.writeText(url); } catch { document.execCommand?.('copy'); }
      this.toast(t('togetherCopied'));
    });
    const withdraw = document.createElement('button');
    withdraw.type = 'button';
    withdraw.textContent = t('togetherWithdraw');
    withdraw.addEventListener('click', async () => {
      await this.fetch(`/api/sessions/${encodeURIComponent(this.sessionID())}/group/invitations`, { method: 'DELETE' });
      this.invitation = null;
      this.toast(t('togetherWithdrawn'));
      this.close();
    });
    const close = document.createElement('button');
    close.type = 'button';
    close.textContent = t('togetherClose');
    close.addEventListener('click', () => this.close());
    const people = document.createElement('ul');
    people.id = 'together-people';
    const actions = document.createElement('div');
    actions.className = 'together-actions';
    actions.append(copy, withdraw, close);
    this.panel.replaceChildren(heading, invite, link, qr, actions, people);
    this.drawPeople();
    this.offerScreens(actions);
  }

  /** "Invite the TV" when this server's TV screen listens: it opens a link and joins. */
  async offerScreens(actions) {
    const path = `/api/sessions/${encodeURIComponent(this.sessionID())}/group/screens`;
    const listening = await this.fetch(path, { cache: 'no-store' }).then((r) => (r.ok ? r.json() : null)).catch(() => null);
    if (!listening?.screens || actions.querySelector('#together-invite-tv')) return;
    const tv = document.createElement('button');
    tv.type = 'button';
    tv.id = 'together-invite-tv';
    tv.textContent = t('togetherInviteTV');
    tv.addEventListener('click', async () => {
      const response = await this.fetch(path, { method: 'POST' }).catch(() => null);
      const body = await response?.json().catch(() => null);
      this.toast(response?.ok ? t('togetherTVInvited') : t('togetherFailed', { message: body?.error?.message ?? '' }));
    });
    actions.prepend(tv);
  }

  /** The panel of someone who may not invite (a guest): who is watching, and Close. */
  drawPeopleOnly() {
    const heading = document.createElement('h2');
    heading.textContent = t('togetherPeople');
    const people = document.createElement('ul');
    people.id = 'together-people';
    const close = document.createElement('button');
    close.type = 'button';
    close.textContent = t('togetherClose');
    close.addEventListener('click', () => this.close());
    const actions = document.createElement('div');
    actions.className = 'together-actions';
    actions.append(close);
    this.panel.replaceChildren(heading, people, actions);
    this.drawPeople();
  }

  drawPeople() {
    const list = this.panel.querySelector('#together-people');
    if (!list) return;
    list.replaceChildren(...peopleRows(this.group, this.participantID).map(([name, state]) => {
      const item = document.createElement('li');
      item.textContent = `${name} — ${state}`;
      return item;
    }));
  }
}
