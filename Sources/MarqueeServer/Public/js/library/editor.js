// The edit sheet: title, subtitle, description, artwork (a URL or an image file), series,
// season, episode, episode title, release date and live start and end. Saving sends the
// whole form to PUT /api/assets/{id}/metadata (and the image to …/artwork); the server
// checks every field and its error shows in the sheet.
import { t } from '../i18n.js';
import { SubtitleFiles } from './subtitle-files.js';

export class MetadataEditor {
  constructor(dialog, onSaved) {
    this.dialog = dialog;
    this.form = dialog.querySelector('form');
    this.error = dialog.querySelector('#edit-error');
    this.onSaved = onSaved;
    this.asset = null;
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.save();
    });
    dialog.querySelector('#edit-cancel').addEventListener('click', () => dialog.close());
    this.subtitles = new SubtitleFiles(dialog.querySelector('#subtitle-files'));
  }

  applyStrings() {
    this.dialog.querySelector('#edit-title').textContent = t('editDetails');
    for (const label of this.dialog.querySelectorAll('[data-label]')) label.textContent = t(label.dataset.label);
    for (const input of this.dialog.querySelectorAll('[data-placeholder]')) input.placeholder = t(input.dataset.placeholder);
    this.dialog.querySelector('#edit-cancel').textContent = t('cancel');
    this.dialog.querySelector('#edit-save').textContent = t('save');
    this.subtitles.applyStrings();
  }

  open(asset) {
    this.asset = asset;
    const fields = this.form.elements;
    fields.title.value = asset.title ?? '';
    fields.subtitle.value = asset.subtitle ?? '';
    fields.description.value = asset.description ?? '';
    fields.artworkURL.value = asset.artworkURL ?? '';
    fields.artworkFile.value = '';
    fields.seriesTitle.value = asset.series?.title ?? '';
    fields.season.value = asset.series?.season ?? '';
    fields.episode.value = asset.series?.episode ?? '';
    fields.episodeTitle.value = asset.series?.episodeTitle ?? '';
    fields.releaseDate.value = asset.releaseDate ?? '';
    fields.liveStartDate.value = localInput(asset.liveStartDate);
    fields.liveEndDate.value = localInput(asset.liveEndDate);
    this.error.textContent = '';
    this.subtitles.open(asset);
    this.dialog.showModal();
    fields.title.focus();
  }

  async save() {
    const fields = this.form.elements;
    const number = (input) => (input.value === '' ? null : Number(input.value));
    const body = {
      title: fields.title.value, subtitle: fields.subtitle.value, description: fields.description.value,
      artworkURL: fields.artworkURL.value, seriesTitle: fields.seriesTitle.value,
      season: number(fields.season), episode: number(fields.episode), episodeTitle: fields.episodeTitle.value,
      // The server reads exactly what openapi.json says (no trimming); spaces typed around it are not part of it.
      releaseDate: fields.releaseDate.value.trim(),
      liveStartDate: isoFromLocal(fields.liveStartDate.value), liveEndDate: isoFromLocal(fields.liveEndDate.value),
    };
    // The poster frame is the default artwork, not an override to keep.
    if (body.artworkURL === this.asset.artworkURL && /\/poster\.jpg$/.test(body.artworkURL ?? '')) body.artworkURL = null;
    try {
      let saved = await send(`/api/assets/${this.asset.id}/metadata`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const image = fields.artworkFile.files[0];
      if (image) saved = await send(`/api/assets/${this.asset.id}/artwork`, { method: 'PUT', headers: { 'content-type': image.type || 'application/octet-stream' }, body: image });
      this.dialog.close();
      this.onSaved(saved);
    } catch (error) {
      this.error.textContent = error.message;
    }
  }
}

async function send(url, options) {
  const response = await fetch(url, options);
  const body = await response.json().catch(() => null);
  if (!response.ok) throw new Error(body?.error?.message ?? `HTTP ${response.status}`);
  return body;
}

/** An ISO date as a datetime-local input's value, in the browser's time zone. */
function localInput(iso) {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (n) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

function isoFromLocal(value) {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
