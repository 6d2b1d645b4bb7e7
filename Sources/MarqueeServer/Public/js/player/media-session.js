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
  // What the browser was last told, so that each time update (four a second) tells it only what
  // it cannot work out itself: a change of state, rate or length, or a position more than half
  // a second from where the last one, played on at its rate, would be now.
  let told = null;
  return {
    update(state) {
      const playbackState = state.playing ? 'playing' : 'paused';
      if (session.playbackState !== playbackState) session.playbackState = playbackState;
      if (!(state.duration > 0) || !session.setPositionState) return;
      const position = { duration: state.duration, position: Math.min(state.time, state.duration), playbackRate: state.rate || 1 };
      const now = performance.now();
      if (told && told.playing === state.playing && told.duration === position.duration && told.playbackRate === position.playbackRate) {
        const expected = told.position + (state.playing ? ((now - told.at) / 1000) * told.playbackRate : 0);
        if (Math.abs(expected - position.position) < 0.5) return;
      }
      try {
        session.setPositionState(position);
        told = { ...position, playing: state.playing, at: now };
      } catch { /* ignore inconsistent positions during seeks */ }
    },
  };
}
