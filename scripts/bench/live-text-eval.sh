#!/usr/bin/env bash
# Live Text on frames nobody on the team picked: the generated evaluation set
# (scripts/livetext-eval/, 156 frames, 13 kinds, H.264 CRF 23 and 32), character error rate
# per kind and language for the tuning and the held-out half, Marquee beside the plain
# `tesseract -l eng+jpn` CLI on the same decoded frames, and Marquee's time per frame.
# The set is generated once into .build/livetext-eval (a minute or two) and reused.
# MARQUEE_BIN=path/to/marquee runs it against another build. Asserts nothing.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [[ -n "${MARQUEE_BIN:-}" ]]; then
  binary="$MARQUEE_BIN"
else
  bin="${BENCH_BIN_DIR:-$(swift build -c release --show-bin-path)}"
  [[ -x "$bin/marquee" ]] || swift build -c release --product marquee >/dev/null
  binary="$bin/marquee"
fi
command -v tesseract >/dev/null || { echo "tesseract CLI missing (apt-get install tesseract-ocr)"; exit 1; }
set_dir="${LIVETEXT_EVAL_DIR:-.build/livetext-eval}"
python3 scripts/livetext-eval/generate.py "$set_dir"
python3 scripts/livetext-eval/score.py "$set_dir" --marquee "$binary" --cli
