// Strings of the edit sheet's Subtitles section and of dropping subtitle files on an item,
// in English and Japanese; the library page adds them to i18n.js's table (`addStrings`).

export const subtitleStrings = {
  en: {
    subtitleFiles: 'Subtitles', subtitleFilesNone: 'No subtitle files added yet.',
    subtitleLanguage: 'Language', subtitleLanguageHint: 'en, ja, pt-BR…', subtitleLabel: 'Label', subtitleLabelHint: 'Shown in the player’s subtitle menu',
    subtitleAddFile: 'Add subtitle file…', subtitleFileHint: 'SubRip (.srt), WebVTT (.vtt) or ASS/SSA (.ass, .ssa); you can also drop one here',
    subtitleRemove: 'Remove subtitles “{l}”', subtitleAdded: 'Added subtitles “{l}”', subtitleAddedTo: 'Added subtitles “{l}” to “{t}”',
    subtitleRemoved: 'Removed subtitles “{l}”', subtitleAdding: 'Adding “{f}”…', subtitleNoLanguage: 'no language',
    subtitleForced: 'forced', subtitleCues: '{n} cues', subtitleCueOne: '1 cue', subtitleDropOnItem: 'Drop subtitle files on an item to add them to it',
  },
  ja: {
    subtitleFiles: '字幕', subtitleFilesNone: '追加された字幕ファイルはありません。',
    subtitleLanguage: '言語', subtitleLanguageHint: 'en、ja、pt-BR など', subtitleLabel: 'ラベル', subtitleLabelHint: 'プレーヤーの字幕メニューに表示されます',
    subtitleAddFile: '字幕ファイルを追加…', subtitleFileHint: 'SubRip (.srt)、WebVTT (.vtt)、ASS/SSA (.ass、.ssa)。ここにドロップしても追加できます',
    subtitleRemove: '字幕「{l}」を取り除く', subtitleAdded: '字幕「{l}」を追加しました', subtitleAddedTo: '「{t}」に字幕「{l}」を追加しました',
    subtitleRemoved: '字幕「{l}」を取り除きました', subtitleAdding: '「{f}」を追加しています…', subtitleNoLanguage: '言語なし',
    subtitleForced: '強制', subtitleCues: '{n}件', subtitleCueOne: '1件', subtitleDropOnItem: '字幕ファイルは項目の上にドロップすると追加されます',
  },
};
