#!/usr/bin/env bash
# Benchmarks the media server on loopback only:
#  1. Segment serving: wrk fetches the same fMP4 segments from `marquee serve` and from nginx
#     (same files, same URL paths, same run) and prints the request-rate ratio (target ≥ 0.7).
#  2. Time to first frame: headless Chromium opens the player; the page's first presented
#     frame (requestVideoFrameCallback) is timed from navigation start (target < 500 ms).
# Every load is bounded (DURATION seconds per wrk run, RUNS page loads) and stops by itself.
set -euo pipefail
cd "$(dirname "$0")/../.."
config="${CONFIG_BENCH:-release}"
bin="${MARQUEE_BENCH_BIN:-$(swift build -c "$config" --show-bin-path)/marquee}"
if [[ ! -x "$bin" ]]; then
  echo "server bench: $bin is not built; run 'swift build -c $config --product marquee'" >&2
  exit 1
fi
duration="${DURATION:-10}"
connections="${CONNECTIONS:-32}"
runs="${RUNS:-5}"
work="$(mktemp -d /tmp/marquee-bench.XXXXXX)"
chmod 755 "$work"  # nginx workers run as an unprivileged user and must read the files
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  if [[ -n "${KEEP_BENCH:-}" ]]; then echo "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

# Marquee with its sample library.
marquee_port="$(free_port)"
"$bin" serve --data "$work/data" --host 127.0.0.1 --port "$marquee_port" > "$work/marquee.log" 2>&1 &
pids+=($!)
base="http://127.0.0.1:$marquee_port"
for _ in $(seq 600); do
  ready="$(curl -sf "$base/api/assets" 2>/dev/null | python3 -c 'import json,sys; a=json.load(sys.stdin)["assets"]; print(int(len(a)==4 and all(x["status"]=="ready" for x in a)))' 2>/dev/null || echo 0)"
  [[ "$ready" == 1 ]] && break
  sleep 0.5
done
[[ "$ready" == 1 ]] || { echo "server bench: samples not ready"; cat "$work/marquee.log"; exit 1; }
tour="$(curl -sf "$base/api/assets?q=Tour" | python3 -c 'import json,sys; print(json.load(sys.stdin)["assets"][0]["id"])')"

# The same segment paths for both servers.
(cd "$work/data" && find "media/$tour" -name '*.m4s' | sort | sed 's|^|/|') > "$work/paths.txt"
segments="$(wc -l < "$work/paths.txt")"
bytes="$(cd "$work/data" && find "media/$tour" -name '*.m4s' -printf '%s\n' | awk '{s+=$1} END {print int(s/NR)}')"
cat > "$work/rotate.lua" <<LUA
local paths = {}
for line in io.lines("$work/paths.txt") do paths[#paths + 1] = line end
local i = 0
request = function()
  i = i + 1
  return wrk.format("GET", paths[(i % #paths) + 1])
end
LUA

# nginx on the same files: root is the data directory, so /media/<id>/... maps to the same file.
nginx_port="$(free_port)"
mkdir -p "$work/nginx"
cat > "$work/nginx/nginx.conf" <<CONF
worker_processes auto;
daemon off;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log warn;
events { worker_connections 1024; }
http {
  include /etc/nginx/mime.types;
  types { video/iso.segment m4s; }
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 100000;
  client_body_temp_path $work/nginx/body;
  proxy_temp_path $work/nginx/proxy;
  fastcgi_temp_path $work/nginx/fastcgi;
  uwsgi_temp_path $work/nginx/uwsgi;
  scgi_temp_path $work/nginx/scgi;
  server {
    listen 127.0.0.1:$nginx_port;
    root $work/data;
    location /media/ { add_header Cache-Control "public, max-age=31536000, immutable"; }
  }
}
CONF
nginx -c "$work/nginx/nginx.conf" -e "$work/nginx/error.log" &
pids+=($!)
first="$(head -1 "$work/paths.txt")"
for _ in $(seq 50); do curl -sf -o /dev/null "http://127.0.0.1:$nginx_port$first" && break; sleep 0.1; done
# Both servers must answer with the same bytes before their rates mean anything.
curl -sf "http://127.0.0.1:$nginx_port$first" -o "$work/from-nginx" || { echo "server bench: nginx does not serve $first"; cat "$work/nginx/error.log"; exit 1; }
curl -sf "$base$first" -o "$work/from-marquee" || { echo "server bench: marquee does not serve $first"; exit 1; }
cmp -s "$work/from-nginx" "$work/from-marquee" || { echo "server bench: the two servers sent different bytes"; exit 1; }

rate() { # url → requests/s, refusing runs with error responses
  wrk -t2 -c"$connections" -d"${duration}s" -s "$work/rotate.lua" "$1" > "$work/wrk-$2.txt"
  if grep -q "Non-2xx" "$work/wrk-$2.txt"; then echo "server bench: $2 answered with errors" >&2; cat "$work/wrk-$2.txt" >&2; exit 1; fi
  awk '/Requests\/sec/ {print $2}' "$work/wrk-$2.txt"
}
echo "segments: $segments fMP4 files, mean $((bytes / 1024)) KiB; wrk -t2 -c$connections -d${duration}s on loopback"
rate "$base" warmup > /dev/null  # fills Marquee's segment cache, as nginx has the page cache
marquee_rate="$(rate "$base" marquee)"
nginx_rate="$(rate "http://127.0.0.1:$nginx_port" nginx)"
printf 'marquee: %s req/s\nnginx:   %s req/s\n' "$marquee_rate" "$nginx_rate"
python3 -c "r=$marquee_rate/$nginx_rate; print(f'segment request-rate ratio marquee/nginx: {r:.2f}x (target >= 0.70) ' + ('OK' if r >= 0.7 else 'BELOW TARGET'))"

# Time to first frame in headless Chromium.
BASE="$base" ASSET="$tour" RUNS="$runs" python3 scripts/bench/first_frame.py
