// The order activities are shown in, the same as the server lists them (ActivityCenter.list):
// what is live first (active, then pending, stale, ended), then the most relevant; ties by
// start time — the one started first keeps its place, or, for the island, the newest leads.
import { epoch } from './describe.js';

const LIVENESS = { active: 0, pending: 1, stale: 2, ended: 3, dismissed: 4 };

/** A comparator over snapshots (`{state, activity}`); `newestFirst` breaks ties the island's way. */
export function activityOrder({ newestFirst = false } = {}) {
  return (a, b) => ((LIVENESS[a.state] ?? 5) - (LIVENESS[b.state] ?? 5))
    || (b.activity.content.relevanceScore - a.activity.content.relevanceScore)
    || (newestFirst ? epoch(b.activity.startDate) - epoch(a.activity.startDate) : epoch(a.activity.startDate) - epoch(b.activity.startDate))
    || a.activity.id.localeCompare(b.activity.id);
}
