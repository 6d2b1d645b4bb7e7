// The quality menu's and the "Stats for nerds" panel's strings, in English and Japanese.
export const qualityStrings = {
  en: {
    quality: 'Quality', qualityAuto: 'Auto', qualityAutoCurrent: 'Auto ({q})', qualityItem: '{q}, {rate}',
    qualityChosen: 'Quality: {q}', statsForNerds: 'Stats for nerds', closeStats: 'Close stats for nerds',
    statVariant: 'Variant', statResolution: 'Resolution', statBandwidth: 'Bandwidth estimate', statBuffer: 'Buffer ahead',
    statDropped: 'Dropped frames', statCodecs: 'Codecs', statChoice: 'Choice', statAutomatic: 'Auto', statManual: 'Chosen',
    statDroppedValue: '{dropped} of {total}', statBufferValue: '{s} s', statUnknown: '—', statViewport: '{w}×{h} shown',
  },
  ja: {
    quality: '画質', qualityAuto: '自動', qualityAutoCurrent: '自動 ({q})', qualityItem: '{q}、{rate}',
    qualityChosen: '画質: {q}', statsForNerds: '詳細統計情報', closeStats: '詳細統計情報を閉じる',
    statVariant: 'バリアント', statResolution: '解像度', statBandwidth: '推定帯域幅', statBuffer: '先読みバッファ',
    statDropped: 'ドロップしたフレーム', statCodecs: 'コーデック', statChoice: '選択', statAutomatic: '自動', statManual: '手動',
    statDroppedValue: '{total} 中 {dropped}', statBufferValue: '{s} 秒', statUnknown: '—', statViewport: '表示 {w}×{h}',
  },
};
