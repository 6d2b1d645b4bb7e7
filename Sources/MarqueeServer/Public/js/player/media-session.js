// Media Session: title, subtitle and artwork in the browser's and the OS's now-playing UI,
// and hardware media keys routed to the session as intents.

export function installMediaSession(metadata, actions) {
  if (!('mediaSession' in navigator)) return { update() {} };
  const session = navigator.mediaSession;
  session.metadata = new MediaMetadata({
    title: metadata.title ?? '',
    artist: metadata.subtitle ?? '',
    album: metadata.seriesTitle ?? 'Marquee',
    artwork: metadata.artworkURL ? [{ src: new URL(metadata.artworkURL, location.href).href, sizes: '1280x720', type: 'image/jpeg' }] : [],
  });
  const handlers = {
    play: () => actions.play(),
    pause: () => actions.pause(),
    seekbackward: (details) => (details.seekOffset ? actions.skip(-details.seekOffset) : actions.skipStep(-1)),
    seekforward: (details) => (details.seekOffset ? actions.skip(details.seekOffset) : actions.skipStep(1)),
    seekto: (details) => actions.seek(details.seekTime),
    previoustrack: null,
    nexttrack: null,
  };
  for (const [action, handler] of Object.entries(handlers)) {
    try { session.setActionHandler(action, handler); } catch { /* unsupported action */ }
  }
  return {
    update(state) {
      session.playbackState = state.playing ? 'playing' : 'paused';
      if (state.duration > 0 && session.setPositionState) {
        try {
          session.setPositionState({ duration: state.duration, position: Math.min(state.time, state.duration), playbackRate: state.rate || 1 });
        } catch { /* ignore inconsistent positions during seeks */ }
      }
    },
  };
}
