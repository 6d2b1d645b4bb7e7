# Marquee — the two set-up commands are `make run` and `make test`.
SHELL := /bin/bash
SHARED ?= $(abspath ../shared)
export MARQUEE_SHARED := $(SHARED)
CONFIG ?= debug

.PHONY: run test chaos bench fuzz sanitize setup setup-test build build-release clean format lint

setup:
	@scripts/setup.sh

setup-test:
	@scripts/setup.sh --test

build: setup
	swift build -c $(CONFIG) --product marquee

build-release: setup
	swift build -c release --product marquee
	swift build -c release --product marquee-bench
	swift build -c release --product apns-bench

# The main job: build, then run Marquee.
run: build
	@scripts/run.sh $(CONFIG)

# Every test: Swift unit and integration tests, then the Python end-to-end tests.
test: setup-test lint
	swift build --build-tests
	@# On failure, repeat the failing tests and their issues last, where a truncated CI log still shows them.
	swift test --skip-build 2>&1 | tee .build/swift-test.log; status=$${PIPESTATUS[0]}; \
	  if [ $$status -ne 0 ]; then echo "--- failed Swift tests:"; grep -E '✘|recorded an issue|Expectation failed|error:|Fatal error' .build/swift-test.log | grep -v 'passed after' | tail -40; fi; \
	  test $$status -eq 0
	node --test tests-js/
	@if ls tests-e2e/test_*.py >/dev/null 2>&1; then python3 -m pytest -q --durations=30 tests-e2e; fi

# Outages under traffic (PostgreSQL, then the bucket, stopped for 20 s each): about 90 s, so
# not part of `make test`. Prints the latencies it measured (also artifacts/e2e/chaos.json).
chaos: setup-test
	swift build --product marquee
	python3 -m pytest -q -s tests-e2e/chaos_outages.py

# swift-format (shipped with the toolchain), configured in .swift-format.
format:
	swift format format --in-place --recursive --parallel Package.swift Sources Tests

lint:
	swift format lint --strict --recursive --parallel Package.swift Sources Tests
	@# Every module's folders use each other one way only (issue 27): a circle fails the build.
	python3 scripts/check-folder-cycles.py

bench: setup-test build-release
	@scripts/bench.sh

fuzz: setup
	@scripts/fuzz.sh $(or $(RUNS),1000000)

# The media path under AddressSanitizer (and UBSan where the toolchain allows): MediaCore's
# tests, packaging and ingest, built in a build folder of their own.
sanitize: setup-test
	@scripts/sanitize.sh

clean:
	rm -rf .build
