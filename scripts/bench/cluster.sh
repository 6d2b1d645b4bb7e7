#!/usr/bin/env bash
# The cluster layout, on loopback only (scripts/bench/cluster_bench.py):
#  1. Ingest throughput: the same FILES clips ingested by one and by two `marquee worker`s on a
#     throwaway PostgreSQL; prints files per minute, the ratio, and the job attempts (equal to
#     FILES when work is shared and never duplicated).
#  2. Segment serving: wrk fetches one fMP4 segment through nginx balancing two `marquee serve`
#     nodes, and from nginx serving the same file directly; prints both rates and the ratio.
# Every load is bounded (DURATION seconds per wrk run) and stops by itself.
set -euo pipefail
cd "$(dirname "$0")/../.."
config="${CONFIG_BENCH:-release}"
bin="${MARQUEE_BENCH_BIN:-$(swift build -c "$config" --show-bin-path)/marquee}"
if [[ ! -x "$bin" ]]; then
  echo "cluster bench: $bin is not built; run 'swift build -c $config --product marquee'" >&2
  exit 1
fi
MARQUEE_BIN="$bin" python3 scripts/bench/cluster_bench.py
