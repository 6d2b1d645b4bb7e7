#!/usr/bin/env bash
# Builds the tests with AddressSanitizer (plus UndefinedBehaviorSanitizer when this toolchain
# builds with both; Swift 6.3 on Linux refuses -sanitize=undefined, so ASan alone there) in
# .build-sanitize, then runs the media path's tests under it: MediaCore
# (decode, encode, scale, rotate, package, compose, resource loaders), the library's
# packaging and ingest, and the media zoo's files through the packager.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=.build-sanitize
sanitizers=(--sanitize=address --sanitize=undefined)
if ! swift build --build-tests "${sanitizers[@]}" --scratch-path "$scratch" >"$scratch.log" 2>&1; then
  if grep -q "undefined" "$scratch.log" && grep -qi "unsupported\|not supported\|invalid" "$scratch.log"; then
    echo "sanitize: this toolchain does not build with UBSan and ASan together; using ASan alone"
    sanitizers=(--sanitize=address)
    swift build --build-tests "${sanitizers[@]}" --scratch-path "$scratch"
  else
    cat "$scratch.log" >&2
    exit 1
  fi
fi
# FFmpeg's libraries are not instrumented; their own leaks (codec caches) are not ours.
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:halt_on_error=1:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"
filter='MediaCoreTests|LibraryTests\.(IngestTests|BundlePackagerTests|IsolatedPackagingTests|SampleZooPackagingTests)'
swift test --skip-build "${sanitizers[@]}" --scratch-path "$scratch" --filter "$filter"
