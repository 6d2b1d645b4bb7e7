#!/usr/bin/env bash
# Ad-break transitions in the web player (issue 13): starts `marquee serve` on loopback with
# its sample library, schedules BREAKS (10) one-second breaks into the Test Pattern Tour, and
# times the gap between the primary's last frame and the break's first frame and back with
# requestVideoFrameCallback in headless Chromium: median and worst of 2 × BREAKS transitions
# (target: worst under 100 ms), beside the peer (one frame interval, an ideal cut).
set -euo pipefail
cd "$(dirname "$0")/../.."
config="${CONFIG_BENCH:-release}"
bin="${MARQUEE_BENCH_BIN:-$(swift build -c "$config" --show-bin-path)/marquee}"
if [[ ! -x "$bin" ]]; then
  echo "interstitials bench: $bin is not built; run 'swift build -c $config --product marquee'" >&2
  exit 1
fi
work="$(mktemp -d /tmp/marquee-bench-ads.XXXXXX)"
pid=""
cleanup() { [[ -n "$pid" ]] && kill "$pid" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')"
"$bin" serve --data "$work/data" --host 127.0.0.1 --port "$port" > "$work/marquee.log" 2>&1 &
pid=$!
base="http://127.0.0.1:$port"
ready=0
for _ in $(seq 600); do
  ready="$(curl -sf "$base/api/assets" 2>/dev/null | python3 -c 'import json,sys; a=json.load(sys.stdin)["assets"]; print(int(len(a)==4 and all(x["status"]=="ready" for x in a)))' 2>/dev/null || echo 0)"
  [[ "$ready" == 1 ]] && break
  sleep 0.5
done
[[ "$ready" == 1 ]] || { echo "interstitials bench: samples not ready"; cat "$work/marquee.log"; exit 1; }
id_of() { curl -sf "$base/api/assets?q=$1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["assets"][0]["id"])'; }
BASE="$base" TOUR="$(id_of Tour)" AD="$(id_of Sample%20Ad)" BREAKS="${BREAKS:-10}" python3 scripts/bench/interstitials.py
