// The Live Activity events (/api/activities/events, Server-Sent Events) shared by all of this
// browser's Marquee pages over one connection: the page holding a Web Lock keeps the event
// stream and passes every event on over a BroadcastChannel; the others listen, and ask it for
// the current list when they open. A browser allows six HTTP/1.1 connections to a server, and
// a stream per tab would starve a player's segment requests once a few tabs are open. Where
// Web Locks are missing (an http:// page off loopback is not a secure context) each page opens
// its own stream.
const LOCK = 'marquee-activity-feed';
const CHANNEL = 'marquee-activity-feed';

/** Calls `deliver(type, data)` for `snapshot` (the list), `activity`, `alert` and `dismissed`. */
export function followActivities(deliver) {
  const shared = typeof BroadcastChannel === 'function' && navigator.locks?.request;
  if (!shared) {
    openStream(deliver);
    return;
  }
  const channel = new BroadcastChannel(CHANNEL);
  let leading = false;
  const current = new Map(); // the leader's view, for pages that open later
  channel.addEventListener('message', (event) => {
    const message = event.data ?? {};
    if (message.type === 'hello') {
      if (leading) channel.postMessage({ type: 'snapshot', data: [...current.values()] });
      return;
    }
    if (!leading && message.type) deliver(message.type, message.data);
  });
  navigator.locks.request(LOCK, () => new Promise(() => {
    leading = true;
    openStream((type, data) => {
      if (type === 'snapshot') { current.clear(); for (const a of data) current.set(a.id, a); }
      if (type === 'activity') current.set(data.id, data);
      if (type === 'dismissed') current.delete(data.id);
      deliver(type, data);
      channel.postMessage({ type, data });
    });
  })).catch(() => openStream(deliver));
  channel.postMessage({ type: 'hello' });
}

function openStream(deliver) {
  const source = new EventSource('/api/activities/events');
  for (const type of ['snapshot', 'activity', 'alert', 'dismissed']) {
    source.addEventListener(type, (event) => deliver(type, JSON.parse(event.data)));
  }
  return source;
}
