// On the TV's /devices page: the web remote's address as a QR code and as text, so a phone's
// camera or its person can open it. The address is one a phone on the local network can reach:
// this page's own when it was opened over the network, otherwise one of the TV's interface
// addresses from GET /api/devices (none when the server listens on loopback only: then the
// hint says how to serve on the network).
import { addStrings, pickLanguage, setLanguage, t } from '../i18n.js';
import { remoteStrings } from './remote-strings.js';
import { encodeQR, qrSVG } from '../devicelink/qr-code.js';
import { isScreen, setScreen } from './screen-listener.js';

addStrings(remoteStrings);
setLanguage(pickLanguage(navigator.languages));

const $ = (id) => document.getElementById(id);
const loopback = (host) => host === 'localhost' || host.startsWith('127.') || host === '[::1]';

/** The address to show: this page's origin if a phone can reach it, else the TV's first LAN address. */
export function webRemoteURL(location, addresses) {
  if (!loopback(location.hostname)) return `${location.origin}/remote`;
  if (addresses.length) return `${location.protocol}//${addresses[0]}${location.port ? `:${location.port}` : ''}/remote`;
  return `${location.origin}/remote`;
}

async function show() {
  const section = $('web-remote');
  if (!section) return;
  let addresses = [];
  try {
    const response = await fetch('/api/devices');
    if (response.ok) addresses = (await response.json()).webRemoteAddresses ?? [];
  } catch { /* the page's own origin still works on this machine */ }
  const url = webRemoteURL(location, addresses);
  $('web-remote-title').textContent = t('rm_webRemoteTitle');
  $('web-remote-url').textContent = url.replace(/^https?:\/\//, '');
  $('web-remote-url').href = url;
  $('web-remote-qr').innerHTML = qrSVG(encodeQR(url, { ecc: 'M' }), { label: t('rm_webRemoteQR', { url }) });
  const reachable = !loopback(location.hostname) || addresses.length > 0;
  $('web-remote-hint').textContent = reachable ? t('rm_webRemoteHint') : t('rm_webRemoteLoopback');
  section.dataset.url = url;
  const screen = $('screen-switch');
  $('screen-switch-label').textContent = t('rm_screenSwitch');
  screen.checked = isScreen();
  screen.onchange = () => setScreen(screen.checked);
}

show();
