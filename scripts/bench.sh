#!/usr/bin/env bash
# Runs every benchmark in scripts/bench/ (each prints its peer comparison as ratios).
set -uo pipefail
cd "$(dirname "$0")/.."
status=0
for b in scripts/bench/*.sh; do
  [[ -e "$b" ]] || continue
  echo "== $(basename "$b" .sh)"
  bash "$b" || { echo "benchmark $b failed"; status=1; }
  echo
done
exit $status
