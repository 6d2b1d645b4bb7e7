#!/usr/bin/env bash
# Segments from a bucket (with and without the node's memory of hot segments) against segments
# from a folder and from nginx, with CPU per request (scripts/bench/object_serving.py). Loopback only.
set -euo pipefail
cd "$(dirname "$0")/../.."
config="${CONFIG_BENCH:-release}"
bin="${MARQUEE_BENCH_BIN:-$(swift build -c "$config" --show-bin-path)/marquee}"
if [[ ! -x "$bin" ]]; then
  echo "object-serving bench: $bin is not built; run 'swift build -c $config --product marquee'" >&2
  exit 1
fi
MARQUEE_BIN="$bin" python3 scripts/bench/object_serving.py
