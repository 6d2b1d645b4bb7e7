// This browser's device identity (an Ed25519 seed and a device id) and the TVs it has paired
// with, kept in localStorage so later visits connect without asking anyone.
import { ed25519Identity, toBase64, fromBase64 } from './link-crypto.js';

const IDENTITY_KEY = 'marquee.devicelink.identity';
const TRUSTED_KEY = 'marquee.devicelink.trusted';

function read(key, fallback) {
  try { return JSON.parse(localStorage.getItem(key)) ?? fallback; } catch { return fallback; }
}

/** A friendly name for this browser: “Web remote (Android)”, etc. */
export function browserDeviceName(prefix = 'Web remote') {
  const ua = navigator.userAgent || '';
  const system = /iPhone|iPad/.test(ua) ? 'iOS' : /Android/.test(ua) ? 'Android' : /Mac OS X/.test(ua) ? 'Mac'
    : /Windows/.test(ua) ? 'Windows' : /Linux/.test(ua) ? 'Linux' : 'browser';
  return `${prefix} (${system})`;
}

/** The identity the handshake uses, created on first use. */
export async function loadIdentity(name = browserDeviceName()) {
  const stored = read(IDENTITY_KEY, null);
  let signer;
  let deviceID;
  if (stored?.seed && stored?.deviceID) {
    signer = await ed25519Identity(fromBase64(stored.seed));
    deviceID = stored.deviceID;
  } else {
    signer = await ed25519Identity();
    deviceID = crypto.randomUUID ? crypto.randomUUID() : [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('');
    localStorage.setItem(IDENTITY_KEY, JSON.stringify({ deviceID, seed: toBase64(signer.seed) }));
  }
  return { deviceID, name, platform: 'web', signer };
}

/** The TVs this browser paired with: `[{deviceID, name, identityKey (base64), services}]`. */
export function trustedTVs() { return read(TRUSTED_KEY, []); }

export function trustsTV(identityKey) {
  const key = toBase64(identityKey);
  return trustedTVs().some((tv) => tv.identityKey === key);
}

export function rememberTV(peer, service) {
  const key = toBase64(peer.identityKey);
  const list = trustedTVs().filter((tv) => tv.identityKey !== key);
  const previous = trustedTVs().find((tv) => tv.identityKey === key);
  const services = [...new Set([...(previous?.services ?? []), service])];
  list.push({ deviceID: peer.deviceID, name: peer.name, identityKey: key, services });
  localStorage.setItem(TRUSTED_KEY, JSON.stringify(list));
}

export function forgetTV(identityKey) {
  const key = toBase64(identityKey);
  localStorage.setItem(TRUSTED_KEY, JSON.stringify(trustedTVs().filter((tv) => tv.identityKey !== key)));
}
