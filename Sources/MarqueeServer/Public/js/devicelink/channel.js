// One direction of the device link's encrypted channel (SecureChannel.swift): ChaCha20-Poly1305
// under a per-direction key, the nonce 32 zero bits then a 64-bit frame counter (big-endian,
// never sent), the frame header as associated data. A frame that does not open for the next
// counter (replayed, dropped, reordered, altered) is an error and the link closes.
import { seal, open } from './chacha20poly1305.js';
import { frameHeader, encodeFrame } from './frame.js';

const TAG_SIZE = 16;

/** Why a sealed frame was refused; the link closes. */
export class ChannelError extends Error {}

export class ChannelDirection {
  /** `key`: 32 bytes. `frameLimit`: how many frames before the nonces run out. */
  constructor(key, frameLimit = 2n ** 64n - 1n) {
    this.key = key;
    this.counter = 0n;
    this.frameLimit = BigInt(frameLimit);
  }

  nonce() {
    const nonce = new Uint8Array(12);
    new DataView(nonce.buffer).setBigUint64(4, this.counter, false);
    return nonce;
  }

  /** The wire bytes of a sealed frame of `type` carrying `payload`. */
  seal(type, payload) {
    if (this.counter >= this.frameLimit) throw new ChannelError('this direction of the channel has used all of its nonces');
    const sealed = seal(this.key, this.nonce(), payload, frameHeader(type, payload.length + TAG_SIZE));
    this.counter += 1n;
    return encodeFrame(type, sealed);
  }

  /** The payload of the next frame from the peer. */
  open(frame) {
    if (this.counter >= this.frameLimit) throw new ChannelError('this direction of the channel has used all of its nonces');
    if (frame.type < 0x10) throw new ChannelError(`handshake message ${frame.type} on an established channel`);
    if (frame.payload.length < TAG_SIZE) throw new ChannelError(`sealed frame of ${frame.payload.length} bytes is shorter than its tag`);
    const plain = open(this.key, this.nonce(), frame.payload, frameHeader(frame.type, frame.payload.length));
    if (!plain) throw new ChannelError(`frame ${this.counter} failed authentication (altered, replayed, reordered or wrong key)`);
    this.counter += 1n;
    return plain;
  }
}
