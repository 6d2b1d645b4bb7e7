#!/usr/bin/env bash
# Thumbnails: 100 evenly spaced thumbnails (full size JPEG) of a generated 10-minute 1280x720
# H.264 file with a 2-second GOP — Marquee with a ±1 s tolerance, against a loop of
# `ffmpeg -ss T -i F -frames:v 1` and a loop of `ffmpegthumbnailer`; then Marquee exact vs ±1 s.
# Prints seconds and ratios; asserts nothing.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin="$(swift build -c release --show-bin-path)"
[[ -x "$bin/marquee" ]] || swift build -c release --product marquee >/dev/null
media_dir=".build/bench-media"
media="$media_dir/ten-minutes-720p-gop2.mp4"
mkdir -p "$media_dir"
if [[ ! -s "$media" ]]; then
  echo "generating $media (10 min, 1280x720, 30 fps, H.264, keyframe every 2 s)..."
  ffmpeg -hide_banner -loglevel error -nostdin -y -f lavfi -i "testsrc2=s=1280x720:r=30:d=600" \
    -c:v libx264 -preset ultrafast -x264-params keyint=60:min-keyint=60:scenecut=0 -pix_fmt yuv420p \
    "$media.tmp.mp4"
  mv "$media.tmp.mp4" "$media"
fi

times=(); for i in $(seq 0 99); do times+=($((i * 6 + 3))); done
at=$(IFS=,; echo "${times[*]}")
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { print b - a }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a / b }'; }

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# Marquee's two runs are short, so each is timed three times (alternating) and the median kept;
# the peers' loops are timed once.
tol_runs=(); exact_runs=()
for round in 1 2 3; do
  rm -rf "$work/marquee-tol" "$work/marquee-exact"
  t0=$(now)
  "$bin/marquee" thumbnails "$media" --at "$at" --tolerance 1 --out "$work/marquee-tol" >/dev/null 2>&1
  t1=$(now); tol_runs+=("$(elapsed "$t0" "$t1")")
  t0=$(now)
  "$bin/marquee" thumbnails "$media" --at "$at" --exact --out "$work/marquee-exact" >/dev/null 2>&1
  t1=$(now); exact_runs+=("$(elapsed "$t0" "$t1")")
done
marquee_tol=$(median "${tol_runs[@]}")
marquee_exact=$(median "${exact_runs[@]}")

mkdir -p "$work/ffmpeg"
t0=$(now)
for i in "${!times[@]}"; do
  ffmpeg -hide_banner -loglevel error -nostdin -y -ss "${times[$i]}" -i "$media" -frames:v 1 "$work/ffmpeg/$i.jpg"
done
t1=$(now); ffmpeg_loop=$(elapsed "$t0" "$t1")

mkdir -p "$work/ffmpegthumbnailer"
t0=$(now)
for i in "${!times[@]}"; do
  t=${times[$i]}
  ffmpegthumbnailer -i "$media" -o "$work/ffmpegthumbnailer/$i.jpg" -s 0 -q 8 \
    -t "$(printf '%02d:%02d:%02d' $((t / 3600)) $((t % 3600 / 60)) $((t % 60)))" >/dev/null 2>&1
done
t1=$(now); thumbnailer_loop=$(elapsed "$t0" "$t1")

count() { find "$1" -type f | wc -l; }
printf 'files: marquee ±1 s %s, marquee exact %s, ffmpeg %s, ffmpegthumbnailer %s (100 requested each)\n' \
  "$(count "$work/marquee-tol")" "$(count "$work/marquee-exact")" "$(count "$work/ffmpeg")" "$(count "$work/ffmpegthumbnailer")"
printf 'marquee ±1 s:        %7.2f s (median of %s)\n' "$marquee_tol" "${tol_runs[*]}"
printf 'marquee exact:       %7.2f s (median of %s)\n' "$marquee_exact" "${exact_runs[*]}"
printf 'ffmpeg -ss loop:     %7.2f s\n' "$ffmpeg_loop"
printf 'ffmpegthumbnailer:   %7.2f s\n' "$thumbnailer_loop"
printf 'ratio ffmpeg loop / marquee ±1 s:        %6sx (target ≥ 5x)\n' "$(ratio "$ffmpeg_loop" "$marquee_tol")"
printf 'ratio ffmpegthumbnailer / marquee ±1 s:  %6sx (target ≥ 3x)\n' "$(ratio "$thumbnailer_loop" "$marquee_tol")"
printf 'ratio marquee exact / marquee ±1 s:      %6sx (target ≥ 3x)\n' "$(ratio "$marquee_exact" "$marquee_tol")"
