// Resumable chunked upload of one file through /api/uploads: each chunk is a slice of the
// File (the browser reads it from disk, never the whole file into memory), sent with
// Content-Range; a dropped connection asks the server for its offset and carries on from
// there, and the upload id is remembered so choosing the same file again resumes it.

const CHUNK = 8 * 1024 * 1024;
const RETRIES = 6;

export class Upload extends EventTarget {
  constructor(file, { chunkSize = CHUNK } = {}) {
    super();
    this.file = file;
    this.chunkSize = chunkSize;
    this.id = null;
    this.sent = 0;
    this.cancelled = false;
    this.request = null;
    this.key = `marquee-upload:${file.name}:${file.size}:${file.lastModified}`;
  }

  get fraction() { return this.file.size ? this.sent / this.file.size : 1; }

  /** Uploads the whole file and adds it to the library; resolves with the new asset. */
  async start() {
    this.id = localStorage.getItem(this.key);
    if (this.id) {
      const response = await fetch(`/api/uploads/${this.id}`, { cache: 'no-store' });
      if (response.ok) this.sent = (await response.json()).offset;
      else this.id = null;
    }
    if (!this.id) {
      const created = await json(await fetch('/api/uploads', {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ fileName: this.file.name, length: this.file.size }),
      }));
      this.id = created.id;
      this.sent = 0;
      try { localStorage.setItem(this.key, this.id); } catch { /* private mode: no resuming across reloads */ }
    }
    this.report();
    let failures = 0;
    while (this.sent < this.file.size) {
      if (this.cancelled) throw new DOMException('cancelled', 'AbortError');
      const end = Math.min(this.sent + this.chunkSize, this.file.size);
      try {
        const { status, body } = await this.put(this.sent, end);
        if (status === 409 && body?.offset === undefined) {
          this.sent = await this.offset();
        } else if (status >= 400) {
          throw Object.assign(new Error(body?.error?.message ?? `HTTP ${status}`), { fatal: status !== 409 && status < 500 });
        } else {
          this.sent = body.offset;
          failures = 0;
        }
      } catch (error) {
        if (this.cancelled || error.fatal || ++failures > RETRIES) throw error;
        this.dispatchEvent(new CustomEvent('retrying', { detail: { attempt: failures } }));
        await delay(Math.min(8000, 500 * 2 ** failures));
        this.sent = await this.offset().catch(() => this.sent);
      }
      this.report();
    }
    const asset = await json(await fetch(`/api/uploads/${this.id}/complete`, { method: 'POST' }));
    localStorage.removeItem(this.key);
    return asset;
  }

  /** Stops the upload and deletes what the server has of it. */
  async cancel() {
    this.cancelled = true;
    this.request?.abort();
    localStorage.removeItem(this.key);
    if (this.id) await fetch(`/api/uploads/${this.id}`, { method: 'DELETE' }).catch(() => {});
  }

  async offset() {
    const response = await fetch(`/api/uploads/${this.id}`, { method: 'HEAD', cache: 'no-store' });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return Number(response.headers.get('Upload-Offset'));
  }

  /** One chunk over XMLHttpRequest, whose upload progress events fetch does not give. */
  put(start, end) {
    return new Promise((resolve, reject) => {
      const request = new XMLHttpRequest();
      this.request = request;
      request.open('PUT', `/api/uploads/${this.id}`);
      request.setRequestHeader('Content-Range', `bytes ${start}-${end - 1}/${this.file.size}`);
      request.setRequestHeader('Content-Type', 'application/octet-stream');
      request.upload.onprogress = (event) => this.report(start + event.loaded);
      request.onload = () => {
        let body = null;
        try { body = JSON.parse(request.responseText); } catch { /* not JSON */ }
        if (request.status === 409 && request.getResponseHeader('Upload-Offset') !== null) {
          this.sent = Number(request.getResponseHeader('Upload-Offset'));
          resolve({ status: 200, body: { offset: this.sent } });
          return;
        }
        resolve({ status: request.status, body });
      };
      request.onerror = () => reject(new Error('network error'));
      request.onabort = () => reject(new DOMException('cancelled', 'AbortError'));
      request.send(this.file.slice(start, end));
    });
  }

  report(sent = this.sent) {
    this.dispatchEvent(new CustomEvent('progress', { detail: { sent, total: this.file.size, fraction: this.file.size ? sent / this.file.size : 1 } }));
  }
}

async function json(response) {
  const body = await response.json().catch(() => null);
  if (!response.ok) throw new Error(body?.error?.message ?? `HTTP ${response.status}`);
  return body;
}

const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
