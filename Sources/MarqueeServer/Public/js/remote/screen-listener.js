// On the TV's own browser: listens on /api/devices/screen for "Play on…" from a paired remote
// and opens the player at that item and time. Only a browser marked as the TV's screen listens
// (the switch on /devices, or any page opened with ?screen=1), so a laptop browsing the same
// library is never taken over.
const FLAG = 'marquee.screen';

export function isScreen() {
  try { return localStorage.getItem(FLAG) === '1'; } catch { return false; }
}

export function setScreen(on) {
  try { if (on) localStorage.setItem(FLAG, '1'); else localStorage.removeItem(FLAG); } catch { /* no storage */ }
  if (on) listen(); else stop();
}

/** The player URL for a play request (an invitation's link, when it asks to watch together). */
export function playerURL(request) {
  if (typeof request.together === 'string' && /^[A-Za-z0-9_-]{16,64}$/.test(request.together)) {
    const name = typeof request.name === 'string' && request.name ? `?name=${encodeURIComponent(request.name)}` : '';
    return `/together/${request.together}${name}`;
  }
  const query = new URLSearchParams();
  if (Number(request.time) > 0) query.set('t', String(Math.round(Number(request.time) * 10) / 10));
  // The speed it played at on the other device (the player selects it when the session offers it).
  const rate = Number(request.rate);
  if (Number.isFinite(rate) && rate > 0 && rate !== 1) query.set('rate', String(rate));
  const text = query.toString();
  return `/watch/${encodeURIComponent(request.assetID)}${text ? `?${text}` : ''}`;
}

let socket = null;
let delay = 500;

function listen() {
  if (socket) return;
  const url = new URL('/api/devices/screen', location.href);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  socket = new WebSocket(url);
  socket.onopen = () => { delay = 500; document.documentElement.dataset.screen = 'listening'; };
  socket.onmessage = (event) => {
    let request;
    try { request = JSON.parse(event.data); } catch { return; }
    if (typeof request?.assetID !== 'string') return;
    location.assign(playerURL(request));
  };
  socket.onclose = () => {
    socket = null;
    delete document.documentElement.dataset.screen;
    if (isScreen()) setTimeout(listen, delay);
    delay = Math.min(delay * 2, 10000);
  };
}

function stop() {
  const open = socket;
  socket = null;
  open?.close();
}

if (new URLSearchParams(location.search).get('screen') === '1') setScreen(true);
if (isScreen()) listen();
