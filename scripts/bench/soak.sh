#!/usr/bin/env bash
# Soak test on loopback: SECONDS (default 1,800) of mixed traffic — players, renderer sockets,
# event streams, uploads, downloads, Live Text — against one `marquee serve`, printing RSS, open
# file descriptors and the p99 of a probe request at the start and the end; fails when one of
# them grew without bound. SOAK=0 leaves it out of `make bench`. See scripts/bench/soak.py.
set -euo pipefail
cd "$(dirname "$0")/../.."
[[ "${SOAK:-1}" == "0" ]] && { echo "soak: left out (SOAK=0)"; exit 0; }
config="${CONFIG_BENCH:-release}"
export MARQUEE_BIN="${MARQUEE_BENCH_BIN:-$(swift build -c "$config" --show-bin-path)/marquee}"
if [[ ! -x "$MARQUEE_BIN" ]]; then
  echo "soak: $MARQUEE_BIN is not built; run 'swift build -c $config --product marquee'" >&2
  exit 1
fi
exec python3 scripts/bench/soak.py
