// On the TV's /devices page: the Marquee devices advertising nearby (DNS-SD through the
// server, GET /api/devices/nearby), those offering the remote service, refreshed every 10 s
// while the page is visible. Each shows its platform and services; a device pairs by asking
// from its side (it then appears under "Asking to pair" with its code).
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
  item.append(main);
  return item;
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
refresh();
setInterval(refresh, 10000);
document.addEventListener('visibilitychange', refresh);
