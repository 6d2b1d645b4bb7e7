// What the Live Activities page shows, decided from the server's snapshots alone: which
// activities are listed (and in what order), which have passed their dismissal date, and
// how the Dynamic Island is arranged. The page draws what these return.
import { activityOrder } from './ordering.js';
import { epoch } from './describe.js';

/** The API sends an activity's fields with its `state` beside them; keep them apart. */
export function normalize(raw) {
  const { state, ...activity } = raw;
  return { state, activity };
}

/** The activities listed: not dismissed (by the server, or here), live first, then the most relevant. */
export function listed(snapshots, hidden = new Set()) {
  return [...snapshots]
    .filter((s) => s.state !== 'dismissed' && !hidden.has(s.activity.id))
    .sort(activityOrder());
}

/** Whether an ended activity's dismissal date has passed at `time` (seconds), even if the server's word is late. */
export function pastDismissal(snapshot, time) {
  const dismissal = epoch(snapshot.activity.dismissalDate);
  return snapshot.state === 'ended' && dismissal != null && time >= dismissal;
}

/**
 * The system's Dynamic Island for `list` (as `listed` orders it): the most relevant activity
 * compact, or `expandedID` expanded after an alert or a tap (while `expanding`); a second one
 * competes as a detached minimal view.
 * @returns {{mode: 'idle'|'compact'|'expanded', main: {id: string, view: string}|null, detached: string|null}}
 */
export function islandArrangement(list, { expandedID = null, expanding = false } = {}) {
  const first = list[0];
  const expanded = expanding && first ? list.find((s) => s.activity.id === expandedID) : null;
  if (expanded) {
    const other = list.find((s) => s.activity.id !== expandedID);
    return { mode: 'expanded', main: { id: expandedID, view: 'expanded' }, detached: other?.activity.id ?? null };
  }
  if (!first) return { mode: 'idle', main: null, detached: null };
  return { mode: 'compact', main: { id: first.activity.id, view: 'compact' }, detached: list[1]?.activity.id ?? null };
}
