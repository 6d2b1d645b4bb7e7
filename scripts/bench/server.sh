#!/usr/bin/env bash
# Benchmarks the media server on loopback only:
#  1. Segment serving: wrk fetches the same fMP4 segments from `marquee serve` and from nginx
#     (same files, same URL paths, same run) in ROUNDS rounds that alternate which server goes
#     first, and prints each server's rate and CPU per request with their spread and the
#     paired ratio (target ≥ 0.9). On a small machine wrk, nginx and Marquee share the CPUs,
#     so one round is noise: see docs/server-benchmarks.md for why, and PIN=1 to separate them.
#     BENCH_AUTH_HEADER="Name: value" is sent with every request (a signed-in bench).
#  2. Time to first frame: headless Chromium opens the player; the page's first presented
#     frame (requestVideoFrameCallback) is timed from navigation start (target < 500 ms).
#  3. Renderer flood: one client sends 10,000 frames/s on a renderer WebSocket while another
#     times GET /api/assets (ws_flood.py; target p99 < 50 ms).
# FIRST_FRAME=0 / FLOOD=0 leave parts 2 / 3 out.
# ACCESS_LOG=1 (the default) has both servers write an access log line per request (Marquee's
# own, as `marquee serve` does by default; nginx's combined format to a buffered file), so the
# CPU per request compares like with like; ACCESS_LOG=0 has neither write one.
# Every load is bounded (DURATION seconds per wrk run, RUNS page loads) and stops by itself.
set -euo pipefail
cd "$(dirname "$0")/../.."
config="${CONFIG_BENCH:-release}"
bin="${MARQUEE_BENCH_BIN:-$(swift build -c "$config" --show-bin-path)/marquee}"
if [[ ! -x "$bin" ]]; then
  echo "server bench: $bin is not built; run 'swift build -c $config --product marquee'" >&2
  exit 1
fi
duration="${DURATION:-5}"
connections="${CONNECTIONS:-32}"
threads="${THREADS:-2}"
rounds="${ROUNDS:-6}"
ratio_target="${RATIO_TARGET:-0.9}"
# PIN=1 on a machine with 2+ CPUs: wrk on CPU 0, both servers (one nginx worker) on CPU 1, so
# neither server competes with the load generator. Or set PIN_CLIENT / PIN_SERVER (taskset lists).
pin_client="${PIN_CLIENT:-}"; pin_server="${PIN_SERVER:-}"
if [[ "${PIN:-}" == 1 ]]; then pin_client="${pin_client:-0}"; pin_server="${pin_server:-1}"; fi
server_cmd=()
[[ -n "$pin_server" ]] && server_cmd=(taskset -c "$pin_server")
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

# Marquee with its sample library, with access control on (ACCESS=open benches without it):
# --require-sign-in, an owner account and an API token that every request carries, so the
# access middleware resolves a credential on each segment as it would off loopback.
marquee_port="$(free_port)"
access_args=()
if [[ "${ACCESS:-signed-in}" != open && -z "${BENCH_AUTH_HEADER:-}" ]]; then
  echo "a long bench password" | "$bin" users add bench --role owner --data "$work/data" > /dev/null
  BENCH_AUTH_HEADER="Authorization: Bearer $("$bin" users token bench --label bench --data "$work/data")"
  access_args=(--require-sign-in)
  echo "server bench: access control on (--require-sign-in, API token on every request)"
fi
log_args=()
[[ "${ACCESS_LOG:-1}" == 0 ]] && log_args=(--no-access-log)
"${server_cmd[@]}" "$bin" serve --data "$work/data" --host 127.0.0.1 --port "$marquee_port" "${access_args[@]}" "${log_args[@]}" > "$work/marquee.log" 2>&1 &
marquee_pid=$!
pids+=($marquee_pid)
base="http://127.0.0.1:$marquee_port"
curl_auth=()
[[ -n "${BENCH_AUTH_HEADER:-}" ]] && curl_auth=(-H "$BENCH_AUTH_HEADER")
for _ in $(seq 600); do
  ready="$(curl -sf "${curl_auth[@]}" "$base/api/assets" 2>/dev/null | python3 -c 'import json,sys; a=json.load(sys.stdin)["assets"]; print(int(len(a)==4 and all(x["status"]=="ready" for x in a)))' 2>/dev/null || echo 0)"
  [[ "$ready" == 1 ]] && break
  sleep 0.5
