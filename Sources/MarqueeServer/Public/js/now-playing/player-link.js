// The player page's side of the Now playing island: it notes the session as this browser's
// own, continues a session handed over from another tab (`?from=`), stops when another tab
// takes its session over, and shows the island for the browser's other players — and for its
// own when its picture is out of sight (scrolled away or the page hidden).
import { NowPlayingIsland, takeOver } from './island.js';
import { claimTabSession, forgetSession, openChannel } from './own-sessions.js';

/** `release(message)` stops this page's player: another tab continues its session. */
export function linkNowPlaying({ sessionID, video, release }) {
  claimTabSession(sessionID);
  // A player that goes away (closed, reloaded, left) is no longer this browser's to show.
  addEventListener('pagehide', (event) => { if (!event.persisted) forgetSession(sessionID); });
  const channel = openChannel();
  const from = new URLSearchParams(location.search).get('from');
  if (from && from !== sessionID) takeOver(from, channel);
  if (channel) {
    channel.addEventListener('message', (event) => {
      if (event.data?.type === 'handoff' && event.data.sessionID === sessionID) release();
    });
  }
  let inSight = true;
  const island = new NowPlayingIsland({
    hiddenSession: () => (inSight && document.visibilityState === 'visible' ? sessionID : null),
    onReturn: (fields) => {
      if (fields.sessionID !== sessionID) return false;
      video.scrollIntoView({ block: 'center' });
      return true;
    },
  });
  if (typeof IntersectionObserver === 'function') {
    new IntersectionObserver(([entry]) => { inSight = entry.intersectionRatio >= 0.5; island.render(); }, { threshold: [0, 0.5, 1] }).observe(video);
  }
  return island;
}
