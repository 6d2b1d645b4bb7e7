// "Play on…" in the player: hands the item on screen here over to the TV (this server's screen,
// the browser marked as the TV) at the current time and speed over the device link, then
// this page becomes the TV's remote (/remote). A browser not yet paired with the TV is sent to
// pair first (the same code on both screens, approval on both).
// When this server has paired with other Marquee TVs (chosen on /devices), the button opens a
// menu: this TV's screen, or one of them; the server then hands the item over to that TV
// (POST /api/devices/play-on), which plays its own copy at the same time and speed.
import { addStrings, pageLanguage, setLanguage, t } from '../i18n.js';
import { remoteStrings } from './remote-strings.js';
import { LinkClient, linkURL } from '../devicelink/link-client.js';
import { MessageType } from '../devicelink/frame.js';
import { loadIdentity, trustsTV, trustedTVs } from '../devicelink/identity-store.js';

// Its button is drawn before the session answers, in the page's language as the session will
// choose it: the address's ?lang=, else the browser's (it used the browser's alone, so ?lang=ja
// in an English browser drew English and set the page back to English).
addStrings(remoteStrings);
setLanguage(pageLanguage());

const ORIGIN_KEY = 'marquee.remote.tv';
const assetID = decodeURIComponent(location.pathname.split('/').filter(Boolean).pop() ?? '');

function pairedTV() {
  const key = localStorage.getItem(ORIGIN_KEY);
  return trustedTVs().find((tv) => tv.identityKey === key && tv.services.includes('remote')) ?? null;
}

/** Sends `playItem` to the TV; resolves with the TV's answer. */
export async function playOnTV({ time, rate }) {
  const link = new LinkClient({
    url: linkURL(), identity: await loadIdentity(), service: 'remote', session: `play-on-${Date.now()}`, purpose: 'connect', trustsPeer: trustsTV,
  });
  await link.connect();
  const answer = new Promise((resolve, reject) => {
    link.addEventListener('message', (event) => { if (event.messageType === MessageType.intentResult) resolve(event.body); });
    link.addEventListener('close', (event) => reject(new Error(event.reason)));
  });
  link.send(MessageType.playItem, { assetID, time, rate });
  try {
    return await answer;
  } finally {
    link.close();
  }
}

function install() {
  const overflow = document.getElementById('overflow-button');
  const video = document.getElementById('video');
  if (!overflow || !video || document.getElementById('play-on-button')) return;
  const button = document.createElement('button');
  button.id = 'play-on-button';
  button.type = 'button';
  button.className = overflow.className;
  button.textContent = t('rm_playOn');
  button.title = t('rm_playOnHint');
  button.style.cssText = 'width:auto;padding:0 .7em;font-size:.85rem;font-weight:600;white-space:nowrap';
  const status = document.createElement('span');
  status.id = 'play-on-status';
  status.setAttribute('role', 'status');
  status.style.cssText = 'font-size:.85rem;margin-inline:.5em';
  overflow.parentElement.insertBefore(button, overflow);
  overflow.parentElement.insertBefore(status, button);
  const menu = document.createElement('div');
  menu.id = 'play-on-menu';
  menu.setAttribute('role', 'menu');
  menu.hidden = true;
  menu.style.cssText = 'position:absolute;bottom:100%;right:0;margin-bottom:.5em;display:flex;flex-direction:column;gap:.2em;'
    + 'background:rgba(28,28,32,.96);border:1px solid #4a4a55;border-radius:10px;padding:.4em;z-index:50;min-width:12em';
  overflow.parentElement.style.position ||= 'relative';
  overflow.parentElement.insertBefore(menu, button);
  const choice = (label, action, data) => {
    const item = document.createElement('button');
    item.type = 'button';
    item.setAttribute('role', 'menuitem');
    item.textContent = label;
    Object.assign(item.dataset, data);
    item.style.cssText = 'font:inherit;font-size:.9rem;text-align:start;color:#f4f4f5;background:none;border:0;border-radius:6px;padding:.5em .7em;cursor:pointer';
    item.addEventListener('click', () => { menu.hidden = true; action(); });
    return item;
  };
  const handOver = async (target) => {
    const time = video.currentTime, rate = window.marquee?.session?.selectedSpeed?.rate ?? (video.playbackRate || 1);
    button.disabled = true;
    status.textContent = t('rm_playOnSending', { tv: target.name });
    try {
      const response = await fetch('/api/devices/play-on', {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ deviceID: target.deviceID, assetID, time, rate }),
      });
      const body = await response.json().catch(() => null);
      if (!response.ok) throw new Error(body?.error?.message ?? t('rm_playOnFailed'));
      video.pause();
      status.textContent = t('rm_playOnStarted', { tv: body.device ?? target.name });
      document.documentElement.dataset.playOn = target.deviceID;
    } catch (error) {
      status.textContent = error.message;
    } finally {
      button.disabled = false;
    }
  };
  button.addEventListener('click', async () => {
    if (!menu.hidden) { menu.hidden = true; return; }
    // Other TVs this server paired with: offer them next to this TV's own screen.
    const tvs = await fetch('/api/devices/tvs', { cache: 'no-store' }).then((r) => (r.ok ? r.json() : { tvs: [] })).catch(() => ({ tvs: [] }));
    if (tvs.tvs?.length) {
      menu.replaceChildren(choice(t('rm_playOnThisScreen'), toScreen, { target: 'screen' }),
        ...tvs.tvs.map((tv) => choice(tv.name, () => handOver(tv), { deviceId: tv.deviceID })));
      menu.hidden = false;
      menu.querySelector('button')?.focus();
      return;
    }
    await toScreen();
  });
  const toScreen = async () => {
    const tv = pairedTV();
    // The session's speed (the video's rate is 1 while paused).
    const time = video.currentTime, rate = window.marquee?.session?.selectedSpeed?.rate ?? (video.playbackRate || 1);
    // The remote page applies the speed once the TV's own session (not this page's) plays the item.
    const handoff = `asset=${encodeURIComponent(assetID)}&rate=${rate}&from=${encodeURIComponent(window.marquee?.session?.id ?? '')}`;
    if (!tv) {
      // Pair first; the remote page then sends this "Play on TV" (with the time) once paired.
      video.pause();
      location.assign(`/remote?${handoff}&t=${Math.round(time * 10) / 10}&pair=1`);
      return;
    }
    button.disabled = true;
    status.textContent = t('rm_playOnSending', { tv: tv.name });
    try {
      const answer = await playOnTV({ time, rate });
      if (answer?.type !== 'playing-on-screen') throw new Error(answer?.message ?? t('rm_playOnFailed'));
      video.pause();
      location.assign(`/remote?${handoff}`);
    } catch (error) {
      status.textContent = error.message;
      button.disabled = false;
    }
  };
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', install); else install();
