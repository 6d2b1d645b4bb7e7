// A browser's device link to a Marquee TV over the `/api/devices/link` WebSocket: the
// handshake (handshake.js), then the encrypted channel (channel.js) with heartbeats.
// Events: `code` {code, peer, approve(bool)} while pairing, `open` {peer, newlyPaired},
// `message` {messageType, body}, `close` {reason, error}. The page reconnects (`purpose: 'connect'`)
// after an abort; the TV keeps its state per session id.
import { FrameDecoder, MessageType } from './frame.js';
import { ChannelDirection } from './channel.js';
import { initiateHandshake, HandshakeError } from './handshake.js';
import { utf8 } from './link-crypto.js';

export const HEARTBEAT_INTERVAL_MS = 5000;
export const MISSED_BEATS = 3;

/** The WebSocket URL of the link on the server that served this page (or `origin`). */
export function linkURL(origin = location.origin) {
  const url = new URL('/api/devices/link', origin);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

export class LinkClient extends EventTarget {
  /**
   * `options`: `{ url, identity, service, session, purpose, trustsPeer, heartbeatMs? }` — see
   * initiateHandshake for `identity` and the request fields.
   */
  constructor(options) {
    super();
    this.options = options;
    this.socket = null;
    this.decoder = new FrameDecoder();
    this.waiting = [];
    this.queued = [];
    this.outbound = null;
    this.inbound = null;
    this.closed = null;
    this.peer = null;
    this.timer = null;
  }

  /** Connects and runs the handshake; resolves with `{peer, newlyPaired}`. */
  async connect() {
    const socket = new WebSocket(this.options.url);
    socket.binaryType = 'arraybuffer';
    this.socket = socket;
    await new Promise((resolve, reject) => {
      socket.onopen = resolve;
      socket.onerror = () => reject(new Error('could not open the link to the TV'));
    });
    socket.onmessage = (event) => this.receive(new Uint8Array(event.data));
    socket.onclose = () => this.finish('transport-closed');
    socket.onerror = () => this.finish('transport-error');
    const io = { send: (bytes) => this.sendRaw(bytes), nextFrame: () => this.nextFrame() };
    const approve = (code, peer, peerAnswered) => new Promise((resolve) => {
      peerAnswered.addEventListener('abort', () => resolve(false));
      this.dispatchEvent(Object.assign(new Event('code'), { code, peer, approve: (yes) => resolve(yes === true) }));
    });
    let result;
    try {
      result = await initiateHandshake(io, this.options.identity, this.options, approve);
    } catch (error) {
      this.finish(error instanceof HandshakeError ? error.reason : 'handshake-failed', error);
      throw error;
    }
    this.peer = result.peer;
    this.outbound = new ChannelDirection(result.keys.initiatorToResponder);
    this.inbound = new ChannelDirection(result.keys.responderToInitiator);
    this.lastHeard = this.lastSent = Date.now();
    const interval = this.options.heartbeatMs ?? HEARTBEAT_INTERVAL_MS;
    this.timer = setInterval(() => this.beat(interval), Math.min(interval, 1000));
    this.dispatchEvent(Object.assign(new Event('open'), { peer: result.peer, newlyPaired: result.newlyPaired }));
    // Frames that came in while the handshake finished belong to the channel.
    const early = this.queued.splice(0);
    for (const frame of early) this.openFrame(frame);
    return result;
  }

  get isOpen() { return !this.closed && this.inbound !== null; }

  /** Seals and sends an application message (`body` is JSON-encoded). */
  send(type, body) {
    if (!Number.isInteger(type) || type < 0x10) throw new TypeError(`not an application message type: ${type}`);
    if (!this.isOpen) throw new Error('the link to the TV is closed');
    this.sendRaw(this.outbound.seal(type, utf8(JSON.stringify(body))));
    this.lastSent = Date.now();
  }

  /** Says goodbye and closes. */
  close() {
    if (this.isOpen) { try { this.sendRaw(this.outbound.seal(MessageType.goodbye, new Uint8Array(0))); } catch { /* closing anyway */ } }
    this.finish('closed-locally');
  }

  /** For tests: the raw socket, to send bytes the channel did not seal. */
  sendRaw(bytes) {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(bytes);
  }

  receive(bytes) {
    this.decoder.append(bytes);
    try {
      for (let frame = this.decoder.next(); frame; frame = this.decoder.next()) {
        if (this.inbound) this.openFrame(frame);
        else if (this.waiting.length) this.waiting.shift().resolve(frame);
        else this.queued.push(frame);
      }
    } catch (error) {
      this.finish('bad-frame', error);
    }
  }

  nextFrame() {
    if (this.queued.length) return Promise.resolve(this.queued.shift());
    if (this.closed) return Promise.reject(new HandshakeError(this.closed, { byPeer: true, detail: 'the connection closed' }));
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  openFrame(frame) {
    if (this.closed) return;
    let payload;
    try { payload = this.inbound.open(frame); } catch (error) { return this.finish('channel', error); }
    this.lastHeard = Date.now();
    if (frame.type === MessageType.heartbeat) return;
    if (frame.type === MessageType.goodbye) return this.finish('closed-by-peer');
    let body = null;
    try { body = payload.length ? JSON.parse(new TextDecoder().decode(payload)) : null; } catch { body = null; }
    this.dispatchEvent(Object.assign(new Event('message'), { messageType: frame.type, body }));
  }

  beat(interval) {
    if (!this.isOpen) return;
    const now = Date.now();
    if (now - this.lastHeard > interval * MISSED_BEATS) return this.finish('peer-unresponsive');
    if (now - this.lastSent >= interval) {
      this.sendRaw(this.outbound.seal(MessageType.heartbeat, new Uint8Array(0)));
      this.lastSent = now;
    }
  }

  finish(reason, error = null) {
    if (this.closed) return;
    this.closed = reason;
    clearInterval(this.timer);
    for (const waiter of this.waiting.splice(0)) waiter.reject(new HandshakeError(reason, { byPeer: true, detail: 'the connection closed' }));
    try { this.socket?.close(); } catch { /* already closed */ }
    this.dispatchEvent(Object.assign(new Event('close'), { reason, error }));
  }
}
