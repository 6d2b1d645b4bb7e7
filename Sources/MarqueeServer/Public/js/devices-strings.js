// The nearby-devices page's strings in English and Japanese, added to i18n.js's tables.
export const deviceStrings = {
  en: {
    nearbyDevices: 'Nearby devices', library: 'Library', askingToPair: 'Asking to pair', pairedDevices: 'Paired devices',
    noPending: 'No device is asking to pair. Start the remote on the other device.', noPaired: 'No paired devices yet.',
    codeHint: 'Approve only if {name} shows the same code.', approve: 'Approve', reject: 'Reject', revoke: 'Revoke',
    pairedOn: '{platform} · {services} · paired {date}', wantsService: '{platform} · wants {service}',
    reachAdvertised: 'Devices find this TV nearby as “{name}” (port {port}).',
    reachNotAdvertised: 'Devices can connect on port {port}; not advertised nearby ({reason}).',
    reachOff: 'Nearby devices are off.', locked: 'Too many failed pairings: pairing opens again in {minutes} min.',
    service_remote: 'Remote', service_tictactoe: 'Tic-Tac-Toe', failed: 'Could not reach the server: {message}',
    game_pick: '{device} is choosing a character…', game_playing: '{device} plays {phone}, the TV plays {tv}',
    'game_phone-wins': '{device} wins!', 'game_tv-wins': 'The TV wins.', game_draw: 'Draw.',
  },
  ja: {
    nearbyDevices: '近くのデバイス', library: 'ライブラリ', askingToPair: 'ペアリングの要求', pairedDevices: 'ペアリング済みのデバイス',
    noPending: 'ペアリングを求めているデバイスはありません。もう一方のデバイスでリモコンを起動してください。', noPaired: 'ペアリング済みのデバイスはまだありません。',
    codeHint: '{name} に同じコードが表示されている場合のみ承認してください。', approve: '承認', reject: '拒否', revoke: '解除',
    pairedOn: '{platform} · {services} · {date} にペアリング', wantsService: '{platform} · {service} を使用',
    reachAdvertised: '近くのデバイスからは「{name}」として見つかります(ポート {port})。',
    reachNotAdvertised: 'ポート {port} で接続できます。近くへの告知はしていません({reason})。',
    reachOff: '近くのデバイス機能はオフです。', locked: 'ペアリングの失敗が多すぎます。あと {minutes} 分でペアリングできるようになります。',
    service_remote: 'リモコン', service_tictactoe: '三目並べ', failed: 'サーバーに接続できません: {message}',
    game_pick: '{device} がキャラクターを選んでいます…', game_playing: '{device} は {phone}、テレビは {tv}',
    'game_phone-wins': '{device} の勝ち!', 'game_tv-wins': 'テレビの勝ち。', game_draw: '引き分け。',
  },
};
