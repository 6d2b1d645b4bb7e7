// The TV's QR code for the web remote's address: the same matrices as Project Nayuki's library
// (Debian's python3-qrcodegen, the source of the port) and readable by a real decoder (zbarimg
// from zbar-tools). Both tools are installed by scripts/setup.sh; a missing one skips its test
// with the reason.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeQR, qrSVG } from '../Sources/MarqueeServer/Public/js/devicelink/qr-code.js';

const samples = [
  ['http://192.168.1.20:8080/remote', 'M'],
  ['http://127.0.0.1:49152/remote', 'L'],
  ['https://marquee-living-room.local:8443/remote?tv=1f2e3d4c5b6a7988', 'Q'],
  ['リモコン http://[fe80::1]:8080/remote', 'H'],
  ['x'.repeat(300), 'M'],  // version 10+: 16-bit length, version information blocks
  ['y'.repeat(1200), 'L'],
  ['', 'M'],
];

const ORACLE = `
import json, sys
import qrcodegen
out = []
for text, ecc in json.load(sys.stdin):
    level = {'L': qrcodegen.QrCode.Ecc.LOW, 'M': qrcodegen.QrCode.Ecc.MEDIUM, 'Q': qrcodegen.QrCode.Ecc.QUARTILE, 'H': qrcodegen.QrCode.Ecc.HIGH}[ecc]
    qr = qrcodegen.QrCode.encode_segments([qrcodegen.QrSegment.make_bytes(text.encode())], level)
    out.append({'version': qr.get_version(), 'mask': qr.get_mask(), 'rows': [''.join('1' if qr.get_module(x, y) else '0' for x in range(qr.get_size())) for y in range(qr.get_size())]})
print(json.dumps(out))
`;

const rows = (qr) => qr.modules.map((row) => row.map((dark) => (dark ? '1' : '0')).join(''));
const oracleAvailable = existsSync('/usr/bin/python3') && spawnSync('/usr/bin/python3', ['-c', 'import qrcodegen']).status === 0;

test('the same QR matrices (version, mask, every module) as Nayuki\'s qrcodegen', { skip: oracleAvailable ? false : 'python3-qrcodegen is not installed (scripts/setup.sh installs it)' }, () => {
  const result = spawnSync('/usr/bin/python3', ['-c', ORACLE], { input: JSON.stringify(samples), encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
  const expected = JSON.parse(result.stdout);
  samples.forEach(([text, ecc], i) => {
    const qr = encodeQR(text, { ecc });
    assert.equal(qr.version, expected[i].version, `version for ${text.slice(0, 30)}`);
    assert.equal(qr.mask, expected[i].mask, `mask for ${text.slice(0, 30)}`);
    assert.deepEqual(rows(qr), expected[i].rows, `modules for ${text.slice(0, 30)}`);
  });
});

const zbarAvailable = spawnSync('zbarimg', ['--version']).status === 0;

test('zbarimg reads back the web remote\'s address', { skip: zbarAvailable ? false : 'zbarimg is not installed (zbar-tools; scripts/setup.sh installs it)' }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'marquee-qr-'));
  try {
    for (const [text, ecc] of samples.slice(0, 5)) {
      const qr = encodeQR(text, { ecc });
      const scale = 4, border = 4, side = (qr.size + border * 2) * scale;
      const pixels = Buffer.alloc(side * side, 255);
      for (let y = 0; y < qr.size; y++) {
        for (let x = 0; x < qr.size; x++) {
          if (!qr.modules[y][x]) continue;
          for (let dy = 0; dy < scale; dy++) pixels.fill(0, ((y + border) * scale + dy) * side + (x + border) * scale, ((y + border) * scale + dy) * side + (x + border + 1) * scale);
        }
      }
      const file = join(dir, 'code.pgm');
      writeFileSync(file, Buffer.concat([Buffer.from(`P5\n${side} ${side}\n255\n`), pixels]));
      const read = spawnSync('zbarimg', ['--raw', '-q', '-Sbinary', file]);
      assert.equal(read.status, 0, `zbarimg could not read the code for ${text}: ${read.stderr}`);
      assert.equal(read.stdout.toString('utf8').replace(/\n$/, ''), text);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('versions grow with the text, the smallest that fits; too much text is an error', () => {
  assert.equal(encodeQR('http://192.168.1.20:8080/remote', { ecc: 'M' }).version, 3);
  assert.equal(encodeQR('a', { ecc: 'L' }).size, 21);
  assert.throws(() => encodeQR('z'.repeat(3000), { ecc: 'H' }), /do not fit/);
  assert.throws(() => encodeQR('a', { ecc: 'X' }), /must be L, M, Q or H/);
});

test('the SVG draws every dark module inside a white quiet zone and labels itself', () => {
  const qr = encodeQR('http://tv.local/remote');
  const svg = qrSVG(qr, { label: 'Open <the> remote' });
  const dark = qr.modules.flat().filter(Boolean).length;
  assert.equal((svg.match(/h1v1h-1z/g) || []).length, dark);
  assert.match(svg, new RegExp(`viewBox="0 0 ${qr.size + 8} ${qr.size + 8}"`));
  assert.match(svg, /aria-label="Open &lt;the&gt; remote"/);
});
