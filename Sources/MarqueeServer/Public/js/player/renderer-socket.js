// The page's side of the renderer WebSocket (protocol v1, docs/renderer-protocol.md):
// sends intents and reports, receives state snapshots, commands and refusals.

export class RendererSocket extends EventTarget {
  constructor(sessionID, { participant = null } = {}) {
    super();
    this.sessionID = sessionID;
    /** This page's participant ID in a group (watching together), sent when it (re)connects. */
    this.participant = participant;
    this.nextID = 1;
    this.queue = [];
    this.closed = false;
    this.retryDelay = 250;
  }

  connect() {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const query = this.participant ? `?participant=${encodeURIComponent(this.participant)}` : '';
    const socket = new WebSocket(`${scheme}://${location.host}/api/sessions/${this.sessionID}/renderer${query}`);
    this.socket = socket;
    return new Promise((resolve) => {
      socket.addEventListener('open', () => {
        this.retryDelay = 250;
        for (const frame of this.queue.splice(0)) socket.send(frame);
        resolve();
      });
      socket.addEventListener('message', (event) => this.receive(event.data));
      socket.addEventListener('close', async () => {
        if (this.closed) return;
        // A session that ended, or a pass that no longer admits this page (an invitation to
        // watch together withdrawn), is not retried: the page says what the server said.
        const gone = await this.goneReason();
        if (gone) {
          this.closed = true;
          this.dispatchEvent(new CustomEvent('gone', { detail: gone }));
          return;
        }
        setTimeout(() => this.connect(), this.retryDelay);
        this.retryDelay = Math.min(this.retryDelay * 2, 4000);
      });
    });
  }

  /** The server's reason when this session is gone for this page (401, 403, 404), else null. */
  async goneReason() {
    try {
      const response = await fetch(`/api/sessions/${encodeURIComponent(this.sessionID)}`, { cache: 'no-store' });
      if (![401, 403, 404].includes(response.status)) return null;
      const body = await response.json().catch(() => null);
      return { status: response.status, message: body?.error?.message ?? `HTTP ${response.status}` };
    } catch {
      return null;  // the network, not the session: try again
    }
  }

  close() {
    this.closed = true;
    this.socket?.close();
  }

  receive(text) {
    let message;
    try { message = JSON.parse(text); } catch { return; }
    if (message.v !== 1) return;
    this.dispatchEvent(new CustomEvent(message.type, { detail: message }));
  }

  send(frame) {
    const text = JSON.stringify({ v: 1, ...frame });
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(text);
    else this.queue.push(text);
  }

  /** Sends an intent ("play", "skip", …) and returns its id, which replies refer to. */
  intent(intent, fields = {}) {
    const id = this.nextID++;
    this.send({ type: 'intent', id, intent, ...fields });
    return id;
  }

  /** A clock probe: the server answers `clock` with `t0` and its own time, at once. */
  probe(t0) {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify({ v: 1, type: 'clock', t0 }));
  }

  /** Reports what the media element did ("ready", "time", "playing", "stalled", "ended", "failed"). */
  report(report, fields = {}) {
    this.send({ type: 'report', report, ...fields });
  }
}
