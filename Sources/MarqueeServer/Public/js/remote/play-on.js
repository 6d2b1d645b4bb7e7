// "Play on…" in the player: hands the item on screen here over to the TV (this server's screen,
// the browser marked as the TV) at the current time and speed over the device link, then
// this page becomes the TV's remote (/remote). A browser not yet paired with the TV is sent to
// pair first (the same code on both screens, approval on both).
import { addStrings, pickLanguage, setLanguage, t } from '../i18n.js';
import { remoteStrings } from './remote-strings.js';
import { LinkClient, linkURL } from '../devicelink/link-client.js';
import { MessageType } from '../devicelink/frame.js';
import { loadIdentity, trustsTV, trustedTVs } from '../devicelink/identity-store.js';

addStrings(remoteStrings);
setLanguage(pickLanguage(navigator.languages));

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
  button.addEventListener('click', async () => {
    const tv = pairedTV();
    // The session's speed (the video's rate is 1 while paused).
    const time = video.currentTime, rate = window.marquee?.session?.selectedSpeed?.rate ?? (video.playbackRate || 1);
    // The remote page applies the speed once the TV's own session (not this page's) plays the item.
    const handoff = `asset=${encodeURIComponent(assetID)}&rate=${rate}&from=${encodeURIComponent(window.marquee?.session?.id ?? '')}`;
    if (!tv) {
      location.assign(`/remote?${handoff}&pair=1`);
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
  });
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', install); else install();
