// The edit sheet's Subtitles section: the item's added subtitle files (language, label,
// Remove), and a language, a label and a file chooser that adds one at once
// (POST /api/assets/{id}/subtitles; the server reads the format from the file and answers a
// sentence when it cannot). Dropping a subtitle file on the sheet adds it the same way.
import { t } from '../i18n.js';

/** Whether `file` is named like a subtitle file (`.srt`, `.vtt`, `.ass`, `.ssa`). */
export function isSubtitleFile(file) {
  return /.\.(srt|vtt|ass|ssa)$/i.test(file.name);
}

/** The language a sidecar-style name gives (`Film.ja.srt` → `ja`), or ''. */
export function languageFromName(name) {
  const parts = name.split('.');
  if (parts.length < 3) return '';
  let tag = parts[parts.length - 2];
  if (['forced', 'sdh', 'cc'].includes(tag.toLowerCase()) && parts.length > 3) tag = parts[parts.length - 3];
  return /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(tag) ? tag : '';
}

/** Adds `file` to the asset; resolves to the added file, rejects with the server's sentence. */
export async function uploadSubtitleFile(assetID, file, { language = '', label = '' } = {}) {
  const query = new URLSearchParams();
  if (language) query.set('language', language);
  if (label) query.set('label', label);
  const response = await fetch(`/api/assets/${encodeURIComponent(assetID)}/subtitles?${query}`, {
    method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: file,
  });
  const body = await response.json().catch(() => null);
  if (!response.ok) throw new Error(body?.error?.message ?? `HTTP ${response.status}`);
  return body;
}

export class SubtitleFiles {
  /** @param {HTMLElement} section the sheet's Subtitles fieldset */
  constructor(section, { onChange = () => {} } = {}) {
    this.section = section;
    this.list = section.querySelector('#subtitle-list');
    this.status = section.querySelector('#subtitle-status');
    this.error = section.querySelector('#subtitle-error');
    this.language = section.querySelector('#subtitle-language');
    this.label = section.querySelector('#subtitle-label');
    this.input = section.querySelector('#subtitle-file');
    this.onChange = onChange;
    this.asset = null;
    this.files = [];
    this.input.addEventListener('change', () => {
      const file = this.input.files[0];
      if (file) this.add(file);
    });
    section.closest('dialog').addEventListener('dragover', (event) => event.preventDefault());
    // Enter in the language or label field goes on to choosing the file, not to saving the
    // sheet's details (and closing it).
    for (const field of [this.language, this.label]) {
      field.addEventListener('keydown', (event) => {
        if (event.key !== 'Enter' || event.isComposing) return;
        event.preventDefault();
        this.input.focus();
      });
    }
  }

  applyStrings() {
    this.section.querySelector('#subtitle-legend').textContent = t('subtitleFiles');
    this.section.querySelector('#subtitle-language-label').textContent = t('subtitleLanguage');
    this.section.querySelector('#subtitle-label-label').textContent = t('subtitleLabel');
    this.section.querySelector('#subtitle-file-label').textContent = t('subtitleAddFile');
    this.section.querySelector('#subtitle-file-hint').textContent = t('subtitleFileHint');
    this.language.placeholder = t('subtitleLanguageHint');
    this.label.placeholder = t('subtitleLabelHint');
    if (this.asset) this.render();
  }

  async open(asset) {
    this.asset = asset;
    this.files = [];
    this.error.textContent = '';
    this.status.textContent = '';
    this.language.value = '';
    this.label.value = '';
    this.input.value = '';
    this.render();
    try {
      const response = await fetch(`/api/assets/${encodeURIComponent(asset.id)}/subtitles`);
      if (response.ok && this.asset === asset) {
        this.files = (await response.json()).subtitles;
        this.render();
      }
    } catch { /* the list stays empty; adding still works */ }
  }

  /** Adds a chosen or dropped file with the language and label typed (or its name's language). */
  async add(file) {
    if (!this.asset) return;
    this.error.textContent = '';
    this.status.textContent = t('subtitleAdding', { f: file.name });
    const language = this.language.value.trim() || languageFromName(file.name);
    try {
      const added = await uploadSubtitleFile(this.asset.id, file, { language, label: this.label.value.trim() });
      this.files.push(added);
      this.language.value = '';
      this.label.value = '';
      this.status.textContent = t('subtitleAdded', { l: added.label });
      this.render();
      this.onChange(this.asset);
    } catch (error) {
      this.status.textContent = '';
      this.error.textContent = error.message;
    } finally {
      this.input.value = '';
    }
  }

  async remove(file) {
    this.error.textContent = '';
    const response = await fetch(`/api/assets/${encodeURIComponent(this.asset.id)}/subtitles/${encodeURIComponent(file.id)}`, { method: 'DELETE' });
    if (!response.ok && response.status !== 404) {
      const body = await response.json().catch(() => null);
      this.error.textContent = body?.error?.message ?? `HTTP ${response.status}`;
      return;
    }
    const index = this.files.indexOf(file);
    this.files = this.files.filter((other) => other !== file);
    this.status.textContent = t('subtitleRemoved', { l: file.label });
    this.render();
    // Focus moves to the next Remove button, else to the file chooser.
    const buttons = this.list.querySelectorAll('button');
    (buttons[Math.min(index, buttons.length - 1)] ?? this.input).focus();
    this.onChange(this.asset);
  }

  render() {
    this.list.replaceChildren();
    if (!this.files.length) {
      const empty = document.createElement('li');
      empty.className = 'subtitle-empty';
      empty.textContent = t('subtitleFilesNone');
      this.list.append(empty);
      return;
    }
    for (const file of this.files) {
      const row = document.createElement('li');
      row.className = 'subtitle-file';
      row.dataset.subtitleId = file.id;
      const name = document.createElement('span');
      name.className = 'subtitle-name';
      name.textContent = file.label;
      const details = document.createElement('span');
      details.className = 'subtitle-details';
      const facts = [file.language ?? t('subtitleNoLanguage'), file.format.toUpperCase(), file.cueCount === 1 ? t('subtitleCueOne') : t('subtitleCues', { n: file.cueCount })];
      if (file.forced) facts.push(t('subtitleForced'));
      details.textContent = facts.join(' · ');
      const remove = document.createElement('button');
      remove.type = 'button';
      remove.textContent = t('remove');
      remove.setAttribute('aria-label', t('subtitleRemove', { l: file.label }));
      remove.addEventListener('click', () => this.remove(file));
      row.append(name, details, remove);
      this.list.append(row);
    }
  }
}
