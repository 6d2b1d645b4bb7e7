// The device link's public-key pieces: X25519 agreement, Ed25519 identity signatures, SHA-256
// and HKDF-SHA256, all on raw bytes (Uint8Array) like swift-crypto's. ChaCha20-Poly1305 is not
// in WebCrypto; it is chacha20poly1305.js.
//
// WebCrypto exists only in a secure context (https, or http on localhost/127.0.0.1): a phone
// that opens http://192.168.…/remote has no `crypto.subtle`. There the same functions run on
// portable-crypto.js (plain JavaScript). `cryptoBackend()` says which; setting localStorage
// `marquee.devicelink.crypto` to `portable` forces the plain-JavaScript one (tests, diagnosis).
import * as portable from './portable-crypto.js';

const subtle = () => globalThis.crypto?.subtle;

// PKCS #8 wrappers of a raw 32-byte private key (RFC 8410), so keys can be stored as bytes.
const ED25519_PKCS8_PREFIX = Uint8Array.from([0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20]);

export function concatBytes(...parts) {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let offset = 0;
  for (const part of parts) { out.set(part, offset); offset += part.length; }
  return out;
}

export const utf8 = (text) => new TextEncoder().encode(text);

export function toBase64(bytes) {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text);
}

export function fromBase64(text) {
  if (typeof text !== 'string') throw new TypeError('expected base64 text');
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

export function randomBytes(count) {
  return globalThis.crypto.getRandomValues(new Uint8Array(count));
}

let backend = null;

/** 'webcrypto' when this page has WebCrypto with X25519 and Ed25519, else 'portable'. */
export function cryptoBackend() {
  backend ??= (async () => {
    try { if (globalThis.localStorage?.getItem('marquee.devicelink.crypto') === 'portable') return 'portable'; } catch { /* no storage */ }
    if (!subtle()) return 'portable';
    try {
      await subtle().generateKey({ name: 'X25519' }, false, ['deriveBits']);
      await subtle().generateKey({ name: 'Ed25519' }, false, ['sign']);
      return 'webcrypto';
    } catch {
      return 'portable';
    }
  })();
  return backend;
}

const useWebCrypto = async () => (await cryptoBackend()) === 'webcrypto';

/** Whether this page can run the link's cryptography at all (it needs a random source). */
export async function linkCryptoAvailable() {
  return typeof globalThis.crypto?.getRandomValues === 'function';
}

export async function sha256(bytes) {
  if (!(await useWebCrypto())) return portable.sha256(bytes);
  return new Uint8Array(await subtle().digest('SHA-256', bytes));
}

/** HKDF-SHA256 (RFC 5869) of `secret` with `salt` and `info`, `length` bytes. */
export async function hkdf(secret, salt, info, length) {
  if (!(await useWebCrypto())) return portable.hkdfSha256(secret, salt, info, length);
  const key = await subtle().importKey('raw', secret, 'HKDF', false, ['deriveBits']);
  return new Uint8Array(await subtle().deriveBits({ name: 'HKDF', hash: 'SHA-256', salt, info }, key, 8 * length));
}

/** A fresh X25519 key pair: `{ publicKey: 32 bytes, agree(peerPublicKey) → 32-byte secret }`. */
export async function x25519Ephemeral() {
  if (!(await useWebCrypto())) {
    const privateKey = randomBytes(32);
    return { publicKey: portable.x25519PublicKey(privateKey), async agree(peerPublicKey) { return portable.x25519(privateKey, peerPublicKey); } };
  }
  const pair = await subtle().generateKey({ name: 'X25519' }, true, ['deriveBits']);
  const publicKey = new Uint8Array(await subtle().exportKey('raw', pair.publicKey));
  return {
    publicKey,
    async agree(peerPublicKey) {
      if (!(peerPublicKey instanceof Uint8Array) || peerPublicKey.length !== 32) throw new Error('an X25519 key is 32 bytes');
      const peer = await subtle().importKey('raw', peerPublicKey, { name: 'X25519' }, false, []);
      return new Uint8Array(await subtle().deriveBits({ name: 'X25519', public: peer }, pair.privateKey, 256));
    },
  };
}

/** An Ed25519 signing identity from its 32-byte seed (a new one when none is given). */
export async function ed25519Identity(seed = null) {
  if (!(await useWebCrypto())) {
    const key = seed ?? randomBytes(32);
    return { seed: key, publicKey: portable.ed25519PublicKey(key), async sign(message) { return portable.ed25519Sign(key, message); } };
  }
  let privateKey;
  if (seed) {
    privateKey = await subtle().importKey('pkcs8', concatBytes(ED25519_PKCS8_PREFIX, seed), { name: 'Ed25519' }, true, ['sign']);
  } else {
    privateKey = (await subtle().generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])).privateKey;
    seed = new Uint8Array(await subtle().exportKey('pkcs8', privateKey)).slice(ED25519_PKCS8_PREFIX.length);
  }
  const jwk = await subtle().exportKey('jwk', privateKey);
  const publicKey = fromBase64(jwk.x.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - jwk.x.length % 4) % 4));
  return {
    seed,
    publicKey,
    async sign(message) { return new Uint8Array(await subtle().sign({ name: 'Ed25519' }, privateKey, message)); },
  };
}

/** Whether `signature` is `publicKey`'s Ed25519 signature of `message`. */
export async function ed25519Verify(publicKey, message, signature) {
  if (!(await useWebCrypto())) return portable.ed25519Verify(publicKey, message, signature);
  try {
    const key = await subtle().importKey('raw', publicKey, { name: 'Ed25519' }, false, ['verify']);
    return await subtle().verify({ name: 'Ed25519' }, key, signature, message);
  } catch {
    return false;
  }
}

/** The printable fingerprint of an identity key: the first 16 bytes of its SHA-256, hex. */
export async function fingerprint(identityKey) {
  return [...(await sha256(identityKey)).subarray(0, 16)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
