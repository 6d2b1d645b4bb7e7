// The same Swift interop vectors with the browser's plain-JavaScript cryptography (what a phone
// on http://LAN-address runs): derivations, seals and signatures must be byte for byte Swift's.
globalThis.localStorage = { getItem: (key) => (key === 'marquee.devicelink.crypto' ? 'portable' : null) };
const { cryptoBackend } = await import('../Sources/MarqueeServer/Public/js/devicelink/link-crypto.js');
const { test } = await import('node:test');
const assert = (await import('node:assert/strict')).default;
test('the portable backend is the one in use', async () => assert.equal(await cryptoBackend(), 'portable'));
await import('./devicelink-interop.test.mjs');
