// The device link's hand-written ChaCha20-Poly1305 (RFC 8439): the RFC's own vectors, Project
// Wycheproof's (valid and invalid), and random messages against Node's OpenSSL implementation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createCipheriv, randomBytes } from 'node:crypto';
import { chacha20Block, chacha20, poly1305, seal, open } from '../Sources/MarqueeServer/Public/js/devicelink/chacha20poly1305.js';

const hex = (text) => Uint8Array.from(Buffer.from(text.replace(/[\s:]/g, ''), 'hex'));
const toHex = (bytes) => Buffer.from(bytes).toString('hex');
const counting = (n, from = 0) => Uint8Array.from({ length: n }, (_, i) => from + i);

test('RFC 8439 2.3.2: the ChaCha20 block function', () => {
  const block = chacha20Block(counting(32), 1, hex('000000090000004a00000000'));
  assert.equal(toHex(block), toHex(hex(`
    10 f1 e7 e4 d1 3b 59 15 50 0f dd 1f a3 20 71 c4 c7 d1 f4 c7 33 c0 68 03 04 22 aa 9a c3 d4 6c 4e
    d2 82 64 46 07 9f aa 09 14 c2 d7 05 d9 8b 02 a2 b5 12 9c d1 de 16 4e b9 cb d0 83 e8 a2 50 3c 4e`)));
});

test('RFC 8439 2.5.2: Poly1305', () => {
  const key = hex('85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b');
  const tag = poly1305(key, new TextEncoder().encode('Cryptographic Forum Research Group'));
  assert.equal(toHex(tag), 'a8061dc1305136c6c22b8baf0c0127a9');
});

test('RFC 8439 2.6.2: the Poly1305 key is the first half of block 0', () => {
  const key = hex('808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f');
  const block = chacha20Block(key, 0, hex('000000000001020304050607'));
  assert.equal(toHex(block.subarray(0, 32)), '8ad5a08b905f81cc815040274ab29471a833b637e3fd0da508dbb8e2fdd1a646');
});

const wycheproof = JSON.parse(readFileSync(new URL('./vectors/chacha20-poly1305-wycheproof.json', import.meta.url)));

test('RFC 8439 2.8.2 and Project Wycheproof: seal gives the ciphertext and tag; open accepts exactly the valid ones', () => {
  let valid = 0, invalid = 0;
  for (const vector of wycheproof.tests) {
    const key = hex(vector.key), nonce = hex(vector.iv), aad = hex(vector.aad), msg = hex(vector.msg);
    const sealedExpected = new Uint8Array([...hex(vector.ct), ...hex(vector.tag)]);
    const opened = open(key, nonce, sealedExpected, aad);
    if (vector.result === 'valid') {
      assert.equal(toHex(seal(key, nonce, msg, aad)), toHex(sealedExpected), `tcId ${vector.tcId} seal`);
      assert.ok(opened, `tcId ${vector.tcId} should open`);
      assert.equal(toHex(opened), vector.msg, `tcId ${vector.tcId} plaintext`);
      valid++;
    } else {
      assert.equal(opened, null, `tcId ${vector.tcId} (${vector.comment}) must not open`);
      invalid++;
    }
  }
  assert.ok(valid > 200 && invalid > 50, `ran ${valid} valid and ${invalid} invalid vectors`);
});

test('agrees with OpenSSL (node:crypto) on random keys, nonces, lengths and associated data', () => {
  for (let round = 0; round < 200; round++) {
    const key = randomBytes(32), nonce = randomBytes(12);
    const msg = randomBytes(round < 100 ? round : Math.floor(Math.random() * 3000));
    const aad = randomBytes(round % 23);
    const cipher = createCipheriv('chacha20-poly1305', key, nonce, { authTagLength: 16 });
    cipher.setAAD(aad, { plaintextLength: msg.length });
    const expected = Buffer.concat([cipher.update(msg), cipher.final(), cipher.getAuthTag()]);
    const sealed = seal(new Uint8Array(key), new Uint8Array(nonce), new Uint8Array(msg), new Uint8Array(aad));
    assert.equal(toHex(sealed), expected.toString('hex'), `length ${msg.length}, aad ${aad.length}`);
    assert.equal(toHex(open(new Uint8Array(key), new Uint8Array(nonce), sealed, new Uint8Array(aad))), msg.toString('hex'));
  }
});

test('ChaCha20 alone agrees with OpenSSL across block boundaries and counters', () => {
  for (const length of [0, 1, 63, 64, 65, 128, 1000]) {
    const key = randomBytes(32), nonce = randomBytes(12), data = randomBytes(length);
    const counter = 7;
    const iv = Buffer.concat([Buffer.from([counter, 0, 0, 0]), nonce]);
    const cipher = createCipheriv('chacha20', key, iv);
    const expected = Buffer.concat([cipher.update(data), cipher.final()]);
    assert.equal(toHex(chacha20(new Uint8Array(key), counter, new Uint8Array(nonce), new Uint8Array(data))), expected.toString('hex'));
  }
});

test('any altered byte, tag, nonce or associated data fails to open', () => {
  const key = new Uint8Array(randomBytes(32)), nonce = new Uint8Array(randomBytes(12));
  const aad = Uint8Array.from([1, 0, 0, 1, 0, 0, 0, 0, 30]);
  const sealed = seal(key, nonce, new TextEncoder().encode('{"intent":"play"}'), aad);
  for (let i = 0; i < sealed.length; i++) {
    const altered = sealed.slice();
    altered[i] ^= 0x01;
    assert.equal(open(key, nonce, altered, aad), null, `flipping byte ${i}`);
  }
  const otherNonce = nonce.slice(); otherNonce[11] ^= 1;
  assert.equal(open(key, otherNonce, sealed, aad), null);
  const otherAAD = aad.slice(); otherAAD[4] = 2;
  assert.equal(open(key, nonce, sealed, otherAAD), null);
  assert.equal(open(key, nonce, sealed.subarray(0, 15), aad), null);
  assert.throws(() => seal(key.subarray(0, 16), nonce, new Uint8Array(1)), /key must be 32 bytes/);
});