done
[[ "$ready" == 1 ]] || { echo "server bench: samples not ready"; cat "$work/marquee.log"; exit 1; }
tour="$(curl -sf "${curl_auth[@]}" "$base/api/assets?q=Tour" | python3 -c 'import json,sys; print(json.load(sys.stdin)["assets"][0]["id"])')"

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
worker_processes ${NGINX_WORKERS:-auto};
daemon off;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log warn;
events { worker_connections 1024; }
http {
  include /etc/nginx/mime.types;
  types { video/iso.segment m4s; }
  $( [[ "${ACCESS_LOG:-1}" == 0 ]] && echo "access_log off;" || echo "access_log $work/nginx/access.log combined buffer=64k flush=1s;" )
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
"${server_cmd[@]}" nginx -c "$work/nginx/nginx.conf" -e "$work/nginx/error.log" &
pids+=($!)
first="$(head -1 "$work/paths.txt")"
for _ in $(seq 50); do curl -sf -o /dev/null "http://127.0.0.1:$nginx_port$first" && break; sleep 0.1; done
# Both servers must answer with the same bytes before their rates mean anything.
curl -sf "http://127.0.0.1:$nginx_port$first" -o "$work/from-nginx" || { echo "server bench: nginx does not serve $first"; cat "$work/nginx/error.log"; exit 1; }
curl -sf "${curl_auth[@]}" "$base$first" -o "$work/from-marquee" || { echo "server bench: marquee does not serve $first"; exit 1; }
cmp -s "$work/from-nginx" "$work/from-marquee" || { echo "server bench: the two servers sent different bytes"; exit 1; }

# CPU time (clock ticks, user + system) used so far by the given processes.
cpu_ticks() { local t=0 p; for p in "$@"; do [[ -r /proc/$p/stat ]] && t=$((t + $(awk '{print $14 + $15}' "/proc/$p/stat"))); done; echo "$t"; }
nginx_pids() { echo "$(cat "$work/nginx/nginx.pid" 2>/dev/null) $(pgrep -P "$(cat "$work/nginx/nginx.pid" 2>/dev/null)" 2>/dev/null | tr '\n' ' ')"; }
auth_args=()
[[ -n "${BENCH_AUTH_HEADER:-}" ]] && auth_args=(-H "$BENCH_AUTH_HEADER")
wrk_cmd=(wrk)
[[ -n "$pin_client" ]] && wrk_cmd=(taskset -c "$pin_client" wrk)

# One wrk run: prints "requests/s cpu-ms-per-1000-requests"; refuses runs with error responses.
rate() { # url name pids...
  local url="$1" name="$2"; shift 2
  local before after
  before="$(cpu_ticks "$@")"
  "${wrk_cmd[@]}" -t"$threads" -c"$connections" -d"${duration}s" "${auth_args[@]}" -s "$work/rotate.lua" "$url" > "$work/wrk-$name.txt"
  after="$(cpu_ticks "$@")"
  if grep -q "Non-2xx" "$work/wrk-$name.txt"; then echo "server bench: $name answered with errors" >&2; cat "$work/wrk-$name.txt" >&2; exit 1; fi
  local rps; rps="$(awk '/Requests\/sec/ {print $2}' "$work/wrk-$name.txt")"
  python3 -c "import os; t=os.sysconf('SC_CLK_TCK'); r=$rps; print(f'{r:.0f} {($after-$before)/t*1000/(r*$duration/1000):.1f}')"
}
pinning="${pin_client:+wrk on CPU $pin_client, }${pin_server:+servers on CPU $pin_server}"
echo "access logs: $( [[ "${ACCESS_LOG:-1}" == 0 ]] && echo "off on both servers" || echo "on for both servers (one line per request)" )"
echo "segments: $segments fMP4 files, mean $((bytes / 1024)) KiB; $rounds rounds of wrk -t$threads -c$connections -d${duration}s per server on loopback, alternating which goes first${pinning:+ ($pinning)}"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
rate "$base" warmup "$marquee_pid" > /dev/null  # fills Marquee's caches, as nginx has the page cache
rate "http://127.0.0.1:$nginx_port" warmup-nginx $(nginx_pids) > /dev/null
: > "$work/rounds.txt"
for round in $(seq "$rounds"); do
  if ((round % 2)); then order=(marquee nginx); else order=(nginx marquee); fi
  for who in "${order[@]}"; do
    if [[ "$who" == marquee ]]; then m="$(rate "$base" "marquee-$round" "$marquee_pid")"
    else n="$(rate "http://127.0.0.1:$nginx_port" "nginx-$round" $(nginx_pids))"; fi
  done
  echo "$round $m $n" >> "$work/rounds.txt"
  printf '  round %d: marquee %6s req/s (%s CPU ms/1k req)  nginx %6s req/s (%s CPU ms/1k req)  ratio %s  (load %s)\n' "$round" \
    ${m% *} ${m#* } ${n% *} ${n#* } "$(python3 -c "print(f'{${m% *}/${n% *}:.2f}')")" "$(cut -d' ' -f1 /proc/loadavg)"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$work/rounds.txt" "$ratio_target" <<'PY'
import statistics, sys
rows = [list(map(float, line.split()[1:])) for line in open(sys.argv[1]) if line.strip()]
target = float(sys.argv[2])
def spread(values, fmt="{:.0f}"):
    values = sorted(values)
    q = statistics.quantiles(values, n=4) if len(values) > 1 else [values[0]] * 3
    return (f"median {fmt.format(statistics.median(values))}, IQR {fmt.format(q[0])}-{fmt.format(q[2])}, "
            f"min-max {fmt.format(values[0])}-{fmt.format(values[-1])}")
marquee, m_cpu, nginx, n_cpu = zip(*rows)
ratios = [m / n for m, n in zip(marquee, nginx)]
print(f"marquee req/s: {spread(marquee)}; CPU ms per 1k requests: {spread(m_cpu, '{:.1f}')}")
print(f"nginx   req/s: {spread(nginx)}; CPU ms per 1k requests: {spread(n_cpu, '{:.1f}')}")
print(f"segment request-rate ratio marquee/nginx (paired by round): {spread(ratios, '{:.2f}')} "
      f"(target >= {target:.2f}) " + ("OK" if statistics.median(ratios) >= target else "BELOW TARGET"))
print(f"server CPU per request, nginx/marquee (1 = as cheap as nginx): {spread([n / m for m, n in zip(m_cpu, n_cpu)], '{:.2f}')}")
PY

# Time to first frame in headless Chromium.
[[ "${FIRST_FRAME:-1}" == 1 ]] && BASE="$base" ASSET="$tour" RUNS="$runs" AUTH_HEADER="${BENCH_AUTH_HEADER:-}" python3 scripts/bench/first_frame.py

# Other clients' /api/assets latency while one client floods a renderer socket.
[[ "${FLOOD:-1}" == 1 ]] && BASE="$base" ASSET="$tour" AUTH_HEADER="${BENCH_AUTH_HEADER:-}" python3 scripts/bench/ws_flood.py
exit 0
