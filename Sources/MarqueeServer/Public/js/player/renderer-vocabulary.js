// Every name of the renderer protocol (docs/renderer-protocol.md), as the page uses them.
// The Swift side is `RendererVocabulary` in Sources/MarqueeServer/Sessions/RendererMessage.swift;
// a Swift test checks that the two lists agree.
export const INTENT = Object.freeze({
  play: 'play', pause: 'pause', togglePlayPause: 'toggle-play-pause', skip: 'skip', skipInterval: 'skip-interval',
  skipInterstitial: 'skip-interstitial', seek: 'seek', seekToFraction: 'seek-to-fraction', selectSpeed: 'select-speed',
  stepSpeed: 'step-speed', selectAudio: 'select-audio', selectSubtitles: 'select-subtitles', toggleCaptions: 'toggle-captions',
  setVolume: 'set-volume', setMuted: 'set-muted', upNext: 'up-next',
});

export const REPORT = Object.freeze({
  ready: 'ready', time: 'time', playing: 'playing', stalled: 'stalled', ended: 'ended', failed: 'failed',
  interstitialFailed: 'interstitial-failed', autoplayBlocked: 'autoplay-blocked',
  volume: 'volume',
  interstitialAssetList: 'interstitial-asset-list',
});

export const COMMAND = Object.freeze({
  play: 'play', pause: 'pause', seek: 'seek', playInterstitial: 'play-interstitial', resumePrimary: 'resume-primary',
  selectAudio: 'select-audio', selectSubtitles: 'select-subtitles',
  setVolume: 'set-volume',
  playInterstitialAsset: 'play-interstitial-asset',
});
