// The Now playing island's strings in English and Japanese (keys start with `island` so they
// never replace a host page's own strings; `stale` and `ended` are the presentations' badges).
export const islandStrings = {
  en: {
    islandNowPlaying: 'Now Playing', islandPaused: 'Paused', islandReturn: 'Tap to return to the player',
    islandLabel: 'Now playing: {title}, {state}, {position}', islandPlaying: 'playing', islandPausedState: 'paused',
    islandContinued: 'This video continues in another tab.',
  },
  ja: {
    islandNowPlaying: '再生中', islandPaused: '一時停止中', islandReturn: 'タップしてプレーヤーに戻る',
    islandLabel: '再生中: {title}、{state}、{position}', islandPlaying: '再生中', islandPausedState: '一時停止中',
    islandContinued: 'このビデオは別のタブで再生を続けています。',
  },
};

/** The presentations' badge words, for pages that do not have them already. */
export const badgeStrings = {
  en: { stale: 'Out of date', ended: 'Ended' },
  ja: { stale: '情報が古くなっています', ended: '終了' },
};
