// The initiator's side of the device-link handshake (PairingHandshake.swift), for a browser:
// hello with a SHA-256 commitment to an X25519 ephemeral key, the TV's reply, the reveal, then
// either signatures of already-paired identities or pairing: both devices show the same six
// digits (HKDF of the agreement, salted with the transcript) and each person approves.
import { MessageType, encodeFrame } from './frame.js';
import {
  concatBytes, utf8, toBase64, fromBase64, randomBytes, sha256, hkdf, x25519Ephemeral, ed25519Verify, fingerprint,
} from './link-crypto.js';

/** The handshake ended without a link: `reason` is the refusal reason (`rejected`, `not-paired`, …). */
export class HandshakeError extends Error {
  constructor(reason, { byPeer = false, retryAfter = null, detail = '' } = {}) {
    super(`${byPeer ? 'the other device refused' : 'refused the other device'}: ${reason}${detail ? ` (${detail})` : ''}`);
    this.reason = reason;
    this.byPeer = byPeer;
    this.retryAfter = retryAfter;
  }
}

const json = (type, value) => encodeFrame(type, utf8(JSON.stringify(value)));

function parse(frame) {
  try { return JSON.parse(new TextDecoder().decode(frame.payload)); } catch { return null; }
}

/** The six digits both devices show: HKDF-SHA256(secret, salt: transcript), 8 bytes, big-endian, mod 10^6. */
export async function pairingCode(sharedSecret, transcript) {
  const bytes = await hkdf(sharedSecret, transcript, utf8('marquee devicelink pairing code'), 8);
  const value = new DataView(bytes.buffer).getBigUint64(0, false);
  return (value % 1000000n).toString().padStart(6, '0');
}

/** Both directions' channel keys from the agreement and the transcript hash. */
export async function linkKeys(sharedSecret, transcript) {
  return {
    initiatorToResponder: await hkdf(sharedSecret, transcript, utf8('marquee devicelink initiator->responder'), 32),
    responderToInitiator: await hkdf(sharedSecret, transcript, utf8('marquee devicelink responder->initiator'), 32),
  };
}

/** What a role signs: a label, then the transcript hash. */
export function signedBytes(role, transcript) {
  return concatBytes(utf8(`marquee devicelink v1 ${role}`), transcript);
}

/**
 * Runs the handshake as the connecting device.
 * - `io`: `{ send(bytes), nextFrame() → Promise<{type, payload}> }`.
 * - `identity`: `{ deviceID, name, platform, signer: {publicKey, sign(bytes)} }`.
 * - `request`: `{ service, session, purpose: 'pair'|'connect', trustsPeer(identityKey) → bool, expectedFingerprint? }`.
 * - `approve(code, peer)`: asks the person whether both devices show `code`; resolves true/false.
 *   It receives an AbortSignal as third argument that fires when the TV answered no first.
 * Resolves `{ keys, peer, newlyPaired }`; rejects with a HandshakeError.
 */
export async function initiateHandshake(io, identity, request, approve) {
  const ephemeral = await x25519Ephemeral();
  const nonce = randomBytes(16);
  const commitment = await sha256(concatBytes(ephemeral.publicKey, nonce));
  const hello = json(MessageType.hello, {
    v: 1, deviceID: identity.deviceID, name: identity.name, platform: identity.platform,
    identityKey: toBase64(identity.signer.publicKey), service: request.service, session: request.session,
    purpose: request.purpose, commitment: toBase64(commitment),
  });
  io.send(hello);

  const refuse = (reason, detail) => {
    io.send(json(MessageType.refusal, { reason }));
    return new HandshakeError(reason, { detail });
  };
  const peerRefusal = (frame) => {
    const refusal = parse(frame) || {};
    return new HandshakeError(refusal.reason || 'malformed', { byPeer: true, retryAfter: refusal.retryAfter ?? null });
  };

  const replyFrame = await io.nextFrame();
  if (replyFrame.type === MessageType.refusal) throw peerRefusal(replyFrame);
  const reply = replyFrame.type === MessageType.helloReply ? parse(replyFrame) : null;
  let peerKey, peerEphemeral;
  try {
    peerKey = fromBase64(reply.identityKey);
    peerEphemeral = fromBase64(reply.ephemeralKey);
  } catch {
    throw refuse('unexpected-message', `expected hello reply, got message ${replyFrame.type}`);
  }
  if (peerKey.length !== 32 || peerEphemeral.length !== 32) throw refuse('unexpected-message', 'bad key length');
  const peer = { deviceID: String(reply.deviceID), name: String(reply.name), platform: String(reply.platform), identityKey: peerKey };
  peer.fingerprint = await fingerprint(peerKey);
  if (request.expectedFingerprint && request.expectedFingerprint !== peer.fingerprint) throw refuse('unexpected-identity');
  let mode;
  if (reply.trustsYou === true && request.trustsPeer(peerKey)) mode = 'authenticate';
  else if (request.purpose === 'pair') mode = 'pair';
  else throw refuse('not-paired');

  const reveal = json(MessageType.reveal, { ephemeralKey: toBase64(ephemeral.publicKey), nonce: toBase64(nonce), mode });
  let shared;
  try { shared = await ephemeral.agree(peerEphemeral); } catch { throw refuse('malformed'); }
  const transcript = await sha256(concatBytes(hello, encodeFrame(replyFrame.type, replyFrame.payload), reveal));
  io.send(reveal);
  const verifyPeer = (signature) => ed25519Verify(peerKey, signedBytes('responder', transcript), signature);

  if (mode === 'authenticate') {
    io.send(json(MessageType.authenticate, { signature: toBase64(await identity.signer.sign(signedBytes('initiator', transcript))) }));
    const frame = await io.nextFrame();
    if (frame.type === MessageType.refusal) throw peerRefusal(frame);
    const message = frame.type === MessageType.authenticate ? parse(frame) : null;
    if (!message) throw refuse('unexpected-message', `expected authenticate, got message ${frame.type}`);
    if (!(await verifyPeer(fromBase64(message.signature)))) throw refuse('bad-signature');
    return { keys: await linkKeys(shared, transcript), peer, newlyPaired: false };
  }

  // Pairing: the person's answer here races the TV's answer there.
  const code = await pairingCode(shared, transcript);
  const peerAnswered = new AbortController();
  const local = Promise.resolve(approve(code, peer, peerAnswered.signal)).then((approved) => ({ local: approved === true }));
  const remote = io.nextFrame().then((frame) => ({ frame }));
  let first = await Promise.race([local, remote]);
  let remoteApproved = false;
  const takeRemote = async (frame) => {
    if (frame.type === MessageType.refusal) { peerAnswered.abort(); throw peerRefusal(frame); }
    const message = frame.type === MessageType.approval ? parse(frame) : null;
    if (!message) throw refuse('unexpected-message', `expected approval, got message ${frame.type}`);
    if (message.approved !== true) { peerAnswered.abort(); throw new HandshakeError('rejected', { byPeer: true }); }
    if (!message.signature || !(await verifyPeer(fromBase64(message.signature)))) throw refuse('bad-signature');
    remoteApproved = true;
  };
  if ('frame' in first) {
    await takeRemote(first.frame);
    first = await local;
  }
  if (!first.local) throw refuse('rejected');
  io.send(json(MessageType.approval, { approved: true, signature: toBase64(await identity.signer.sign(signedBytes('initiator', transcript))) }));
  if (!remoteApproved) await takeRemote((await remote).frame);
  return { keys: await linkKeys(shared, transcript), peer, newlyPaired: true };
}
