// Frames of the device link, as in Sources/DeviceLink/Framing: a one-byte version (1), the
// message type (UInt32, big-endian), the payload length (UInt32, big-endian), the payload.

export const FRAME_VERSION = 1;
export const HEADER_SIZE = 9;
export const MAXIMUM_PAYLOAD = 64 * 1024;

/** The message types (LinkMessageType.swift). Below 0x10: the handshake, sent in the clear. */
export const MessageType = Object.freeze({
  hello: 0x01, helloReply: 0x02, reveal: 0x03, authenticate: 0x04, approval: 0x05, refusal: 0x06,
  heartbeat: 0x10, goodbye: 0x11,
  intent: 0x100, intentResult: 0x101, nowPlaying: 0x102, playItem: 0x103,
  selectedCharacter: 0x200, move: 0x201, gameState: 0x202,
});

/** The 9-byte header for a payload of `length` bytes. */
export function frameHeader(type, length) {
  const header = new Uint8Array(HEADER_SIZE);
  const view = new DataView(header.buffer);
  header[0] = FRAME_VERSION;
  view.setUint32(1, type >>> 0, false);
  view.setUint32(5, length >>> 0, false);
  return header;
}

/** The frame's bytes on the wire. */
export function encodeFrame(type, payload = new Uint8Array(0)) {
  const bytes = new Uint8Array(HEADER_SIZE + payload.length);
  bytes.set(frameHeader(type, payload.length));
  bytes.set(payload, HEADER_SIZE);
  return bytes;
}

/** Why a byte stream is not frames; the link closes. */
export class FrameError extends Error {}

/**
 * Cuts a byte stream into frames whatever the pieces' boundaries. A bad version or a length
 * over the maximum fails as soon as the header is in, and keeps failing.
 */
export class FrameDecoder {
  constructor(maximumPayload = MAXIMUM_PAYLOAD) {
    this.maximumPayload = maximumPayload;
    this.buffer = new Uint8Array(0);
    this.failure = null;
  }

  append(bytes) {
    const joined = new Uint8Array(this.buffer.length + bytes.length);
    joined.set(this.buffer);
    joined.set(bytes, this.buffer.length);
    this.buffer = joined;
  }

  /** The next whole frame `{type, payload}`, or null when more bytes are needed. */
  next() {
    if (this.failure) throw this.failure;
    if (this.buffer.length < 1) return null;
    if (this.buffer[0] !== FRAME_VERSION) {
      this.failure = new FrameError(`unsupported frame version ${this.buffer[0]}; this device speaks ${FRAME_VERSION}`);
      throw this.failure;
    }
    if (this.buffer.length < HEADER_SIZE) return null;
    const view = new DataView(this.buffer.buffer, this.buffer.byteOffset, this.buffer.byteLength);
    const type = view.getUint32(1, false);
    const length = view.getUint32(5, false);
    if (length > this.maximumPayload) {
      this.failure = new FrameError(`frame of ${length} bytes is larger than the maximum of ${this.maximumPayload}`);
      throw this.failure;
    }
    if (this.buffer.length < HEADER_SIZE + length) return null;
    const payload = this.buffer.slice(HEADER_SIZE, HEADER_SIZE + length);
    this.buffer = this.buffer.slice(HEADER_SIZE + length);
    return { type, payload };
  }
}
