// The player's own Now playing activity as a Dynamic Island on every Marquee page. While a
// player page of this browser plays (in another tab, or scrolled out of sight), the page shows
// that session's Now playing activity as the system would: compact (leading + trailing around
// the sensor), a second one as a detached minimal view, and expanded on a tap; a tap on the
// expanded island returns to the player. It follows the server's activity (SSE on
// /api/activities/events) and reuses the /activities page's presentations.
import { addStrings, t, formatTime } from '../i18n.js';
import { build, fill } from '../activities/presentations.js';
import { epoch } from '../activities/describe.js';
import { activityOrder } from '../activities/ordering.js';
import { islandStrings, badgeStrings } from './strings.js';
import { ownSessions, forgetSession } from './own-sessions.js';
import { followActivities } from './activity-feed.js';
import { ensureStylesheet } from '../stylesheet.js';

addStrings(islandStrings);
for (const [language, entries] of Object.entries(badgeStrings)) {
  addStrings({ [language]: Object.fromEntries(Object.entries(entries).filter(([key]) => t(key) === key)) });
}

const SHOWN_STATES = new Set(['active', 'stale']);

/** The island's fields for one Now playing snapshot at `now` (seconds since the epoch). */
export function nowPlayingFields(snapshot, now) {
  const { activity } = snapshot;
  const state = activity.content?.state ?? {};
  const attributes = activity.attributes ?? {};
  const moving = !state.paused && snapshot.state === 'active';
  const since = moving ? Math.max(0, now - (epoch(state.positionDate) ?? now)) * (state.rate ?? 1) : 0;
  const duration = Number.isFinite(state.duration) && state.duration > 0 ? state.duration : null;
  const position = Math.max(0, Math.min(duration ?? Infinity, (state.position ?? 0) + since));
  return {
    icon: state.paused ? '⏸' : '▶︎', tint: '#ff375f', title: attributes.title || t('islandNowPlaying'),
    subtitle: state.paused ? t('islandPaused') : (attributes.subtitle || t('islandNowPlaying')),
    value: duration ? `−${formatTime(duration - position)}` : formatTime(position), percent: null,
    progress: duration ? position / duration : null,
    detail: duration ? `${formatTime(position)} / ${formatTime(duration)}` : formatTime(position),
    position, paused: Boolean(state.paused), sessionID: attributes.sessionID, assetID: attributes.assetID,
  };
}

export class NowPlayingIsland {
  /**
   * `hiddenSession()` names a session not to show (the player page's own, while its picture is
   * in sight); `onReturn(fields)` may take a return to the player itself (returning true).
   */
  constructor({ hiddenSession = () => null, onReturn = () => false } = {}) {
    this.hiddenSession = hiddenSession;
    this.onReturn = onReturn;
    this.activities = new Map();
    this.views = new Map();
    this.expandedID = null;
    ensureStylesheet('now-playing-island');
    this.host = document.createElement('div');
    this.host.className = 'np-island-host';
    this.island = document.createElement('div');
    this.island.id = 'now-playing-island';
    this.island.className = 'np-island';
    this.island.dataset.mode = 'hidden';
    this.island.setAttribute('role', 'button');
    this.island.tabIndex = 0;
    this.island.hidden = true;
    this.minimal = document.createElement('div');
    this.minimal.id = 'now-playing-minimal';
    this.minimal.className = 'np-island-detached';
    this.minimal.setAttribute('role', 'button');
    this.minimal.tabIndex = 0;
    this.minimal.hidden = true;
    this.host.append(this.island, this.minimal);
    document.body.append(this.host);
    this.island.addEventListener('click', (event) => { event.stopPropagation(); this.tap(); });
    this.minimal.addEventListener('click', (event) => { event.stopPropagation(); this.expand(this.minimal.dataset.activityId); });
    for (const element of [this.island, this.minimal]) {
      element.addEventListener('keydown', (event) => {
        if (event.key === 'Enter' || event.key === ' ') { event.preventDefault(); element.click(); }
        if (event.key === 'Escape') this.collapse();
      });
    }
    document.addEventListener('click', () => this.collapse());
    window.addEventListener('storage', () => this.render());
    setInterval(() => { if (!this.island.hidden) this.render(); }, 250);
    this.connect();
  }

  connect() {
    const take = (raw) => {
      const { state, ...activity } = raw;
      if (activity.type === 'NowPlaying') this.activities.set(activity.id, { state, activity });
    };
    followActivities((type, data) => {
      if (type === 'snapshot') { this.activities.clear(); for (const raw of data) take(raw); }
      if (type === 'activity') take(data);
      if (type === 'dismissed') this.activities.delete(data.id);
      this.render();
    });
  }

