#!/usr/bin/env bash
# One Live Activity update to TOKENS distinct push tokens (100,000), all at once, against a
# local APNs stand-in that throttles (RPS requests/s processed, STREAMS streams a connection),
# from Marquee's APNs client and from Python's aioapns in the same run, alternating ROUNDS
# rounds. After each round the stand-in says how many tokens got the push and how many got it
# more than once: every token must get it exactly once. Prints each round, then the medians
# and the ratio of pushes/s (Marquee / aioapns). Loopback only.
#   TOKENS=100000 RPS=20000 STREAMS=100 ROUNDS=1 scripts/bench/apns-fanout.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
config="${CONFIG_BENCH:-release}"
bindir="${BENCH_BIN_DIR:-$(swift build -c "$config" --show-bin-path)}"
if [[ ! -x "$bindir/apns-bench" ]]; then
  swift build -c "$config" --product apns-bench >/dev/null
fi
tokens="${TOKENS:-100000}"
rps="${RPS:-20000}"
streams="${STREAMS:-100}"
rounds="${ROUNDS:-1}"
work="$(mktemp -d /tmp/marquee-apns-fanout.XXXXXX)"
server_pid=""
cleanup() {
  [[ -n "$server_pid" ]] && kill "$server_pid" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

mkfifo "$work/stdin"
"$bindir/apns-bench" serve "$work/info.json" "$rps" "$streams" < "$work/stdin" &
server_pid=$!
exec 3>"$work/stdin"
for _ in $(seq 100); do [[ -s "$work/info.json" ]] && break; sleep 0.1; done
[[ -s "$work/info.json" ]] || { echo "apns fanout: the APNs stand-in did not start" >&2; exit 1; }

# Asks the stand-in how many tokens starting with $1 got a push, and how many more than once.
count() {
  rm -f "$work/count.json"
  echo "count $1 $work/count.json" >&3
  for _ in $(seq 300); do [[ -s "$work/count.json" ]] && break; sleep 0.1; done
  cat "$work/count.json"
}

echo "fan-out: $tokens tokens, stand-in throttled to $rps requests/s and $streams streams a connection, $rounds round(s)"
lines=()
for round in $(seq "$rounds"); do
  prefix="a${round}"
  result=$("$bindir/apns-bench" fanout "$work/info.json" "$tokens" "$prefix")
  lines+=("$(python3 -c 'import json,sys; r=json.loads(sys.argv[1]); r["standin"]=json.loads(sys.argv[2]); print(json.dumps(r))' "$result" "$(count "$prefix")")")
  prefix="b${round}"
  result=$(timeout 3600 python3 scripts/bench/apns_fanout_peer.py "$work/info.json" "$tokens" "$prefix")
  lines+=("$(python3 -c 'import json,sys; r=json.loads(sys.argv[1]); r["standin"]=json.loads(sys.argv[2]); print(json.dumps(r))' "$result" "$(count "$prefix")")")
done
exec 3>&-
printf '%s\n' "${lines[@]}" | python3 scripts/bench/apns_fanout_report.py
