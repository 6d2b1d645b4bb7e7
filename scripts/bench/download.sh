#!/usr/bin/env bash
# Download throughput: marquee download vs ffmpeg -c copy vs yt-dlp -N 8 (nginx on loopback).
set -euo pipefail
cd "$(dirname "$0")/../.."
python3 scripts/bench/download.py "$(swift build -c release --show-bin-path)/marquee"
