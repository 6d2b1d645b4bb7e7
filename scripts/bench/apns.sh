#!/usr/bin/env bash
# Live Activities benchmarks, on loopback only:
#  1. Push throughput: Live Activity updates per second from Marquee's APNs client and from
#     Python's aioapns to the same local APNs stand-in (HTTP/2 over TLS, JWT checked on every
#     request), same payloads, one connection each, PUSHES pushes with INFLIGHT in flight,
#     ROUNDS alternating rounds (target: Marquee ≥ 2× aioapns), each client's CPU time per
#     push, and the stand-in alone under h2load (is it the limit?).
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

# Rounds alternate between the two clients (the machine may be busy with other work): the
# medians are compared, and each client's CPU time per push is shown beside its rate.
rounds="${ROUNDS:-3}"
results=()
for _ in $(seq "$rounds"); do
  results+=("$("$bindir/apns-bench" client "$work/info.json" "$pushes" "$inflight")")
  results+=("$(timeout 600 python3 scripts/bench/apns_peer.py "$work/info.json" "$pushes" "$inflight")")
done
# The stand-in alone, driven by h2load (C, nearly free): the most any client could get from it here.
standin=$(timeout 600 python3 scripts/bench/apns_standin_alone.py "$work/info.json" "$pushes" "$inflight" 2>/dev/null || echo '{"client":"h2load","missing":true}')
exec 3>&-
printf '%s\n' "${results[@]}" "$standin" | python3 scripts/bench/apns_report.py

marquee_bin="$bindir/marquee"
if [[ -x "$marquee_bin" ]]; then
  MARQUEE_BIN="$marquee_bin" timeout 600 python3 scripts/bench/activity_latency.py
else
  echo "progress → page: $marquee_bin is not built; run 'swift build -c $config --product marquee'"
fi
