// Which playback sessions this browser's own player pages created, kept in localStorage so
// every Marquee page of the browser (any tab) knows which Now playing activities are its own,
// and the channel those pages talk over (a page continuing a session asks the old one to stop).
const KEY = 'marquee.nowPlaying.sessions';
const KEEP_MS = 24 * 3600 * 1000;
export const CHANNEL = 'marquee-now-playing';

function read() {
  try {
    const stored = JSON.parse(localStorage.getItem(KEY) ?? '{}');
    return stored && typeof stored === 'object' ? stored : {};
  } catch {
    return {};
  }
}

function write(sessions) {
  try { localStorage.setItem(KEY, JSON.stringify(sessions)); } catch { /* private mode: this page only */ }
}

/** Session ids this browser's players created in the last day. */
export function ownSessions() {
  const now = Date.now();
  return new Set(Object.entries(read()).filter(([, at]) => now - at < KEEP_MS).map(([id]) => id));
}

/** Notes a session a player page of this browser created. */
export function rememberSession(id) {
  const now = Date.now();
  const sessions = Object.fromEntries(Object.entries(read()).filter(([, at]) => now - at < KEEP_MS));
  sessions[id] = now;
  write(sessions);
}

/** Forgets a session (it moved to another page or ended). */
export function forgetSession(id) {
  const sessions = read();
  delete sessions[id];
  write(sessions);
}

const TAB_KEY = 'marquee.nowPlaying.tabSession';

/**
 * Notes `id` as the session of this tab's player and forgets the one the tab played before
 * (a reload, or another video opened in the same tab): that player is gone, and its island
 * would otherwise sit frozen over the new picture until the server ends its activity.
 */
export function claimTabSession(id) {
  let previous = null;
  try {
    previous = sessionStorage.getItem(TAB_KEY);
    sessionStorage.setItem(TAB_KEY, id);
  } catch { /* no sessionStorage: nothing to forget */ }
  if (previous && previous !== id) forgetSession(previous);
  rememberSession(id);
  return previous && previous !== id ? previous : null;
}

/** The channel between this browser's Marquee pages, or null where there is none. */
export function openChannel() {
  return typeof BroadcastChannel === 'function' ? new BroadcastChannel(CHANNEL) : null;
}
