#!/usr/bin/env bash
# libFuzzer + AddressSanitizer on the media path (probe -> HLS packaging), seeded with the
# media zoo's smaller files; runs for SECONDS (default 3600) or until the first crash.
#   scripts/fuzz-media.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-3600}"
out=.build/fuzz-media
mods="$out/modules"
mkdir -p "$mods" fuzz-corpus-media
flags=(-sanitize=fuzzer,address -parse-as-library -O -g -I "$mods" -I Sources/CFFmpeg)
[ -f "$out/libHLS.a" ] && [ -z "$(find Sources/HLS -newer "$out/libHLS.a" -name "*.swift")" ] || swiftc "${flags[@]}" -module-name HLS -emit-module -emit-module-path "$mods/HLS.swiftmodule" \
  -emit-library -static -o "$out/libHLS.a" $(find Sources/HLS -name '*.swift' | sort)
[ -f "$out/libMediaCore.a" ] && [ -z "$(find Sources/MediaCore Sources/HLS -newer "$out/libMediaCore.a" -name "*.swift")" ] || swiftc "${flags[@]}" -module-name MediaCore -emit-module -emit-module-path "$mods/MediaCore.swiftmodule" \
  -emit-library -static -o "$out/libMediaCore.a" $(find Sources/MediaCore -name '*.swift' | sort)
swiftc "${flags[@]}" -module-name MediaFuzz Fuzz/MediaPackageFuzz.swift "$out/libMediaCore.a" "$out/libHLS.a" \
  $(pkg-config --libs libavformat libavcodec libavutil libswscale libswresample) -o "$out/media-package-fuzz"
# Seeds: the zoo's files under 400 kB, each behind a byte choosing copy or encode.
seeds="$out/seeds"
rm -rf "$seeds"; mkdir -p "$seeds"
zoo=$(python3 -c 'import sys; sys.path.insert(0, "tests-e2e"); import media_zoo; print(media_zoo.default_folder())')
python3 -c 'import sys; sys.path.insert(0, "tests-e2e"); import media_zoo; media_zoo.build(media_zoo.default_folder())' >/dev/null
for f in "$zoo"/*; do
  [ -f "$f" ] && [ "$(stat -c %s "$f")" -lt 400000 ] || continue
  for mode in 0 1; do { printf "\\x$mode"; cat "$f"; } > "$seeds/$mode-$(basename "$f")"; done
done
echo "fuzz-media: $seconds s of media-package-fuzz (seeds: $(ls "$seeds" | wc -l))"
ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}" SWIFT_BACKTRACE=enable=no "$out/media-package-fuzz" \
  -max_total_time="$seconds" -max_len=400000 -rss_limit_mb=6144 -timeout=60 -print_final_stats=1 \
  fuzz-corpus-media "$seeds" 2>&1 | tee "$out/last-run.log" | grep -E 'stat::|Done|ERROR|DEATH|crash|INFO: Running|unexpected' || true
grep -q 'Done [0-9]* runs' "$out/last-run.log"
