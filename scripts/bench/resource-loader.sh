#!/usr/bin/env bash
# Resource loaders: time-to-open, time-to-first-thumbnail and peak memory when a local 200 MB
# file is read through a ResourceLoader with entireLengthAvailableOnDemand = true (straight
# reads) versus false (read-ahead cache). Each mode runs 5 times in fresh processes; medians.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin="$(swift build -c release --show-bin-path)"
[[ -x "$bin/marquee-bench" ]] || swift build -c release --product marquee-bench >/dev/null
media_dir=".build/bench-media"
big="$media_dir/ten-minutes-720p-gop2.mp4"
media="$media_dir/about-200MB.mp4"
mkdir -p "$media_dir"
if [[ ! -s "$big" ]]; then bash scripts/bench/thumbnails.sh >/dev/null; fi
if [[ ! -s "$media" ]]; then
  # Cut the 10-minute bench file to about 200 MB without re-encoding.
  bytes=$(stat -c %s "$big"); seconds=$(awk -v b="$bytes" 'BEGIN { printf "%d", 600 * 200e6 / b }')
  ffmpeg -hide_banner -loglevel error -nostdin -y -i "$big" -t "$seconds" -c copy "$media"
fi
printf 'file: %s (%d MB)\n' "$media" $(( $(stat -c %s "$media") / 1000000 ))
for mode in on-demand read-ahead; do
  for i in 1 2 3 4 5; do "$bin/marquee-bench" resource-loader "$media" "$mode"; done > "$media_dir/rl-$mode.jsonl"
done
python3 - "$media_dir" <<'PY'
import json, statistics, sys
d = sys.argv[1]
res = {}
for mode in ("on-demand", "read-ahead"):
    rows = [json.loads(l) for l in open(f"{d}/rl-{mode}.jsonl")]
    res[mode] = {k: statistics.median(r[k] for r in rows) for k in ("openMs", "thumbnailMs", "peakRSSKiB")}
    m = res[mode]
    print(f"{mode:10}  open {m['openMs']:7.2f} ms   first thumbnail {m['thumbnailMs']:7.2f} ms   peak RSS {m['peakRSSKiB']/1024:6.1f} MiB")
a, b = res["on-demand"], res["read-ahead"]
print(f"ratio read-ahead / on-demand: open {b['openMs']/a['openMs']:.2f}x, first thumbnail {b['thumbnailMs']/a['thumbnailMs']:.2f}x, peak memory {b['peakRSSKiB']/a['peakRSSKiB']:.2f}x")
PY
