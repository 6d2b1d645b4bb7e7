// The Live Activities page's strings in English and Japanese, added to i18n.js's tables.
export const activityStrings = {
  en: {
    liveActivities: 'Live Activities', library: 'Library', downloads: 'Downloads', iphone: 'iPhone', presentations: 'Presentations',
    standby: 'StandBy', nightMode: 'Night mode', close: 'Close', noActivities: 'No live activities right now.',
    pushesOn: 'Pushing to iPhones through APNs ({env}).', pushesOff: 'Pushes to iPhones are off: {reason}',
    pushesNotConfigured: 'Pushes to iPhones are off: APNs is not configured (marquee serve --apns-config FILE, or the MARQUEE_APNS_* variables).',
    lockScreen: 'Lock Screen', compact: 'Compact', minimal: 'Minimal', expanded: 'Expanded', dismiss: 'Dismiss',
    stale: 'Out of date', ended: 'Ended', pending: 'Starts {t}',
    downloading: 'Downloading', pausing: 'Pausing…', paused: 'Paused', failed: 'Failed', queued: 'Waiting', importing: 'Adding to the library',
    finished: 'Downloaded', cancelled: 'Cancelled', ofSize: '{done} of {total}', left: '{t} left',
    nowPlaying: 'Now Playing', pausedPlayback: 'Paused', upNextTitle: 'Up next: {title}', watchingTogether: 'Watching together · {n}', upNextIn: 'in {s} s', remaining: '−{t}',
    ingest: 'Adding to the library', ingestCount: '{n} in the queue', premiere: 'Premiere', startsIn: 'Starts in', premiereNow: 'Now playing',
    updated: 'Updated {t}', connectionLost: 'Live updates paused; reconnecting…',
  },
  ja: {
    liveActivities: 'ライブアクティビティ', library: 'ライブラリ', downloads: 'ダウンロード', iphone: 'iPhone', presentations: '表示形式',
    standby: 'スタンバイ', nightMode: 'ナイトモード', close: '閉じる', noActivities: '現在ライブアクティビティはありません。',
    pushesOn: 'APNs 経由で iPhone に送信しています（{env}）。', pushesOff: 'iPhone への送信はオフです: {reason}',
    pushesNotConfigured: 'iPhone への送信はオフです。APNs が設定されていません（marquee serve --apns-config FILE、または MARQUEE_APNS_* 環境変数）。',
    lockScreen: 'ロック画面', compact: 'コンパクト', minimal: '最小', expanded: '展開', dismiss: '消去',
    stale: '情報が古くなっています', ended: '終了', pending: '{t} に開始',
    downloading: 'ダウンロード中', pausing: '一時停止しています…', paused: '一時停止中', failed: '失敗', queued: '待機中', importing: 'ライブラリに追加中',
    finished: 'ダウンロード済み', cancelled: 'キャンセル済み', ofSize: '{done} / {total}', left: '残り {t}',
    nowPlaying: '再生中', pausedPlayback: '一時停止中', upNextTitle: '次: {title}', watchingTogether: '一緒に視聴中 · {n}人', upNextIn: '{s}秒後', remaining: '−{t}',
    ingest: 'ライブラリに追加中', ingestCount: '待機中 {n} 件', premiere: 'プレミア公開', startsIn: '開始まで', premiereNow: '再生中',
    updated: '{t} に更新', connectionLost: 'ライブ更新を一時停止中。再接続しています…',
  },
};