  /** This browser's own Now playing activities on show, the most relevant first. */
  shown() {
    const own = ownSessions();
    const hidden = this.hiddenSession();
    return [...this.activities.values()]
      .filter((s) => SHOWN_STATES.has(s.state) && own.has(s.activity.attributes?.sessionID) && s.activity.attributes.sessionID !== hidden)
      .sort(activityOrder({ newestFirst: true }));
  }

  viewsFor(id) {
    let set = this.views.get(id);
    if (!set) {
      set = { compact: build('compact', id), minimal: build('minimal', id), expanded: build('expanded', id) };
      const back = document.createElement('span');
      back.className = 'np-return';
      set.expanded.append(back);
      this.views.set(id, set);
    }
    return set;
  }

  render() {
    const now = Date.now() / 1000;
    const list = this.shown();
    for (const id of this.views.keys()) if (!list.some((s) => s.activity.id === id)) this.views.delete(id);
    if (this.expandedID && !list.some((s) => s.activity.id === this.expandedID)) this.expandedID = null;
    const first = list[0];
    if (!first) {
      this.island.hidden = true;
      this.island.dataset.mode = 'hidden';
      this.island.replaceChildren();
      this.minimal.hidden = true;
      this.minimal.replaceChildren();
      return;
    }
    const main = this.expandedID ? list.find((s) => s.activity.id === this.expandedID) : first;
    const mode = this.expandedID ? 'expanded' : 'compact';
    const fields = nowPlayingFields(main, now);
    const view = this.viewsFor(main.activity.id)[mode];
    fill(view, fields, main);
    if (mode === 'expanded') view.querySelector('.np-return').textContent = t('islandReturn');
    if (this.island.firstElementChild !== view) this.island.replaceChildren(view);
    this.island.hidden = false;
    Object.assign(this.island.dataset, {
      mode, activityId: main.activity.id, sessionId: fields.sessionID, assetId: fields.assetID,
      position: fields.position.toFixed(1), paused: String(fields.paused), state: main.state,
    });
    this.island.setAttribute('aria-expanded', String(mode === 'expanded'));
    this.island.setAttribute('aria-label', t('islandLabel', {
      title: fields.title, state: fields.paused ? t('islandPausedState') : t('islandPlaying'), position: fields.detail,
    }) + (mode === 'expanded' ? ` — ${t('islandReturn')}` : ''));
    // A second activity competes as a detached minimal view; the more relevant one keeps compact.
    const other = list.find((s) => s.activity.id !== main.activity.id);
    this.minimal.hidden = !other;
    if (other) {
      const otherFields = nowPlayingFields(other, now);
      const minimal = this.viewsFor(other.activity.id).minimal;
      fill(minimal, otherFields, other);
      if (this.minimal.firstElementChild !== minimal) this.minimal.replaceChildren(minimal);
      this.minimal.dataset.activityId = other.activity.id;
      this.minimal.setAttribute('aria-label', t('islandLabel', {
        title: otherFields.title, state: otherFields.paused ? t('islandPausedState') : t('islandPlaying'), position: otherFields.detail,
      }));
    } else {
      this.minimal.replaceChildren();
    }
  }

  tap() {
    if (this.island.dataset.mode === 'expanded') this.returnToPlayer(this.island.dataset.activityId);
    else this.expand(this.island.dataset.activityId);
  }

  expand(id) {
    if (!id) return;
    this.expandedID = id;
    this.render();
  }

  collapse() {
    if (!this.expandedID) return;
    this.expandedID = null;
    this.render();
  }

  /** Back to the player: this page's own player if it takes it, else the player opened here,
   *  continuing the session from where it is now (the other tab's player stops). */
  returnToPlayer(id) {
    const snapshot = this.activities.get(id);
    if (!snapshot) return;
    const fields = nowPlayingFields(snapshot, Date.now() / 1000);
    this.collapse();
    if (this.onReturn(fields)) return;
    const query = new URLSearchParams({ t: fields.position.toFixed(1), from: fields.sessionID });
    if (fields.paused) query.set('autoplay', '0');
    location.assign(`/watch/${encodeURIComponent(fields.assetID)}?${query}`);
  }
}

/** Continues session `from` on this player page: the player that had it stops, its session
 *  ends (so its activity leaves), and it is no longer this browser's. */
export function takeOver(from, channel) {
  channel?.postMessage({ type: 'handoff', sessionID: from });
  forgetSession(from);
  return fetch(`/api/sessions/${encodeURIComponent(from)}`, { method: 'DELETE' }).catch(() => {});
}
