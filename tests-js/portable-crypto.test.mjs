// The plain-JavaScript SHA-256, SHA-512, HMAC/HKDF, X25519 and Ed25519 that a phone's web remote
// uses where browsers give no WebCrypto (http on a LAN address): RFC and Wycheproof vectors, and
// random inputs against Node's OpenSSL.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createHash, createHmac, hkdfSync, randomBytes, generateKeyPairSync, diffieHellman, createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import {
  sha256, sha512, hmacSha256, hkdfSha256, x25519, x25519PublicKey, ed25519PublicKey, ed25519Sign, ed25519Verify,
} from '../Sources/MarqueeServer/Public/js/devicelink/portable-crypto.js';

const hex = (text) => Uint8Array.from(Buffer.from(text, 'hex'));
const toHex = (bytes) => Buffer.from(bytes).toString('hex');
const vectors = (name) => JSON.parse(readFileSync(new URL(`./vectors/${name}`, import.meta.url))).tests;

test('SHA-256 and SHA-512: FIPS examples and every length across the block boundaries, against OpenSSL', () => {
  assert.equal(toHex(sha256(new TextEncoder().encode('abc'))), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  assert.equal(toHex(sha512(new TextEncoder().encode('abc'))),
    'ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f');
  for (let length = 0; length < 300; length++) {
    const data = randomBytes(length);
    assert.equal(toHex(sha256(new Uint8Array(data))), createHash('sha256').update(data).digest('hex'), `sha256 of ${length} bytes`);
    assert.equal(toHex(sha512(new Uint8Array(data))), createHash('sha512').update(data).digest('hex'), `sha512 of ${length} bytes`);
  }
});

test('HMAC-SHA256 and HKDF-SHA256: RFC 5869 A.1 and random inputs against OpenSSL', () => {
  const okm = hkdfSha256(hex('0b'.repeat(22)), hex('000102030405060708090a0b0c'), hex('f0f1f2f3f4f5f6f7f8f9'), 42);
  assert.equal(toHex(okm), '3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865');
  for (let round = 0; round < 50; round++) {
    const key = randomBytes(round * 3), message = randomBytes(round * 7), salt = randomBytes(round % 40), info = randomBytes(round % 13);
    assert.equal(toHex(hmacSha256(new Uint8Array(key), new Uint8Array(message))), createHmac('sha256', key).update(message).digest('hex'));
    const length = 1 + round * 5;
    assert.equal(toHex(hkdfSha256(new Uint8Array(message), new Uint8Array(salt), new Uint8Array(info), length)),
      Buffer.from(hkdfSync('sha256', message, salt, info, length)).toString('hex'));
  }
});

test('X25519: RFC 7748 5.2 and 6.1, and Wycheproof', () => {
  assert.equal(toHex(x25519(hex('a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4'),
    hex('e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c'))), 'c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552');
  const alice = hex('77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a');
  const bob = hex('5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb');
  assert.equal(toHex(x25519PublicKey(alice)), '8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a');
  assert.equal(toHex(x25519(alice, x25519PublicKey(bob))), '4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742');
  let checked = 0;
  for (const v of vectors('x25519-wycheproof.json')) {
    if (/^0+$/.test(v.shared)) {
      assert.throws(() => x25519(hex(v.private), hex(v.public)), /all-zero/, `tcId ${v.tcId}`);
    } else {
      assert.equal(toHex(x25519(hex(v.private), hex(v.public))), v.shared, `tcId ${v.tcId} (${v.comment})`);
    }
    checked++;
  }
  assert.ok(checked > 500);
});

test('X25519 agrees with OpenSSL on random keys', () => {
  for (let round = 0; round < 20; round++) {
    const a = generateKeyPairSync('x25519'), b = generateKeyPairSync('x25519');
    const aPrivate = new Uint8Array(a.privateKey.export({ format: 'der', type: 'pkcs8' }).subarray(16));
    const bPublic = new Uint8Array(b.publicKey.export({ format: 'der', type: 'spki' }).subarray(12));
    assert.equal(toHex(x25519PublicKey(aPrivate)), a.publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('hex'));
    assert.equal(toHex(x25519(aPrivate, bPublic)), diffieHellman({ privateKey: a.privateKey, publicKey: b.publicKey }).toString('hex'));
  }
});

test('Ed25519: RFC 8032 7.1 tests 1 and 2', () => {
  const seed1 = hex('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60');
  assert.equal(toHex(ed25519PublicKey(seed1)), 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a');
  const signature = ed25519Sign(seed1, new Uint8Array(0));
  assert.equal(toHex(signature), 'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b');
  assert.ok(ed25519Verify(ed25519PublicKey(seed1), new Uint8Array(0), signature));
  const seed2 = hex('4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb');
  assert.equal(toHex(ed25519PublicKey(seed2)), '3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c');
  assert.equal(toHex(ed25519Sign(seed2, hex('72'))), '92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00');
});

test('Ed25519 verification: Wycheproof (valid accepted, invalid refused)', () => {
  let valid = 0, invalid = 0;
  for (const v of vectors('ed25519-wycheproof.json')) {
    const accepted = ed25519Verify(hex(v.publicKey), hex(v.msg), hex(v.sig));
    assert.equal(accepted, v.result === 'valid', `tcId ${v.tcId} (${v.comment})`);
    if (accepted) valid++; else invalid++;
  }
  assert.ok(valid > 10 && invalid > 50, `${valid} valid, ${invalid} invalid`);
});

test('Ed25519 agrees with OpenSSL on random seeds and messages, both ways', () => {
  const prefix = Buffer.from('302e020100300506032b657004220420', 'hex');
  for (let round = 0; round < 15; round++) {
    const seed = randomBytes(32), message = randomBytes(round * 11);
    const key = createPrivateKey({ key: Buffer.concat([prefix, seed]), format: 'der', type: 'pkcs8' });
    const publicKey = createPublicKey(key).export({ format: 'der', type: 'spki' }).subarray(12);
    assert.equal(toHex(ed25519PublicKey(new Uint8Array(seed))), publicKey.toString('hex'));
    const ours = ed25519Sign(new Uint8Array(seed), new Uint8Array(message));
    assert.equal(toHex(ours), sign(null, message, key).toString('hex'));
    assert.ok(verify(null, message, createPublicKey(key), Buffer.from(ours)));
    const altered = ours.slice(); altered[round % 64] ^= 4;
    assert.equal(ed25519Verify(new Uint8Array(publicKey), new Uint8Array(message), altered), false);
  }
});
