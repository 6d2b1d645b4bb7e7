// On the TV's /devices page: the Marquee devices advertising nearby (DNS-SD through the
// server, GET /api/devices/nearby), those offering the remote service, refreshed every 10 s
// while the page is visible. Each shows its platform and services. Choosing one (Pair) makes
// the TV ask it to pair (POST /api/devices/pairings): both show the same six digits and each
// person approves; the TV's side appears under "Asking to pair" with the code. A device that is
// not advertised (or on a network without multicast) is chosen by its address in the form.
import { addStrings, pickLanguage, setLanguage, t } from '../i18n.js';
import { remoteStrings } from './remote-strings.js';

addStrings(remoteStrings);
setLanguage(pickLanguage(navigator.languages));

const $ = (id) => document.getElementById(id);

function row(device) {
  const item = document.createElement('li');
  item.className = 'device';
  item.dataset.deviceId = device.deviceID ?? '';
  const main = document.createElement('div');
  main.className = 'device-main';
  const name = document.createElement('span');
  name.className = 'device-name';
  name.textContent = device.name;
  const line = document.createElement('span');
  line.className = 'device-line';
  line.textContent = t('rm_nearbyLine', { platform: device.platform ?? '?', services: device.services.join(', '), address: device.addresses[0] ?? device.host });
  main.append(name, line);
  const pair = document.createElement('button');
  pair.type = 'button';
  pair.className = 'choose';
  pair.textContent = t('rm_choosePair');
  pair.addEventListener('click', () => choose({
    host: device.addresses[0] ?? device.host, port: device.port, fingerprint: device.fingerprint ?? undefined,
    role: device.role === 'remote' ? 'remote' : 'tv', name: device.name,
  }, pair));
  item.append(main, pair);
  return item;
}

/** Asks the TV to pair with a chosen device; the progress shows in the page's lists. */
async function choose(target, control) {
  control.disabled = true;
  const error = $('error');
  try {
    const response = await fetch('/api/devices/pairings', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(target),
    });
    if (!response.ok) {
      const body = await response.json().catch(() => null);
      throw new Error(body?.error?.message ?? `HTTP ${response.status}`);
    }
    if (error) error.hidden = true;
  } catch (problem) {
    if (error) { error.textContent = problem.message; error.hidden = false; }
  } finally {
    control.disabled = false;
  }
}

/** "host:port", "[v6]:port" → {host, port}; null when it is not an address. */
export function parseAddress(text) {
  const match = /^\s*(?:\[([^\]]+)\]|([^\s:\/]+)):(\d{1,5})\s*$/.exec(text);
  if (!match) return null;
  const port = Number(match[3]);
  return port >= 1 && port <= 65535 ? { host: match[1] ?? match[2], port } : null;
}

function installForm() {
  const form = $('choose-form');
  if (!form) return;
  $('choose-label').textContent = t('rm_chooseByAddress');
  $('choose-button').textContent = t('rm_choosePair');
  $('choose-role').setAttribute('aria-label', t('rm_chooseRole'));
  $('choose-role').options[0].textContent = t('rm_roleTV');
  $('choose-role').options[1].textContent = t('rm_roleRemote');
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const address = parseAddress($('choose-address').value);
    if (!address) {
      $('error').textContent = t('rm_chooseBadAddress');
      $('error').hidden = false;
      return;
    }
    choose({ ...address, role: $('choose-role').value }, $('choose-button'));
  });
}

async function refresh() {
  if (document.hidden) return;
  const list = $('nearby');
  if (!list) return;
  try {
    const response = await fetch('/api/devices/nearby?service=remote');
    const body = await response.json();
    if (!response.ok) throw new Error(body?.error?.message ?? `HTTP ${response.status}`);
    list.replaceChildren(...body.devices.map(row));
    $('nearby-status').textContent = body.problem ? t('rm_nearbyProblem', { problem: body.problem })
      : body.devices.length ? '' : t('rm_nearbyNone');
  } catch (error) {
    $('nearby-status').textContent = t('rm_nearbyProblem', { problem: error.message });
  }
}

$('nearby-title').textContent = t('rm_nearbyTitle');
installForm();
refresh();
setInterval(refresh, 10000);
document.addEventListener('visibilitychange', refresh);
