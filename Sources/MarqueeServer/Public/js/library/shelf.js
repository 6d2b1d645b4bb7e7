// The library's shelf as the server sent it, and what the page shows of it: the query it
// asks with, the items still shown while deletions wait out their undo, where a pushed
// asset goes, and the line shown when nothing is.
import { t } from '../i18n.js';

/** The `GET /api/library` parameters for the page's sort, search and badge filters. */
export function libraryParameters({ sort, query, badges }) {
  const parameters = new URLSearchParams({ sort });
  if (query) parameters.set('q', query);
  for (const badge of badges) parameters.append('badge', badge);
  return parameters;
}

/** The shelf without the assets in `hidden`; a series keeps its other episodes, or goes. */
export function visibleItems(items, hidden) {
  return items.map((item) => {
    if (item.kind !== 'series') return hidden.has(item.asset.id) ? null : item;
    const seasons = item.series.seasons
      .map((s) => ({ ...s, episodes: s.episodes.filter((e) => !hidden.has(e.id)) }))
      .filter((s) => s.episodes.length);
    const count = seasons.reduce((n, s) => n + s.episodes.length, 0);
    return count ? { kind: 'series', series: { ...item.series, seasons, episodeCount: count } } : null;
  }).filter(Boolean);
}

/**
 * The line under the shelf: nothing while something shows, else why nothing does — no match,
 * sample clips on their way (the server says so), or how to add media (to those who may).
 */
export function shelfStatus({ shown, query, badges, makingSamples = false, canAdd = true }) {
  if (shown) return '';
  if (query || badges.size) return t('noResults', { q: query || [...badges].join(', ') });
  if (makingSamples) return t('empty');
  return canAdd ? t('emptyAddMedia') : t('emptyNothing');
}

/**
 * Where a pushed asset goes: `replace` its own card (at `index`), `series` (an episode,
 * patched in `items` in place), or `reload` the shelf (new, moved or filtered).
 */
export function placeAsset(items, asset, { filtered }) {
  const index = items.findIndex((item) => item.kind === 'asset' && item.asset.id === asset.id);
  if (index >= 0 && !asset.series && asset.role === 'feature' && !filtered) return { place: 'replace', index };
  let inSeries = false;
  for (const item of items) {
    if (item.kind !== 'series') continue;
    for (const season of item.series.seasons) {
      const at = season.episodes.findIndex((e) => e.id === asset.id);
      if (at >= 0) { season.episodes[at] = asset; inSeries = true; }
    }
  }
  return { place: inSeries ? 'series' : 'reload' };
}
