// The device link's public-key cryptography in plain JavaScript, for pages without WebCrypto.
//
// Browsers expose `crypto.subtle` only in a secure context (https, or http on localhost), but a
// phone opens the TV's web remote as http://192.168.…:8080/remote. So the link carries its own
// SHA-256, SHA-512, HMAC/HKDF-SHA256 (RFC 2104, 5869), X25519 (RFC 7748) and Ed25519 (RFC 8032),
// written from the RFCs with BigInt field arithmetic. link-crypto.js uses WebCrypto when it has
// it and these otherwise. They are checked against the RFCs' vectors, Wycheproof's, and Node's
// OpenSSL on random inputs (tests-js/portable-crypto.test.mjs).
//
// BigInt arithmetic is not constant-time. The secrets here are a per-connection ephemeral key
// and the phone's pairing identity; timing them would take a local attacker many precise
// measurements of one phone's handshakes. The TV side (swift-crypto) is constant-time.

// MARK: - SHA-256 (FIPS 180-4)

const K256 = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
  0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

function padMessage(message, blockSize, lengthBytes) {
  const total = Math.ceil((message.length + 1 + lengthBytes) / blockSize) * blockSize;
  const padded = new Uint8Array(total);
  padded.set(message);
  padded[message.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setBigUint64(total - 8, BigInt(message.length) * 8n, false);
  return padded;
}

export function sha256(message) {
  const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const padded = padMessage(message, 64, 8);
  const view = new DataView(padded.buffer);
  const w = new Uint32Array(64);
  const rotr = (x, n) => (x >>> n | x << (32 - n)) >>> 0;
  for (let offset = 0; offset < padded.length; offset += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(offset + 4 * i, false);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let i = 0; i < 64; i++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K256[i] + w[i]) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      hh = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) outView.setUint32(4 * i, h[i], false);
  return out;
}

// MARK: - SHA-512 (FIPS 180-4), on BigInt words

const K512 = [
  '428a2f98d728ae22', '7137449123ef65cd', 'b5c0fbcfec4d3b2f', 'e9b5dba58189dbbc', '3956c25bf348b538', '59f111f1b605d019', '923f82a4af194f9b', 'ab1c5ed5da6d8118',
  'd807aa98a3030242', '12835b0145706fbe', '243185be4ee4b28c', '550c7dc3d5ffb4e2', '72be5d74f27b896f', '80deb1fe3b1696b1', '9bdc06a725c71235', 'c19bf174cf692694',
  'e49b69c19ef14ad2', 'efbe4786384f25e3', '0fc19dc68b8cd5b5', '240ca1cc77ac9c65', '2de92c6f592b0275', '4a7484aa6ea6e483', '5cb0a9dcbd41fbd4', '76f988da831153b5',
  '983e5152ee66dfab', 'a831c66d2db43210', 'b00327c898fb213f', 'bf597fc7beef0ee4', 'c6e00bf33da88fc2', 'd5a79147930aa725', '06ca6351e003826f', '142929670a0e6e70',
  '27b70a8546d22ffc', '2e1b21385c26c926', '4d2c6dfc5ac42aed', '53380d139d95b3df', '650a73548baf63de', '766a0abb3c77b2a8', '81c2c92e47edaee6', '92722c851482353b',
  'a2bfe8a14cf10364', 'a81a664bbc423001', 'c24b8b70d0f89791', 'c76c51a30654be30', 'd192e819d6ef5218', 'd69906245565a910', 'f40e35855771202a', '106aa07032bbd1b8',
  '19a4c116b8d2d0c8', '1e376c085141ab53', '2748774cdf8eeb99', '34b0bcb5e19b48a8', '391c0cb3c5c95a63', '4ed8aa4ae3418acb', '5b9cca4f7763e373', '682e6ff3d6b2b8a3',
  '748f82ee5defb2fc', '78a5636f43172f60', '84c87814a1f0ab72', '8cc702081a6439ec', '90befffa23631e28', 'a4506cebde82bde9', 'bef9a3f7b2c67915', 'c67178f2e372532b',
  'ca273eceea26619c', 'd186b8c721c0c207', 'eada7dd6cde0eb1e', 'f57d4f7fee6ed178', '06f067aa72176fba', '0a637dc5a2c898a6', '113f9804bef90dae', '1b710b35131c471b',
  '28db77f523047d84', '32caab7b40c72493', '3c9ebe0a15c9bebc', '431d67c49c100d4c', '4cc5d4becb3e42b6', '597f299cfc657e2a', '5fcb6fab3ad6faec', '6c44198c4a475817',
].map((hex) => BigInt(`0x${hex}`));

const MASK64 = (1n << 64n) - 1n;

