// The presentations Apple defines for a Live Activity, built once per activity and filled
// again on every change: the Lock Screen card, the Dynamic Island's compact (leading +
// trailing), minimal and expanded views, and the StandBy view (the Lock Screen view at 200 %).
import { t } from '../i18n.js';
import { setCounter } from './counter.js';

const templates = {
  lock: `<div class="lock-head"><span class="icon" data-field="icon"></span>
           <span class="titles"><span class="title" data-field="title"></span><span class="subtitle" data-field="subtitle"></span></span>
           <span class="value" data-field="value"></span></div>
         <div class="bar" data-field="bar"><span></span></div>
         <div class="foot"><span class="detail" data-field="detail"></span><span class="badge" data-field="badge"></span></div>`,
  compact: `<span class="leading"><span class="icon" data-field="icon"></span></span><span class="sensor" aria-hidden="true"></span>
            <span class="trailing"><span class="value" data-field="value"></span></span>`,
  minimal: `<svg class="ring" viewBox="0 0 36 36" aria-hidden="true"><circle cx="18" cy="18" r="15.5" class="track"/>
              <circle cx="18" cy="18" r="15.5" class="fill" data-field="ring" pathLength="100"/></svg>
            <span class="value" data-field="value"></span>`,
  expanded: `<div class="expanded-top"><span class="icon" data-field="icon"></span>
               <span class="titles"><span class="title" data-field="title"></span><span class="subtitle" data-field="subtitle"></span></span>
               <span class="value" data-field="value"></span></div>
             <div class="bar" data-field="bar"><span></span></div>
             <div class="foot"><span class="detail" data-field="detail"></span><span class="badge" data-field="badge"></span></div>`,
};

const classes = { lock: 'lockscreen-card', compact: 'island-compact', minimal: 'island-minimal', expanded: 'island-expanded', standby: 'lockscreen-card standby-view' };

/** A new presentation element of `kind` for the activity `id`. */
export function build(kind, id, tagName = 'div') {
  const element = document.createElement(tagName);
  element.className = classes[kind];
  element.dataset.activityId = id;
  element.dataset.presentation = kind;
  element.innerHTML = templates[kind === 'standby' ? 'lock' : kind];
  return element;
}

/** Writes `fields` (from describe.js) and the activity's state into a presentation element. */
export function fill(element, fields, snapshot) {
  const state = snapshot.state;
  element.dataset.state = state;
  element.classList.toggle('stale', state === 'stale');
  element.classList.toggle('ended', state === 'ended');
  element.style.setProperty('--tint', fields.tint);
  for (const slot of element.querySelectorAll('[data-field]')) {
    const name = slot.dataset.field;
    switch (name) {
      case 'value':
        setCounter(slot, fields.value ?? '');
        slot.classList.toggle('percent', fields.percent != null);
        if (fields.percent != null) slot.dataset.percent = String(fields.percent); else delete slot.dataset.percent;
        break;
      case 'bar':
        slot.hidden = fields.progress == null;
        slot.firstElementChild.style.width = `${Math.round((fields.progress ?? 0) * 1000) / 10}%`;
        break;
      case 'ring':
        slot.style.strokeDashoffset = String(100 - Math.round((fields.progress ?? 1) * 100));
        break;
      case 'badge':
        slot.textContent = state === 'stale' ? t('stale') : state === 'ended' ? t('ended') : state === 'pending' ? t('pending', { t: '' }) : '';
        slot.hidden = !slot.textContent;
        break;
      default:
        if (slot.textContent !== (fields[name] ?? '')) slot.textContent = fields[name] ?? '';
    }
  }
  element.setAttribute('aria-label', [fields.title, fields.subtitle, fields.value, fields.detail].filter(Boolean).join(', '));
}
