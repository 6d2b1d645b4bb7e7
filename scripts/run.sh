#!/usr/bin/env bash
# The main job until the media server lands: serve the bundled sample streams on loopback,
# print the URL, inspect the sample multivariant playlist over HTTP, then keep serving.
set -euo pipefail
cd "$(dirname "$0")/.."
config="${1:-debug}"
bin="$(swift build -c "$config" --show-bin-path)/marquee"
root="${MARQUEE_SHARED:-../shared}/corpus/hls"
port="${PORT:-8080}"
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$root" >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null' EXIT
for _ in $(seq 50); do (exec 3<>/dev/tcp/127.0.0.1/"$port") 2>/dev/null && break; sleep 0.1; done
url="http://127.0.0.1:$port/apple-bipbop-advanced-fmp4-multivariant.m3u8"
echo "Marquee: serving sample streams at http://127.0.0.1:$port/"
"$bin" inspect "$url" || true
echo
echo "Try: $bin inspect $url --json"
echo "Serving until Ctrl-C at http://127.0.0.1:$port/"
wait $server
