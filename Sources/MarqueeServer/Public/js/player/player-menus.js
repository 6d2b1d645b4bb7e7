// The player's two menus, built from the session's snapshot each time they open (and again
// while open when a new snapshot comes): "…" (playback speed, quality, stats for nerds,
// keyboard shortcuts) and audio and subtitles. Choosing a speed or a rendition sends an
// intent; the session answers with what is selected. Quality is the page's own choice (see
// quality-menu.js).
import { t } from '../i18n.js';
import { Menu } from './menu.js';
import { INTENT } from './renderer-vocabulary.js';
import { PLAYER_EVENT } from './player-events.js';
import { qualitySection, qualityView } from './quality-menu.js';

/**
 * The "…" menu's sections for `session`; `touchOnly` leaves out the keyboard shortcuts.
 * `quality` is the loader's view of its variants (quality-menu.js), `chooseQuality` holds one
 * (or Auto, null), `toggleStats` opens or closes the stats panel.
 */
export function overflowSections(session, { touchOnly, intent, toggleHelp, quality = null, chooseQuality = () => {}, toggleStats = null }) {
  const sections = [];
  if (session?.speeds?.length) {
    sections.push({
      key: 'speed', title: t('playbackSpeed'),
      items: session.speeds.map((speed) => ({
        label: speed.localizedNumericName, ariaLabel: speed.localizedName, value: speed.rate,
        checked: speed.rate === session.selectedSpeed?.rate,
        disabled: session.permissions ? !session.permissions.canChangeRate : false,
        onSelect: () => intent(INTENT.selectSpeed, { rate: speed.rate }),
      })),
    });
  }
  const qualityChoices = qualitySection(quality, { choose: chooseQuality });
  if (qualityChoices) sections.push(qualityChoices);
  const more = [];
  if (toggleStats) more.push({ label: t('statsForNerds'), value: 'stats', onSelect: () => toggleStats() });
  if (!touchOnly) more.push({ label: t('keyboardShortcuts'), detail: '?', onSelect: () => toggleHelp() });
  if (more.length) sections.push({ key: 'more', items: more });
  return sections;
}

/** The audio and subtitles menu's sections for `session`. */
export function renditionSections(session, { intent }) {
  const sections = [];
  if (session?.audio?.length) {
    sections.push({
      key: 'audio', title: t('audio'),
      items: session.audio.map((option) => ({
        label: option.name, value: option.id, checked: option.id === session.selectedAudio,
        onSelect: () => intent(INTENT.selectAudio, { rendition: option.id }),
      })),
    });
  }
  if (session?.subtitles?.length) {
    sections.push({
      key: 'subtitles', title: t('subtitles'),
      items: [{ label: t('off'), value: '', checked: session.selectedSubtitles == null, onSelect: () => intent(INTENT.selectSubtitles, { rendition: null }) },
        ...session.subtitles.map((option) => ({
          label: option.name, value: option.id, checked: option.id === session.selectedSubtitles,
          onSelect: () => intent(INTENT.selectSubtitles, { rendition: option.id }),
        }))],
    });
  }
  return sections;
}

export class PlayerMenus {
  /**
   * @param {{container: HTMLElement, overflowButton: HTMLElement, renditionsButton: HTMLElement}} elements
   * @param {import('./player-events.js').PlayerHub} hub
   * @param {{toggleHelp: () => void, chooseQuality: (id: string|null) => void, toggleStats: () => void}} parts
   */
  constructor({ container, overflowButton, renditionsButton }, hub, { toggleHelp, chooseQuality, toggleStats }) {
    this.hub = hub;
    const intent = (name, fields) => hub.intent(name, fields);
    this.overflow = new Menu(container, overflowButton, 'overflow-menu');
    this.renditions = new Menu(container, renditionsButton, 'renditions-menu');
    // Keyboard shortcuts are not offered on touch phones (touch and no fine pointer, no hover).
    const touchOnly = () => matchMedia('(any-pointer: coarse)').matches && !matchMedia('(any-pointer: fine), (any-hover: hover)').matches;
    this.overflow.setBuilder(() => overflowSections(hub.session, {
      touchOnly: touchOnly(), intent, toggleHelp, quality: qualityView(hub.engine), chooseQuality, toggleStats,
    }));
    this.renditions.setBuilder(() => renditionSections(hub.session, { intent }));
  }

  get all() { return [this.overflow, this.renditions]; }

  get anyOpen() { return this.all.some((menu) => menu.isOpen); }

  registerListeners() {
    this.hub.on(PLAYER_EVENT.STATE, () => { for (const menu of this.all) if (menu.isOpen) menu.render(); });
    // "Auto (720p)" follows the picture (the element's size changes when another variant
    // shows): only that label changes, so the items keep their focus and identity.
    this.hub.media.addEventListener('resize', () => {
      const label = this.overflow.element?.querySelector("[data-section='quality'] [data-value='auto'] span");
      const auto = qualitySection(qualityView(this.hub.engine), { choose() {} })?.items[0];
      if (label && auto) label.textContent = auto.label;
    });
  }
}