export function sha512(message) {
  const h = ['6a09e667f3bcc908', 'bb67ae8584caa73b', '3c6ef372fe94f82b', 'a54ff53a5f1d36f1', '510e527fade682d1', '9b05688c2b3e6c1f',
    '1f83d9abfb41bd6b', '5be0cd19137e2179'].map((hex) => BigInt(`0x${hex}`));
  const padded = padMessage(message, 128, 16);
  const view = new DataView(padded.buffer);
  const w = new Array(80);
  const rotr = (x, n) => ((x >> n) | (x << (64n - n))) & MASK64;
  for (let offset = 0; offset < padded.length; offset += 128) {
    for (let i = 0; i < 16; i++) w[i] = view.getBigUint64(offset + 8 * i, false);
    for (let i = 16; i < 80; i++) {
      const s0 = rotr(w[i - 15], 1n) ^ rotr(w[i - 15], 8n) ^ (w[i - 15] >> 7n);
      const s1 = rotr(w[i - 2], 19n) ^ rotr(w[i - 2], 61n) ^ (w[i - 2] >> 6n);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) & MASK64;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let i = 0; i < 80; i++) {
      const t1 = (hh + (rotr(e, 14n) ^ rotr(e, 18n) ^ rotr(e, 41n)) + ((e & f) ^ (~e & MASK64 & g)) + K512[i] + w[i]) & MASK64;
      const t2 = ((rotr(a, 28n) ^ rotr(a, 34n) ^ rotr(a, 39n)) + ((a & b) ^ (a & c) ^ (b & c))) & MASK64;
      hh = g; g = f; f = e; e = (d + t1) & MASK64; d = c; c = b; b = a; a = (t1 + t2) & MASK64;
    }
    h[0] = (h[0] + a) & MASK64; h[1] = (h[1] + b) & MASK64; h[2] = (h[2] + c) & MASK64; h[3] = (h[3] + d) & MASK64;
    h[4] = (h[4] + e) & MASK64; h[5] = (h[5] + f) & MASK64; h[6] = (h[6] + g) & MASK64; h[7] = (h[7] + hh) & MASK64;
  }
  const out = new Uint8Array(64);
  const outView = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) outView.setBigUint64(8 * i, h[i], false);
  return out;
}

// MARK: - HMAC-SHA256 and HKDF-SHA256

function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) { out.set(part, offset); offset += part.length; }
  return out;
}

export function hmacSha256(key, message) {
  let block = key.length > 64 ? sha256(key) : key;
  const padded = new Uint8Array(64);
  padded.set(block);
  block = padded;
  const inner = block.map((b) => b ^ 0x36), outer = block.map((b) => b ^ 0x5c);
  return sha256(concat(outer, sha256(concat(inner, message))));
}

export function hkdfSha256(secret, salt, info, length) {
  if (length > 255 * 32) throw new RangeError('HKDF-SHA256 output is at most 8160 bytes');
  const prk = hmacSha256(salt.length ? salt : new Uint8Array(32), secret);
  const out = new Uint8Array(length);
  let previous = new Uint8Array(0);
  for (let i = 1, offset = 0; offset < length; i++) {
    previous = hmacSha256(prk, concat(previous, info, Uint8Array.of(i)));
    out.set(previous.subarray(0, Math.min(32, length - offset)), offset);
    offset += 32;
  }
  return out;
}

// MARK: - Field arithmetic modulo p = 2^255 − 19

const P = (1n << 255n) - 19n;
const mod = (a, m = P) => { const r = a % m; return r >= 0n ? r : r + m; };

function power(base, exponent, m = P) {
  let result = 1n;
  base = mod(base, m);
  while (exponent > 0n) {
    if (exponent & 1n) result = result * base % m;
    base = base * base % m;
    exponent >>= 1n;
  }
  return result;
}

const invert = (x) => power(x, P - 2n);

function bytesToNumberLE(bytes) {
  let value = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) value = value << 8n | BigInt(bytes[i]);
  return value;
}

function numberToBytesLE(value, length = 32) {
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) { out[i] = Number(value & 0xffn); value >>= 8n; }
  return out;
}

function checkBytes(name, bytes, length) {
  if (!(bytes instanceof Uint8Array) || bytes.length !== length) throw new TypeError(`${name} must be ${length} bytes`);
}

// MARK: - X25519 (RFC 7748)

function clampScalar(bytes) {
  const k = Uint8Array.from(bytes);
  k[0] &= 248; k[31] &= 127; k[31] |= 64;
  return bytesToNumberLE(k);
}

