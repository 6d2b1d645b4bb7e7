#!/usr/bin/env bash
# Live Activities benchmarks, on loopback only:
#  1. Push throughput: Live Activity updates per second from Marquee's APNs client and from
#     Python's aioapns to the same local APNs stand-in (HTTP/2 over TLS, JWT checked on every
#     request), same payloads, one connection each, PUSHES pushes with INFLIGHT in flight
#     (target: Marquee ≥ 2× aioapns).
#  2. Progress → page: the time from a download's progress event (as /api/downloads/events
#     delivers it) to the Live Activity's percent changing on /activities in headless
#     Chromium; the median over a real download (target < 100 ms).
set -euo pipefail
cd "$(dirname "$0")/../.."
config="${CONFIG_BENCH:-release}"
# BENCH_BIN_DIR=path/to/release picks binaries built elsewhere (another --scratch-path).
bindir="${BENCH_BIN_DIR:-$(swift build -c "$config" --show-bin-path)}"
if [[ ! -x "$bindir/apns-bench" ]]; then
  swift build -c "$config" --product apns-bench >/dev/null
fi
pushes="${PUSHES:-20000}"
inflight="${INFLIGHT:-100}"
work="$(mktemp -d /tmp/marquee-apns-bench.XXXXXX)"
server_pid=""
cleanup() {
  [[ -n "$server_pid" ]] && kill "$server_pid" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

mkfifo "$work/stdin"
"$bindir/apns-bench" serve "$work/info.json" < "$work/stdin" &
server_pid=$!
exec 3>"$work/stdin"
for _ in $(seq 100); do [[ -s "$work/info.json" ]] && break; sleep 0.1; done
[[ -s "$work/info.json" ]] || { echo "apns bench: the APNs stand-in did not start" >&2; exit 1; }

marquee=$("$bindir/apns-bench" client "$work/info.json" "$pushes" "$inflight")
peer=$(timeout 600 python3 scripts/bench/apns_peer.py "$work/info.json" "$pushes" "$inflight")
exec 3>&-
python3 - "$marquee" "$peer" <<'PY'
import json, sys
m, p = json.loads(sys.argv[1]), json.loads(sys.argv[2])
print(f"APNs pushes/s ({m['pushes']} Live Activity updates, 1 HTTP/2 connection, same payloads, local TLS stand-in)")
print(f"  marquee  {m['perSecond']:10.0f}/s   delivered {m['delivered']}")
print(f"  aioapns  {p['perSecond']:10.0f}/s   delivered {p['delivered']}")
print(f"  ratio    {m['perSecond'] / p['perSecond']:10.2f}×  (target ≥ 2×)")
PY

marquee_bin="$bindir/marquee"
if [[ -x "$marquee_bin" ]]; then
  MARQUEE_BIN="$marquee_bin" timeout 600 python3 scripts/bench/activity_latency.py
else
  echo "progress → page: $marquee_bin is not built; run 'swift build -c $config --product marquee'"
fi
