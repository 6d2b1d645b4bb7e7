// Every script the server sends parses: a syntax error in one module stops the whole page
// (an import of it fails), and unit tests only load the modules they test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function scripts(folder) {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return scripts(path);
    return /\.m?js$/.test(name) ? [path] : [];
  });
}

test('every script under Public/ parses', () => {
  const files = scripts(new URL('../Sources/MarqueeServer/Public', import.meta.url).pathname);
  assert.ok(files.length > 50, `only ${files.length} scripts found`);
  const broken = files.filter((file) => {
    try {
      // As a module (a .js file is read as CommonJS by `node --check`, which lets some errors by).
      execFileSync(process.execPath, ['--input-type=module', '--check'], { input: readFileSync(file), stdio: 'pipe' });
      return false;
    } catch {
      return true;
    }
  });
  assert.deepEqual(broken, []);
});
