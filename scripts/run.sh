#!/usr/bin/env bash
# The main job: start `marquee serve` on loopback and print the URL a person opens.
# An empty library gets sample clips (made with ffmpeg) on first run.
#   PORT=8080 DATA=~/.local/share/marquee scripts/run.sh [debug|release]
set -euo pipefail
cd "$(dirname "$0")/.."
config="${1:-debug}"
bin="$(swift build -c "$config" --show-bin-path)/marquee"
port="${PORT:-8080}"
args=(serve --host 127.0.0.1 --port "$port")
if [[ -n "${DATA:-}" ]]; then args+=(--data "$DATA"); fi
echo "Starting Marquee (Ctrl-C stops it)…"
exec "$bin" "${args[@]}"
