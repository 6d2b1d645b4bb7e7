// The nearby-devices page (/devices), like Apple's device picker: the app's icon and the usage
// description of each application service on the left; on the right, the devices asking to
// pair with the code they show (approve or reject) and the paired devices (revoke). The
// server decides; the page polls GET /api/devices once a second.
import { addStrings, language, pickLanguage, setLanguage, t } from './i18n.js';
import { deviceStrings } from './devices-strings.js';

addStrings(deviceStrings);
setLanguage(pickLanguage(navigator.languages));

const $ = (id) => document.getElementById(id);
let rendered = '';

function applyStrings() {
  document.title = `Marquee — ${t('nearbyDevices')}`;
  $('devices-title').textContent = t('nearbyDevices');
  $('library-link').textContent = t('library');
  $('pending-title').textContent = t('askingToPair');
  $('paired-title').textContent = t('pairedDevices');
  $('no-pending').textContent = t('noPending');
  $('no-paired').textContent = t('noPaired');
}

function serviceName(id) {
  const key = `service_${id}`;
  const name = t(key);
  return name === key ? id : name;
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

async function send(method, path, body) {
  const response = await fetch(path, { method, headers: { 'content-type': 'application/json' }, body: body && JSON.stringify(body) });
  if (!response.ok) {
    const problem = await response.json().catch(() => null);
    throw new Error(problem?.error?.message ?? `HTTP ${response.status}`);
  }
}

function button(label, className, action) {
  const node = element('button', className, label);
  node.type = 'button';
  node.addEventListener('click', async () => {
    node.disabled = true;
    try { await action(); $('error').hidden = true; } catch (error) { $('error').textContent = error.message; $('error').hidden = false; }
    await refresh();
  });
  return node;
}

function renderGame(game) {
  $('game').hidden = !game;
  if (!game) return;
  $('game-title').textContent = serviceName('tictactoe');
  const names = { device: game.device, phone: (game.phone ?? '').toUpperCase(), tv: (game.tv ?? '').toUpperCase() };
  $('game-status').textContent = game.phone == null ? t('game_pick', names)
    : game.outcome === 'playing' ? t('game_playing', names) : t(`game_${game.outcome}`, names);
  $('board').replaceChildren(...game.board.map((mark, index) => {
    const square = element('div', `square ${mark}`, mark.toUpperCase());
    square.setAttribute('role', 'gridcell');
    square.dataset.index = index;
    return square;
  }));
}

function render(overview) {
  const key = JSON.stringify([overview.pending, overview.paired, overview.outgoing, overview.services, overview.pairingLockedFor && Math.ceil(overview.pairingLockedFor / 60),
                              overview.games?.[0], language()]);
  if (key === rendered) return;
  rendered = key;
  renderGame(overview.games?.[0]);

  $('services').replaceChildren(...overview.services.map((service) => {
    const item = element('li');
    item.append(element('strong', '', serviceName(service.identifier)),
      element('span', '', service.usageDescription[language()] ?? service.usageDescription.en ?? ''));
    return item;
  }));
  $('reach').textContent = overview.port == null ? t('reachOff')
    : overview.advertised ? t('reachAdvertised', { name: overview.name, port: overview.port })
    : t('reachNotAdvertised', { port: overview.port, reason: overview.advertisingProblem ?? '' });

  $('locked').hidden = overview.pairingLockedFor == null;
  if (overview.pairingLockedFor != null) $('locked').textContent = t('locked', { minutes: Math.ceil(overview.pairingLockedFor / 60) });

  $('no-pending').hidden = overview.pending.length > 0;
  $('pending').replaceChildren(...overview.pending.map((pairing) => {
    const item = element('li', 'device pending');
    item.dataset.pairing = pairing.id;
    const main = element('div', 'device-main');
    item.dataset.direction = pairing.direction ?? 'incoming';
    const outgoing = pairing.direction === 'outgoing';
    main.append(element('span', 'device-name', pairing.name),
      element('span', 'device-line', t(outgoing ? 'askingDevice' : 'wantsService', { platform: pairing.platform, service: serviceName(pairing.service), name: pairing.name })),
      element('span', 'device-line', t('codeHint', { name: pairing.name })));
    const code = element('span', 'pairing-code', `${pairing.code.slice(0, 3)} ${pairing.code.slice(3)}`);
    item.append(main, code,
      button(t('reject'), 'reject', () => send('POST', `/api/devices/pairings/${pairing.id}`, { approved: false })),
      button(t('approve'), 'primary approve', () => send('POST', `/api/devices/pairings/${pairing.id}`, { approved: true })));
    return item;
  }));

  // Pairings this TV started with a chosen device: connecting, confirming (the code is above,
  // under "Asking to pair"), paired, or why it failed.
  $('outgoing').replaceChildren(...(overview.outgoing ?? []).filter((p) => p.state !== 'confirming').map((pairing) => {
    const item = element('li', `device outgoing ${pairing.state}`);
    item.dataset.outgoing = pairing.id;
    item.dataset.state = pairing.state;
    const main = element('div', 'device-main');
    main.append(element('span', 'device-name', pairing.name),
      element('span', 'device-line', t(`outgoing_${pairing.state}`, { name: pairing.name, message: pairing.message ?? '' })));
    item.append(main);
    return item;
  }));

  $('no-paired').hidden = overview.paired.length > 0;
  const dates = new Intl.DateTimeFormat(language(), { dateStyle: 'medium', timeStyle: 'short' });
  $('paired').replaceChildren(...overview.paired.map((device) => {
    const item = element('li', 'device');
    item.dataset.device = device.id;
    const main = element('div', 'device-main');
    main.append(element('span', 'device-name', device.name),
      element('span', 'device-line', t('pairedOn', { platform: device.platform, services: device.services.map(serviceName).join(', '),
                                                     date: dates.format(new Date(device.pairedAt)) })));
    item.append(main, button(t('revoke'), 'revoke', () => send('DELETE', `/api/devices/${device.id}`)));
    return item;
  }));
}

async function refresh() {
  try {
    const response = await fetch('/api/devices', { cache: 'no-store' });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    render(await response.json());
  } catch (error) {
    $('error').textContent = t('failed', { message: error.message });
    $('error').hidden = false;
  }
}

applyStrings();
refresh();
setInterval(refresh, 1000);
