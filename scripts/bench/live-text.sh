#!/usr/bin/env bash
# Live Text: character error rate on the Code Walkthrough sample and a Japanese clip, each
# pre-processing choice measured, and pause-to-selectable-text time for a 720p frame (cache
# miss) against ffmpeg + the tesseract CLI on the same frames, as a ratio. Asserts nothing.
# MARQUEE_BIN=path/to/marquee runs it against another build (a debug one, say).
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
python3 scripts/bench/live_text.py "$binary"
