#!/usr/bin/env bash
# Ingest: package a generated 10-minute 1080p H.264 + AAC file into the ladder the library
# serves (720p + 360p H.264 at x264 veryfast CRF 21, a keyframe every 2 s, 2 s segments, AAC
# copied) — `marquee package --ladder 720,360` against one `ffmpeg` command that makes the same
# renditions with the same encoder settings (decode once, split, scale for each rung, encode
# each; audio copied), interleaved, RUNS times (default 1; DURATION=seconds to shorten).
# Marquee also writes its I-frame and image playlists, which ffmpeg's command does not.
# Also times what isolating media work in a child process costs per job: `marquee media-work`
# probing a small file against the same probe in the measuring process's own `marquee probe`.
# Prints wall seconds, CPU seconds (user+sys) and ratios; asserts nothing.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin="$(swift build -c release --show-bin-path)"
[[ -x "$bin/marquee" ]] || swift build -c release --product marquee >/dev/null
exec python3 scripts/bench/ingest.py "$bin/marquee" "${DURATION:-600}" "${RUNS:-1}"
