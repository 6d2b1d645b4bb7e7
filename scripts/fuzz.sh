#!/usr/bin/env bash
# Builds the fuzz targets with libFuzzer (swiftc -sanitize=fuzzer,address) and runs each for
# N inputs (default 1,000,000): the playlist parser, seeded with the shared corpus, and
# PlaybackSession, driven by random intents and renderer reports, the device-link frame decoder,
# and the server's header and number parsers (Range, Content-Range, the path, Cookie,
# Authorization, Host).
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-1000000}"
shared="${MARQUEE_SHARED:-../shared}"
out=.build/fuzz
mkdir -p "$out" fuzz-corpus
swiftc -sanitize=fuzzer,address -parse-as-library -O -g -module-name HLSFuzz \
  $(find Sources/HLS -name '*.swift' | sort) Fuzz/HLSParserFuzz.swift -o "$out/hls-parser-fuzz"
seeds="$out/seeds"
rm -rf "$seeds"; mkdir -p "$seeds"
cp "$shared"/corpus/hls/*.m3u8 "$seeds"/ 2>/dev/null || true
find "$shared"/corpus/hls-malformed -name '*.m3u8' -size -64k -exec cp {} "$seeds"/ \; 2>/dev/null || true
echo "fuzz: $runs runs of hls-parser-fuzz (seeds: $(ls "$seeds" | wc -l) corpus playlists)"
SWIFT_BACKTRACE=enable=no "$out/hls-parser-fuzz" -runs="$runs" -max_len=8192 -dict=Fuzz/hls.dict -print_final_stats=1 \
  -rss_limit_mb=4096 -timeout=10 fuzz-corpus "$seeds" 2>&1 | tee "$out/last-run.log" | grep -E 'stat::|Done|ERROR|DEATH|crash|INFO: Running' || true
grep -q 'Done [0-9]* runs' "$out/last-run.log"

# PlaybackSession: programs of intents and reports with arbitrary numbers.
swiftc -sanitize=fuzzer,address -parse-as-library -O -g -module-name PlaybackFuzz \
  $(find Sources/Playback -name '*.swift' | sort) Fuzz/PlaybackSessionFuzz.swift -o "$out/playback-session-fuzz"
mkdir -p fuzz-corpus-playback
echo "fuzz: $runs runs of playback-session-fuzz"
SWIFT_BACKTRACE=enable=no "$out/playback-session-fuzz" -runs="$runs" -max_len=2048 -print_final_stats=1 \
  -rss_limit_mb=4096 -timeout=10 fuzz-corpus-playback 2>&1 | tee "$out/last-run-playback.log" | grep -E 'stat::|Done|ERROR|DEATH|crash|broke|INFO: Running' || true
grep -q 'Done [0-9]* runs' "$out/last-run-playback.log"

# Device-link frame decoder: any byte stream, read in pieces of every size.
swiftc -sanitize=fuzzer,address -parse-as-library -O -g -module-name FrameFuzz \
  $(find Sources/DeviceLink/Framing -name '*.swift' | sort) Fuzz/FrameDecoderFuzz.swift -o "$out/frame-decoder-fuzz"
mkdir -p fuzz-corpus-frames
echo "fuzz: $runs runs of frame-decoder-fuzz"
SWIFT_BACKTRACE=enable=no "$out/frame-decoder-fuzz" -runs="$runs" -max_len=4096 -print_final_stats=1 \
  -rss_limit_mb=4096 -timeout=10 fuzz-corpus-frames 2>&1 | tee "$out/last-run-frames.log" | grep -E 'stat::|Done|ERROR|DEATH|crash|INFO: Running' || true
grep -q 'Done [0-9]* runs' "$out/last-run-frames.log"

# Header and number parsers: any bytes as a Range, Content-Range, path, Cookie, Authorization, Host.
swiftc -sanitize=fuzzer,address -parse-as-library -O -g -module-name HeaderFuzz \
  Sources/Library/Uploads/ChunkRange.swift Sources/MarqueeServer/Media/ByteRangeRequest.swift \
  Sources/MarqueeServer/HTTP/CanonicalPath.swift Sources/MarqueeServer/HTTP/HeaderValues.swift \
  Fuzz/HeaderParsersFuzz.swift -o "$out/header-parsers-fuzz"
mkdir -p fuzz-corpus-headers
echo "fuzz: $runs runs of header-parsers-fuzz"
SWIFT_BACKTRACE=enable=no "$out/header-parsers-fuzz" -runs="$runs" -max_len=512 -dict=Fuzz/headers.dict -print_final_stats=1 \
  -rss_limit_mb=4096 -timeout=10 fuzz-corpus-headers 2>&1 | tee "$out/last-run-headers.log" | grep -E 'stat::|Done|ERROR|DEATH|crash|INFO: Running' || true
grep -q 'Done [0-9]* runs' "$out/last-run-headers.log"
