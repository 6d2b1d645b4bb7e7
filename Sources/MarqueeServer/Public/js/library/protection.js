// Marking an asset protected from the library (issue 12): a protected asset's frames are never
// analysed for text — no Live Text in the player, not indexed for frame search. The owner
// toggles it on the asset's card (PUT /api/assets/{id}/protected); the card shows a
// "Protected" badge while it is on.
import { addStrings, t } from '../i18n.js';

addStrings({
  en: { protect: 'Protect', protectedBadge: 'Protected', protectHint: 'Protected: never analysed for text (no Live Text, not in frame search)',
        unprotectHint: 'Not protected: paused frames can show Live Text and frames are searchable' },
  ja: { protect: '保護', protectedBadge: '保護済み', protectHint: '保護中: テキスト認識を行いません（ライブテキストなし、フレーム検索の対象外）',
        unprotectHint: '保護なし: 一時停止したフレームでライブテキストを使え、フレームを検索できます' },
});

/** The card's toggle: pressed while the asset is protected; `onToggle(asset, wanted)` saves. */
export function protectButton(asset, onToggle) {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'protect';
  const on = Boolean(asset.protected);
  button.textContent = on ? t('protectedBadge') : t('protect');
  button.setAttribute('aria-pressed', String(on));
  button.title = on ? t('protectHint') : t('unprotectHint');
  button.setAttribute('aria-label', `${t('protect')} — ${asset.title}`);
  button.addEventListener('click', () => onToggle(asset, !on));
  return button;
}

/** The "Protected" badge beside the asset's other badges, or null. */
export function protectedBadge(asset) {
  if (!asset.protected) return null;
  const badge = document.createElement('span');
  badge.className = 'badge protected-badge';
  badge.innerHTML = '<svg viewBox="0 0 16 16" width="0.9em" height="0.9em" aria-hidden="true" fill="currentColor">'
    + '<path d="M4.5 7V5a3.5 3.5 0 0 1 7 0v2h.5a1 1 0 0 1 1 1v6a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V8a1 1 0 0 1 1-1zm1.5 0h4V5a2 2 0 0 0-4 0z"/></svg> ';
  badge.append(t('protectedBadge'));
  badge.title = t('protectHint');
  return badge;
}

/** Saves the choice; resolves to the asset as it now is, or throws the server's message. */
export async function setProtected(asset, wanted) {
  const response = await fetch(`/api/assets/${encodeURIComponent(asset.id)}/protected`, {
    method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ protected: wanted }),
  });
  const body = await response.json().catch(() => null);
  if (!response.ok) throw new Error(body?.error?.message ?? `HTTP ${response.status}`);
  return { ...asset, protected: body.protected };
}
