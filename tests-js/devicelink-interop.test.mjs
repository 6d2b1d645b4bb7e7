// The browser's device-link code against vectors written by the Swift implementation
// (Tests/DeviceLinkTests/BrowserInteropVectorsTests.swift checks the same file): the X25519
// agreement, the six-digit pairing code, both HKDF channel keys, frames sealed byte for byte
// the same and Swift's frames opening here, the Ed25519 identity and its signature.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ChannelDirection, ChannelError } from '../Sources/MarqueeServer/Public/js/devicelink/channel.js';
import { FrameDecoder, encodeFrame, MessageType } from '../Sources/MarqueeServer/Public/js/devicelink/frame.js';
import { pairingCode, linkKeys, signedBytes } from '../Sources/MarqueeServer/Public/js/devicelink/handshake.js';
import { ed25519Identity, ed25519Verify, fingerprint } from '../Sources/MarqueeServer/Public/js/devicelink/link-crypto.js';

const vectors = JSON.parse(readFileSync(new URL('./vectors/devicelink-swift.json', import.meta.url)));
const hex = (text) => Uint8Array.from(Buffer.from(text, 'hex'));
const toHex = (bytes) => Buffer.from(bytes).toString('hex');
const X25519_PKCS8_PREFIX = hex('302e020100300506032b656e04220420');

async function x25519(privateHex, peerPublicHex) {
  const key = await crypto.subtle.importKey('pkcs8', new Uint8Array([...X25519_PKCS8_PREFIX, ...hex(privateHex)]), { name: 'X25519' }, false, ['deriveBits']);
  const peer = await crypto.subtle.importKey('raw', hex(peerPublicHex), { name: 'X25519' }, false, []);
  return new Uint8Array(await crypto.subtle.deriveBits({ name: 'X25519', public: peer }, key, 256));
}

test('the same X25519 secret, pairing code and channel keys as Swift', async () => {
  const shared = await x25519(vectors.initiatorPrivateKey, vectors.responderPublicKey);
  assert.equal(toHex(shared), vectors.sharedSecret);
  assert.equal(toHex(await x25519(vectors.responderPrivateKey, vectors.initiatorPublicKey)), vectors.sharedSecret);
  const transcript = hex(vectors.transcript);
  assert.equal(await pairingCode(shared, transcript), vectors.pairingCode);
  const keys = await linkKeys(shared, transcript);
  assert.equal(toHex(keys.initiatorToResponder), vectors.initiatorToResponderKey);
  assert.equal(toHex(keys.responderToInitiator), vectors.responderToInitiatorKey);
});

test('frames sealed here are byte for byte the frames Swift sealed, and Swift\'s open here', () => {
  const seal = { initiator: new ChannelDirection(hex(vectors.initiatorToResponderKey)), responder: new ChannelDirection(hex(vectors.responderToInitiatorKey)) };
  const open = { initiator: new ChannelDirection(hex(vectors.initiatorToResponderKey)), responder: new ChannelDirection(hex(vectors.responderToInitiatorKey)) };
  assert.equal(vectors.frames.length, 5);
  for (const frame of vectors.frames) {
    const wire = seal[frame.direction].seal(frame.type, new TextEncoder().encode(frame.plaintext));
    assert.equal(toHex(wire), frame.wire, `${frame.direction} frame ${frame.counter}`);
    const decoder = new FrameDecoder();
    decoder.append(hex(frame.wire));
    assert.equal(new TextDecoder().decode(open[frame.direction].open(decoder.next())), frame.plaintext);
  }
});

test('a Swift frame replayed, reordered or altered does not open', () => {
  const frames = vectors.frames.filter((f) => f.direction === 'initiator').map((f) => { const d = new FrameDecoder(); d.append(hex(f.wire)); return d.next(); });
  const reordered = new ChannelDirection(hex(vectors.initiatorToResponderKey));
  assert.throws(() => reordered.open(frames[1]), ChannelError);
  const replayed = new ChannelDirection(hex(vectors.initiatorToResponderKey));
  replayed.open(frames[0]);
  assert.throws(() => replayed.open(frames[0]), /failed authentication/);
  const altered = new ChannelDirection(hex(vectors.initiatorToResponderKey));
  const payload = frames[0].payload.slice();
  payload[3] ^= 1;
  assert.throws(() => altered.open({ type: frames[0].type, payload }), /failed authentication/);
  // The type is in the associated data: the same bytes under another type fail.
  const swapped = new ChannelDirection(hex(vectors.initiatorToResponderKey));
  assert.throws(() => swapped.open({ type: MessageType.nowPlaying, payload: frames[0].payload }), /failed authentication/);
  const handshake = new ChannelDirection(hex(vectors.initiatorToResponderKey));
  assert.throws(() => handshake.open({ type: MessageType.hello, payload: frames[0].payload }), /handshake message/);
  const exhausted = new ChannelDirection(hex(vectors.initiatorToResponderKey), 1);
  exhausted.seal(MessageType.intent, new Uint8Array(1));
  assert.throws(() => exhausted.seal(MessageType.intent, new Uint8Array(1)), /used all of its nonces/);
});

test('the same Ed25519 identity, fingerprint and signature as Swift; Swift\'s signature verifies', async () => {
  const identity = await ed25519Identity(hex(vectors.identitySeed));
  assert.equal(toHex(identity.publicKey), vectors.identityPublicKey);
  assert.equal(await fingerprint(identity.publicKey), vectors.identityFingerprint);
  const message = signedBytes('initiator', hex(vectors.transcript));
  assert.equal(toHex(message), vectors.signedMessage);
  assert.equal(toHex(await identity.sign(message)), vectors.signature);
  assert.equal(await ed25519Verify(identity.publicKey, message, hex(vectors.signature)), true);
  const forged = hex(vectors.signature); forged[0] ^= 1;
  assert.equal(await ed25519Verify(identity.publicKey, message, forged), false);
  assert.equal(toHex(identity.seed), vectors.identitySeed);
});

test('the frame decoder: split and merged reads, bad version, oversize', () => {
  const a = encodeFrame(0x100, new Uint8Array([1, 2, 3])), b = encodeFrame(0x10);
  const decoder = new FrameDecoder();
  const all = new Uint8Array([...a, ...b]);
  for (const byte of all.subarray(0, 5)) { decoder.append([byte]); assert.equal(decoder.next(), null); }
  decoder.append(all.subarray(5));
  assert.deepEqual(decoder.next(), { type: 0x100, payload: new Uint8Array([1, 2, 3]) });
  assert.deepEqual(decoder.next(), { type: 0x10, payload: new Uint8Array(0) });
  assert.equal(decoder.next(), null);
  const bad = new FrameDecoder(); bad.append([2]);
  assert.throws(() => bad.next(), /unsupported frame version 2/);
  assert.throws(() => bad.next(), /unsupported frame version 2/);
  const big = new FrameDecoder(); big.append([1, 0, 0, 1, 0, 0, 1, 0, 1]);
  assert.throws(() => big.next(), /larger than the maximum/);
});
