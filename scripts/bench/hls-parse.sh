#!/usr/bin/env bash
# Playlist parse throughput: Marquee's HLS parser vs Python's m3u8 on the same files in the
# same run — a generated 50,000-segment media playlist, and the whole shared corpus.
set -euo pipefail
cd "$(dirname "$0")/../.."
shared="${MARQUEE_SHARED:-../shared}"
bench="$(swift build -c release --show-bin-path)/marquee-bench"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
python3 - "$work/vod-50000.m3u8" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-MAP:URI=\"init.mp4\"\n")
    f.write("#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z\n")
    for i in range(50000):
        if i % 1000 == 999:
            f.write("#EXT-X-DISCONTINUITY\n")
        f.write(f"#EXTINF:5.005,\nsegments/video/1080p/seg-{i:06d}.m4s\n")
    f.write("#EXT-X-ENDLIST\n")
PY
run() { # name, iterations, files...
  local name=$1 n=$2; shift 2
  local ours theirs
  ours=$("$bench" parse "$@" --iterations "$n")
  theirs=$(python3 scripts/bench/hls_parse_peer.py "$@" --iterations "$n")
  python3 - "$name" "$ours" "$theirs" <<'PY'
import json, sys
name, ours, theirs = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
mb = ours["bytes"] / 1e6
print(f"{name}: {ours['files']} file(s), {mb:.1f} MB")
print(f"  marquee  median {ours['median']*1000:9.2f} ms  ({mb/ours['median']:7.1f} MB/s)")
print(f"  m3u8     median {theirs['median']*1000:9.2f} ms  ({mb/theirs['median']:7.1f} MB/s)")
print(f"  ratio    marquee is {theirs['median']/ours['median']:.1f}x faster than m3u8 (target >= 20x)")
PY
}
run "50,000-segment media playlist" 10 "$work/vod-50000.m3u8"
run "whole corpus" 20 "$shared"/corpus/hls/*.m3u8
