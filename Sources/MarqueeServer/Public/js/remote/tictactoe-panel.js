// Tic-Tac-Toe on the web remote: the `tictactoe` service over its own device link (a device is
// paired per service, so the first game asks for the same code on both screens once more). The
// phone picks a character (`selectedCharacter`) and plays `move`s; the TV answers each with
// `gameState` and plays its own move; the TV shows the board on /devices.
import { addStrings, pickLanguage, setLanguage, t } from '../i18n.js';
import { remoteStrings } from './remote-strings.js';
import { LinkClient, linkURL } from '../devicelink/link-client.js';
import { MessageType } from '../devicelink/frame.js';
import { loadIdentity, rememberTV, trustsTV } from '../devicelink/identity-store.js';

addStrings(remoteStrings);
setLanguage(pickLanguage(navigator.languages));

const $ = (id) => document.getElementById(id);
const game = { link: null, state: null };
window.marqueeGame = game;

function board() {
  const grid = $('game-board');
  if (grid.children.length !== 9) {
    grid.replaceChildren(...Array.from({ length: 9 }, (_, index) => {
      const square = document.createElement('button');
      square.type = 'button';
      square.dataset.index = String(index);
      square.setAttribute('aria-label', t('rm_square', { n: index + 1 }));
      square.addEventListener('click', () => game.link?.isOpen && game.link.send(MessageType.move, { index }));
      return square;
    }));
  }
  return grid;
}

function render() {
  const s = game.state;
  const picking = !s?.phone;
  $('game-pick').hidden = !picking;
  const grid = board();
  grid.hidden = picking;
  [...grid.children].forEach((square, index) => {
    const mark = s?.board?.[index] ?? '';
    square.textContent = mark.toUpperCase();
    square.className = mark;
    square.disabled = Boolean(mark) || s?.outcome !== 'playing';
  });
  const status = !s ? '' : s.error ? s.error : picking ? t('rm_gamePick')
    : s.outcome === 'playing' ? t('rm_gameTurn', { phone: s.phone.toUpperCase() }) : t(`rm_game_${s.outcome}`);
  $('game-status').textContent = status;
  $('game-panel').dataset.outcome = s?.outcome ?? '';
}

async function open() {
  $('game-open').hidden = true;
  $('game-panel').hidden = false;
  $('game-status').textContent = t('rm_connecting');
  const link = new LinkClient({
    url: linkURL(), identity: await loadIdentity(), service: 'tictactoe', purpose: 'pair', trustsPeer: trustsTV,
    session: sessionStorage.getItem('marquee.remote.session') ?? `game-${Date.now()}`,
  });
  game.link = link;
  link.addEventListener('code', (event) => {
    $('code-panel').hidden = false;
    $('code').textContent = `${event.code.slice(0, 3)} ${event.code.slice(3)}`;
    $('code-approve').disabled = $('code-reject').disabled = false;
    $('code-approve').onclick = () => { $('code-approve').disabled = $('code-reject').disabled = true; event.approve(true); };
    $('code-reject').onclick = () => event.approve(false);
  });
  link.addEventListener('open', (event) => {
    rememberTV(event.peer, 'tictactoe');
    $('code-panel').hidden = true;
  });
  link.addEventListener('message', (event) => {
    if (event.messageType !== MessageType.gameState) return;
    game.state = event.body;
    render();
  });
  link.addEventListener('close', (event) => {
    if (event.reason !== 'closed-locally') $('game-status').textContent = t('rm_closed', { reason: event.reason });
    $('code-panel').hidden = true;
  });
  try { await link.connect(); } catch { /* the close event said why */ }
}

$('game-title').textContent = t('rm_gameTitle');
$('game-open').textContent = t('rm_gameOpen');
for (const id of ['pick-x', 'pick-o']) {
  $(id).addEventListener('click', () => game.link?.isOpen && game.link.send(MessageType.selectedCharacter, { character: $(id).dataset.character }));
}
$('game-open').addEventListener('click', open);
// Offered once the remote is connected (the page shows its controls).
new MutationObserver(() => {
  $('game-open').hidden = $('remote').dataset.state !== 'connected' || game.link !== null;
}).observe($('remote'), { attributes: true, attributeFilter: ['data-state'] });
