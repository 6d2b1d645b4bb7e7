// Strings of the home screen's rows (Continue watching, Next up, Recently added), in English
// and Japanese; the library page adds them to i18n.js's table.

export const homeStrings = {
  en: {
    homeContinue: 'Continue watching', homeNextUp: 'Next up', homeRecent: 'Recently added', homeAll: 'All items',
    homeMinutesLeft: '{n} min left', homeUnderMinuteLeft: 'Less than a minute left',
    homeProgress: 'Progress in {t}', homeAfter: 'After {t}',
  },
  ja: {
    homeContinue: '視聴を続ける', homeNextUp: '次のエピソード', homeRecent: '最近追加された項目', homeAll: 'すべての項目',
    homeMinutesLeft: '残り{n}分', homeUnderMinuteLeft: '残り1分未満',
    homeProgress: '{t}の視聴状況', homeAfter: '{t}の次',
  },
};
