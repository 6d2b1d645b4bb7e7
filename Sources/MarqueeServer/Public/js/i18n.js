// Interface strings in English and Japanese. The player takes its language from its
// session (decided in Swift from the browser's languages); the library page picks the
// first of navigator.languages that it speaks. Pages and components add their own strings
// (`addStrings`); this table holds only what several of them share.

const strings = {
  en: {
    library: 'Library', search: 'Search', searchPlaceholder: 'Search titles', noResults: 'Nothing matches “{q}”.',
    empty: 'The library is empty. Sample clips are being made…', loadingLibrary: 'Loading…',
    pending: 'Waiting to be packaged', processing: 'Packaging {p}%', failed: 'Failed: {m}', retry: 'Retry',
    missing: 'Source file missing', play: 'Play', pause: 'Pause', skipBack: 'Back {s} seconds', skipForward: 'Forward {s} seconds',
    moreInfo: 'More info', closeInfo: 'Close info', timeline: 'Timeline', elapsed: 'Elapsed', remaining: 'Remaining',
    captions: 'Subtitles', captionsOn: 'Subtitles on', captionsOff: 'Subtitles off', audioAndSubtitles: 'Audio and subtitles',
    audio: 'Audio', subtitles: 'Subtitles', off: 'Off', pip: 'Picture in Picture', fullscreen: 'Full screen',
    exitFullscreen: 'Exit full screen', more: 'More', playbackSpeed: 'Playback speed', keyboardShortcuts: 'Keyboard shortcuts',
    loading: 'Loading', errorTitle: 'This video can’t be played', ad: 'Ad', adRemaining: 'Ad · {t}',
    replay: 'Replay',
    back: 'Library', fit: 'Fit', fill: 'Fill', refused: 'Not available right now',
    helpPlayPause: 'Play or pause', helpSkip: 'Back or forward {s} seconds', helpVolume: 'Volume up or down', helpMute: 'Mute',
    helpFullscreen: 'Full screen', helpCaptions: 'Subtitles on or off', helpInfo: 'Info', helpSpeed: 'Slower or faster',
    helpJump: 'Jump to 0%–90%', helpHelp: 'This help', duration: '{t}',
    mute: 'Mute', volume: 'Volume', backToLibrary: 'Back to Library',
  },
  ja: {
    library: 'ライブラリ', search: '検索', searchPlaceholder: 'タイトルを検索', noResults: '「{q}」に一致する項目はありません。',
    empty: 'ライブラリは空です。サンプルを作成しています…', loadingLibrary: '読み込み中…',
    pending: 'パッケージ化を待っています', processing: 'パッケージ化中 {p}%', failed: '失敗: {m}', retry: '再試行',
    missing: '元のファイルが見つかりません', play: '再生', pause: '一時停止', skipBack: '{s}秒戻る', skipForward: '{s}秒進む',
    moreInfo: '詳細情報', closeInfo: '詳細を閉じる', timeline: 'タイムライン', elapsed: '経過時間', remaining: '残り時間',
    captions: '字幕', captionsOn: '字幕オン', captionsOff: '字幕オフ', audioAndSubtitles: 'オーディオと字幕',
    audio: 'オーディオ', subtitles: '字幕', off: 'オフ', pip: 'ピクチャ・イン・ピクチャ', fullscreen: 'フルスクリーン',
    exitFullscreen: 'フルスクリーンを終了', more: 'その他', playbackSpeed: '再生速度', keyboardShortcuts: 'キーボードショートカット',
    loading: '読み込み中', errorTitle: 'このビデオは再生できません', ad: '広告', adRemaining: '広告 · {t}',
    replay: 'もう一度再生',
    back: 'ライブラリ', fit: 'フィット', fill: 'フィル', refused: '現在は利用できません',
    helpPlayPause: '再生/一時停止', helpSkip: '{s}秒戻る/進む', helpVolume: '音量を上げる/下げる', helpMute: '消音',
    helpFullscreen: 'フルスクリーン', helpCaptions: '字幕のオン/オフ', helpInfo: '詳細情報', helpSpeed: '遅く/速く',
    helpJump: '0%〜90%へ移動', helpHelp: 'このヘルプ', duration: '{t}',
    mute: '消音', volume: '音量', backToLibrary: 'ライブラリに戻る',
  },
};

// The library's badges, as BadgeInspector names them; names not listed show as they are.
const badges = {
  ja: { Multilingual: '多言語', Lossless: 'ロスレス' },
};

let current = 'en';

/** Picks "ja" or "en" from a list of BCP 47 tags, first match wins. */
export function pickLanguage(tags) {
  for (const tag of tags || []) {
    const primary = String(tag).toLowerCase().split(/[-_]/)[0];
    if (primary in strings) return primary;
  }
  return 'en';
}

/**
 * A page's language: the address's `?lang=` when it names one spoken here ("ja", "ja-JP"),
 * else the first of the browser's languages that is spoken, else English.
 */
export function pageLanguage(search = globalThis.location?.search ?? '', tags = globalThis.navigator?.languages) {
  const asked = new URLSearchParams(search).get('lang');
  const primary = asked?.toLowerCase().split(/[-_]/)[0];
  return primary && primary in strings ? primary : pickLanguage(tags);
}

export function setLanguage(language) {
  current = language in strings ? language : 'en';
  document.documentElement.lang = current;
}

export function language() { return current; }

/** The string for `key` in the current language, with {placeholders} filled from `values`. */
export function t(key, values = {}) {
  const template = strings[current][key] ?? strings.en[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ''));
}

/** A badge's name in the current language ("Multilingual" → 「多言語」). */
export function badgeName(name) {
  return badges[current]?.[name] ?? name;
}

/** 75 → "1:15", 3725 → "1:02:05". */
export function formatTime(seconds) {
  if (!Number.isFinite(seconds) || seconds < 0) seconds = 0;
  const whole = Math.floor(seconds);
  const h = Math.floor(whole / 3600), m = Math.floor((whole % 3600) / 60), s = whole % 60;
  const pad = (n) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

/** Adds a page's own strings ({en: {...}, ja: {...}}) to the tables. */
export function addStrings(table) {
  for (const [language, entries] of Object.entries(table)) Object.assign(strings[language] ??= {}, entries);
}