/** X25519(scalar, u): 32 bytes each; throws when the result is all zeros (a low-order point). */
export function x25519(scalar, u) {
  checkBytes('an X25519 private key', scalar, 32);
  checkBytes('an X25519 public key', u, 32);
  const k = clampScalar(scalar);
  const x1 = bytesToNumberLE(u) & ((1n << 255n) - 1n);
  let x2 = 1n, z2 = 0n, x3 = mod(x1), z3 = 1n, swap = 0n;
  for (let t = 254n; t >= 0n; t--) {
    const bit = (k >> t) & 1n;
    swap ^= bit;
    if (swap) { [x2, x3] = [x3, x2]; [z2, z3] = [z3, z2]; }
    swap = bit;
    const a = x2 + z2, aa = a * a % P, b = x2 - z2, bb = mod(b * b), e = mod(aa - bb);
    const c = x3 + z3, d = x3 - z3, da = mod(d * a), cb = mod(c * b);
    x3 = mod((da + cb) ** 2n);
    z3 = mod(x1 * mod((da - cb) ** 2n));
    x2 = aa * bb % P;
    z2 = mod(e * (aa + 121665n * e));
  }
  if (swap) { [x2, x3] = [x3, x2]; [z2, z3] = [z3, z2]; }
  const result = numberToBytesLE(mod(x2 * invert(z2)));
  if (result.every((byte) => byte === 0)) throw new Error('X25519 produced the all-zero secret (a low-order public key)');
  return result;
}

const BASE_U = numberToBytesLE(9n);

export function x25519PublicKey(scalar) { return x25519(scalar, BASE_U); }

// MARK: - Ed25519 (RFC 8032), extended coordinates

const D = mod(-121665n * invert(121666n));
const L = (1n << 252n) + 27742317777372353535851937790883648493n;
const SQRT_M1 = power(2n, (P - 1n) / 4n);
const BASE_Y = mod(4n * invert(5n));
const IDENTITY = [0n, 1n, 1n, 0n];

function recoverX(y, sign) {
  if (y >= P) return null;
  const y2 = y * y % P;
  const x2 = mod((y2 - 1n) * invert(D * y2 + 1n));
  if (x2 === 0n) return sign ? null : 0n;
  let x = power(x2, (P + 3n) / 8n);
  if (mod(x * x - x2) !== 0n) x = x * SQRT_M1 % P;
  if (mod(x * x - x2) !== 0n) return null;
  if (Number(x & 1n) !== sign) x = P - x;
  return x;
}

const BASE = (() => { const x = recoverX(BASE_Y, 0); return [x, BASE_Y, 1n, x * BASE_Y % P]; })();

function add([x1, y1, z1, t1], [x2, y2, z2, t2]) {
  const a = mod((y1 - x1) * (y2 - x2)), b = (y1 + x1) * (y2 + x2) % P;
  const c = t1 * 2n * D * t2 % P, d = z1 * 2n * z2 % P;
  const e = mod(b - a), f = mod(d - c), g = (d + c) % P, h = (b + a) % P;
  return [e * f % P, g * h % P, f * g % P, e * h % P];
}

function multiply(point, scalar) {
  let result = IDENTITY, addend = point;
  while (scalar > 0n) {
    if (scalar & 1n) result = add(result, addend);
    addend = add(addend, addend);
    scalar >>= 1n;
  }
  return result;
}

function encodePoint([x, y, z]) {
  const zInverse = invert(z);
  const ax = x * zInverse % P, ay = y * zInverse % P;
  const bytes = numberToBytesLE(ay);
  bytes[31] |= Number(ax & 1n) << 7;
  return bytes;
}

function decodePoint(bytes) {
  const sign = bytes[31] >> 7;
  const y = bytesToNumberLE(Uint8Array.from(bytes, (b, i) => (i === 31 ? b & 0x7f : b)));
  const x = recoverX(y, sign);
  return x === null ? null : [x, y, 1n, x * y % P];
}

function expandSeed(seed) {
  checkBytes('an Ed25519 seed', seed, 32);
  const h = sha512(seed);
  return { scalar: clampScalar(h.subarray(0, 32)), prefix: h.subarray(32) };
}

export function ed25519PublicKey(seed) {
  return encodePoint(multiply(BASE, expandSeed(seed).scalar));
}

export function ed25519Sign(seed, message) {
  const { scalar, prefix } = expandSeed(seed);
  const publicKey = encodePoint(multiply(BASE, scalar));
  const r = mod(bytesToNumberLE(sha512(concat(prefix, message))), L);
  const R = encodePoint(multiply(BASE, r));
  const k = mod(bytesToNumberLE(sha512(concat(R, publicKey, message))), L);
  const S = mod(r + k * scalar, L);
  return concat(R, numberToBytesLE(S));
}

export function ed25519Verify(publicKey, message, signature) {
  if (!(publicKey instanceof Uint8Array) || publicKey.length !== 32) return false;
  if (!(signature instanceof Uint8Array) || signature.length !== 64) return false;
  const A = decodePoint(publicKey);
  const R = decodePoint(signature.subarray(0, 32));
  if (!A || !R) return false;
  const S = bytesToNumberLE(signature.subarray(32));
  if (S >= L) return false;
  const k = mod(bytesToNumberLE(sha512(concat(signature.subarray(0, 32), publicKey, message))), L);
  const left = encodePoint(multiply(BASE, S));
  const right = encodePoint(add(R, multiply(A, k)));
  return left.every((byte, i) => byte === right[i]);
}
