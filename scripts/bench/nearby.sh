#!/usr/bin/env bash
# Nearby devices (DeviceLink) on loopback: the intent round trip over the encrypted channel
# (remote intent -> PlaybackSessions -> renderer commands -> answer), p50/p99 against the
# targets (2 ms / 10 ms), and encrypted frame throughput against the same frames sent plain
# over the same TCP transport (target: at least 0.5x). Release build; median of 3 runs.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin="$(swift build -c release --show-bin-path)"
[[ -x "$bin/marquee-bench" ]] || swift build -c release --product marquee-bench >/dev/null
out=.build/bench-nearby.jsonl
for i in 1 2 3; do "$bin/marquee-bench" nearby "$@"; done > "$out"
python3 - "$out" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
m = {k: statistics.median(r[k] for r in rows) for k in ("intentP50Ms", "intentP99Ms", "encryptedMBps", "plainMBps", "ratio")}
r = rows[0]
print(f"intent round trip over the encrypted channel ({r['intents']} intents, loopback TCP):")
print(f"  p50 {m['intentP50Ms']:.3f} ms   (target < 2 ms:  {'met' if m['intentP50Ms'] < 2 else 'NOT met'})")
print(f"  p99 {m['intentP99Ms']:.3f} ms   (target < 10 ms: {'met' if m['intentP99Ms'] < 10 else 'NOT met'})")
print(f"frame throughput, {r['frames']} frames of {r['frameBytes']} bytes:")
print(f"  encrypted (ChaCha20-Poly1305)  {m['encryptedMBps']:8.1f} MB/s")
print(f"  plain TCP, same frames         {m['plainMBps']:8.1f} MB/s")
print(f"  ratio encrypted/plain          {m['ratio']:8.2f}x   (target >= 0.5x: {'met' if m['ratio'] >= 0.5 else 'NOT met'})")
PY
