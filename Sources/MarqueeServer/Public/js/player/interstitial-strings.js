// The interstitial (ad break) strings of the player and its break editor, in English and Japanese.
export const interstitialStrings = {
  en: {
    adPosition: 'Ad {n} of {count} · {t}', skipAd: 'Skip ad', adBreaks: 'Ad breaks', closeAdBreaks: 'Close ad breaks',
    breakPlace: 'When', atCurrentTime: 'Here ({t})', preRoll: 'Before the video', postRoll: 'After the video',
    breakAd: 'Ad', restrictSkip: 'No seeking or fast play in the ad', restrictJump: 'Plays before a seek past it',
    playOnce: 'Play once per viewing', skipAfter: 'Skip button after (seconds, empty for none)', addBreak: 'Add break',
    deleteBreak: 'Delete', noBreaks: 'No ad breaks yet.', noAds: 'The library has no ads yet (upload one as an interstitial).',
    breakAt: 'At {t}', breakBefore: 'Before the video', breakAfter: 'After the video', breakSaved: 'Ad break saved',
    breakDeleted: 'Ad break deleted', skippable: 'skip after {s} s', restricted: 'restricted',
  },
  ja: {
    adPosition: '広告 {n}/{count} · {t}', skipAd: '広告をスキップ', adBreaks: '広告枠', closeAdBreaks: '広告枠を閉じる',
    breakPlace: 'タイミング', atCurrentTime: 'ここ ({t})', preRoll: '本編の前', postRoll: '本編の後',
    breakAd: '広告', restrictSkip: '広告中のシークと早送りを禁止', restrictJump: 'シークで飛ばす前に再生',
    playOnce: '1回の視聴で1度だけ再生', skipAfter: 'スキップボタンの表示まで(秒、空欄でなし)', addBreak: '広告枠を追加',
    deleteBreak: '削除', noBreaks: '広告枠はまだありません。', noAds: 'ライブラリに広告がありません(インタースティシャルとしてアップロードしてください)。',
    breakAt: '{t} に', breakBefore: '本編の前', breakAfter: '本編の後', breakSaved: '広告枠を保存しました',
    breakDeleted: '広告枠を削除しました', skippable: '{s}秒後にスキップ可', restricted: '制限あり',
  },
};
