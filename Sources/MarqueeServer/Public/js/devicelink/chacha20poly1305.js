// ChaCha20-Poly1305 (RFC 8439), the AEAD of the device link's channel.
//
// Written by hand because WebCrypto has no ChaCha20-Poly1305 and the page loads plain ES
// modules (no npm, no build step). ChaCha20 works on 32-bit words (Uint32Array, `>>> 0`);
// Poly1305 uses BigInt arithmetic modulo 2^130 − 5, which is slower than limb code but
// short enough to check against the RFC line by line; the link's frames are small (intents,
// now-playing snapshots). Tags are compared without an early exit. Tested with RFC 8439's
// vectors in tests-js/chacha20poly1305.test.mjs and against swift-crypto's ChaChaPoly.

const SIGMA = [0x61707865, 0x3320646e, 0x79622d32, 0x6b206574]; // "expand 32-byte k"

function readWordLE(bytes, offset) {
  return (bytes[offset] | bytes[offset + 1] << 8 | bytes[offset + 2] << 16 | bytes[offset + 3] << 24) >>> 0;
}

function rotl(value, shift) {
  return (value << shift | value >>> (32 - shift)) >>> 0;
}

function quarterRound(s, a, b, c, d) {
  s[a] = (s[a] + s[b]) >>> 0; s[d] = rotl(s[d] ^ s[a], 16);
  s[c] = (s[c] + s[d]) >>> 0; s[b] = rotl(s[b] ^ s[c], 12);
  s[a] = (s[a] + s[b]) >>> 0; s[d] = rotl(s[d] ^ s[a], 8);
  s[c] = (s[c] + s[d]) >>> 0; s[b] = rotl(s[b] ^ s[c], 7);
}

function checkLength(name, bytes, length) {
  if (!(bytes instanceof Uint8Array) || bytes.length !== length) {
    throw new TypeError(`${name} must be ${length} bytes (a Uint8Array)`);
  }
}

/** One 64-byte ChaCha20 keystream block (RFC 8439 §2.3). */
export function chacha20Block(key, counter, nonce) {
  checkLength('key', key, 32);
  checkLength('nonce', nonce, 12);
  const initial = new Uint32Array(16);
  initial.set(SIGMA, 0);
  for (let i = 0; i < 8; i++) initial[4 + i] = readWordLE(key, 4 * i);
  initial[12] = counter >>> 0;
  for (let i = 0; i < 3; i++) initial[13 + i] = readWordLE(nonce, 4 * i);
  const s = initial.slice();
  for (let round = 0; round < 10; round++) {
    quarterRound(s, 0, 4, 8, 12); quarterRound(s, 1, 5, 9, 13); quarterRound(s, 2, 6, 10, 14); quarterRound(s, 3, 7, 11, 15);
    quarterRound(s, 0, 5, 10, 15); quarterRound(s, 1, 6, 11, 12); quarterRound(s, 2, 7, 8, 13); quarterRound(s, 3, 4, 9, 14);
  }
  const out = new Uint8Array(64);
  for (let i = 0; i < 16; i++) {
    const word = (s[i] + initial[i]) >>> 0;
    out[4 * i] = word & 0xff; out[4 * i + 1] = word >>> 8 & 0xff; out[4 * i + 2] = word >>> 16 & 0xff; out[4 * i + 3] = word >>> 24;
  }
  return out;
}

/** XORs `data` with the keystream starting at block `counter` (RFC 8439 §2.4). */
export function chacha20(key, counter, nonce, data) {
  const out = new Uint8Array(data.length);
  for (let offset = 0, block = counter; offset < data.length; offset += 64, block++) {
    if (block > 0xffffffff) throw new RangeError('ChaCha20 block counter overflow (message too long)');
    const stream = chacha20Block(key, block, nonce);
    const end = Math.min(64, data.length - offset);
    for (let i = 0; i < end; i++) out[offset + i] = data[offset + i] ^ stream[i];
  }
  return out;
}

function littleEndianBigInt(bytes, start, end) {
  let value = 0n;
  for (let i = end - 1; i >= start; i--) value = value << 8n | BigInt(bytes[i]);
  return value;
}

const P1305 = (1n << 130n) - 5n;
const CLAMP = 0x0ffffffc0ffffffc0ffffffc0fffffffn;

/** The Poly1305 tag of `message` under a one-time 32-byte key (RFC 8439 §2.5). */
export function poly1305(oneTimeKey, message) {
  checkLength('one-time key', oneTimeKey, 32);
  const r = littleEndianBigInt(oneTimeKey, 0, 16) & CLAMP;
  const s = littleEndianBigInt(oneTimeKey, 16, 32);
  let accumulator = 0n;
  for (let offset = 0; offset < message.length; offset += 16) {
    const end = Math.min(offset + 16, message.length);
    const n = littleEndianBigInt(message, offset, end) | 1n << BigInt(8 * (end - offset));
    accumulator = (accumulator + n) * r % P1305;
  }
  let tag = (accumulator + s) & ((1n << 128n) - 1n);
  const out = new Uint8Array(16);
  for (let i = 0; i < 16; i++) { out[i] = Number(tag & 0xffn); tag >>= 8n; }
  return out;
}

function padTo16(length) { return (16 - length % 16) % 16; }

function macData(aad, ciphertext) {
  const total = aad.length + padTo16(aad.length) + ciphertext.length + padTo16(ciphertext.length) + 16;
  const data = new Uint8Array(total);
  let offset = 0;
  data.set(aad, offset); offset += aad.length + padTo16(aad.length);
  data.set(ciphertext, offset); offset += ciphertext.length + padTo16(ciphertext.length);
  const view = new DataView(data.buffer);
  view.setBigUint64(offset, BigInt(aad.length), true);
  view.setBigUint64(offset + 8, BigInt(ciphertext.length), true);
  return data;
}

function tagFor(key, nonce, aad, ciphertext) {
  const oneTimeKey = chacha20Block(key, 0, nonce).subarray(0, 32);
  return poly1305(oneTimeKey, macData(aad, ciphertext));
}

/** Encrypts and authenticates: ciphertext followed by the 16-byte tag (RFC 8439 §2.8). */
export function seal(key, nonce, plaintext, aad = new Uint8Array(0)) {
  const ciphertext = chacha20(key, 1, nonce, plaintext);
  const out = new Uint8Array(ciphertext.length + 16);
  out.set(ciphertext);
  out.set(tagFor(key, nonce, aad, ciphertext), ciphertext.length);
  return out;
}

/** Whether two byte arrays are equal, looking at every byte whatever the first difference. */
export function constantTimeEqual(a, b) {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i] ^ b[i];
  return difference === 0;
}

/** Opens `sealed` (ciphertext ‖ tag); returns the plaintext, or null when authentication fails. */
export function open(key, nonce, sealed, aad = new Uint8Array(0)) {
  checkLength('key', key, 32);
  if (sealed.length < 16) return null;
  const ciphertext = sealed.subarray(0, sealed.length - 16);
  const tag = sealed.subarray(sealed.length - 16);
  if (!constantTimeEqual(tagFor(key, nonce, aad, ciphertext), tag)) return null;
  return chacha20(key, 1, nonce, ciphertext);
}
