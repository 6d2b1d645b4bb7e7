"""The API answers as its OpenAPI document says.

Schemathesis reads `/api/openapi.json` from a throwaway `marquee serve` (its own data folder
and one small clip, so its destructive calls never touch the shared `server` fixture's
library) and calls every operation with examples, boundary values, fuzzed data and stateful
sequences, with every check it has: nothing answers 5xx, every status code, content type and
header is documented, every body matches its schema, an undeclared method is 405 with `Allow`,
a request the document allows is accepted and one it forbids refused, a created resource is found at once, a missing required header is refused, an answer comes
within the request timeout.

The run is deterministic (issue 24): a fixed number of cases per operation, one worker,
schemathesis's deterministic generation. The cases CI generates are the cases a run here
generated, so a kind of case never met here cannot turn CI red, and one that fails here fails
every time. Path identifiers are half the time the clip's and a playback session's (so the
operations behind them are reached, not only their 404s). OPENAPI_CONTRACT_SECONDS explores
instead: random cases for that many seconds on two workers, a new seed each run.
That a route is documented at all (with its method) is checked by the Swift test
`OpenAPIDocumentTests`.
"""
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from conftest import ARTIFACTS, marquee_binary

# The deterministic run's cases per operation are set per phase in schemathesis.toml (10; 100
# stateful sequences). OPENAPI_CONTRACT_SECONDS, when set, runs random cases for that long instead.
EXPLORE_SECONDS = int(os.environ.get("OPENAPI_CONTRACT_SECONDS", "0"))
# The deterministic run is stopped (and the test fails) after this long: five times what it
# takes here.
SAFETY_SECONDS = 900
# Every check schemathesis has (issue 24): no 5xx, documented status codes, content types,
# headers and schemas, a 405 with an exact `Allow` for every undeclared method, every request
# the document allows accepted and every one it forbids refused, a missing required header
# refused, and so on. OPENAPI_CONTRACT_CHECKS picks fewer (a comma-separated list).
CHECKS = os.environ.get("OPENAPI_CONTRACT_CHECKS", "all")
# Checks to leave out (OPENAPI_CONTRACT_EXCLUDE_CHECKS, comma-separated; "" runs them all).
# Where the document cannot state a rule (what is at an address, which bytes are a subtitle
# file, that a GET to a WebSocket route must ask to upgrade, that a Content-Range's numbers
# agree), tests-e2e/schemathesis.toml names the answer per operation, with the reason; every
# other rule the server checks is stated in openapi.json with the server's own constant
# (DocumentedRulesTests). None is left out by default.
EXCLUDED_CHECKS = os.environ.get("OPENAPI_CONTRACT_EXCLUDE_CHECKS", "")
# Per-operation settings, with the reasons.
CONFIG = Path(__file__).parent / "schemathesis.toml"
# `all` includes max_response_time; a response may take as long as the request timeout (a
# password hash on a loaded two-core machine once took 12 s), no longer.
REQUEST_TIMEOUT = 15
# Operations that make the server connect to a URL from the request (left out without a namespace).
OUTBOUND = (r"^(POST /api/downloads|POST /api/downloads/inspect|PUT /api/settings/interstitial-webhooks"
            r"|GET /api/sessions/.*/external|POST /api/devices/pairings|POST /api/devices/play-on)$")


class LoopbackOnly:
    """A network namespace with only a loopback interface, held open by a sleeping process;
    `prefix` runs a command inside it (empty when not root: then commands run as they are)."""

    def __init__(self):
        self.holder = None
        if os.geteuid() != 0 or not (shutil.which("unshare") and shutil.which("nsenter") and shutil.which("ip")):
            return
        self.holder = subprocess.Popen(["unshare", "--net", "sh", "-c", "ip link set lo up && exec sleep 3600"])
        deadline = time.time() + 10
        while time.time() < deadline:
            shown = subprocess.run(self.prefix + ["ip", "-o", "link", "show", "lo"], capture_output=True, text=True).stdout
            if "UP" in shown.split("<")[-1].split(">")[0]:
                return
            time.sleep(0.05)
        raise AssertionError("the loopback-only network namespace did not come up")

    @property
    def prefix(self):
        return ["nsenter", "-t", str(self.holder.pid), "-n"] if self.holder else []

    def close(self):
        if self.holder:
            self.holder.kill()
            self.holder.wait()


def start_server(data, log, network):
    process = subprocess.Popen(network.prefix + [marquee_binary(), "serve", "--data", str(data), "--port", "0", "--no-samples"],
                               stdout=log, stderr=subprocess.STDOUT, text=True)
    deadline = time.time() + 60
    while time.time() < deadline:
        match = re.search(r"(http://127\.0\.0\.1:\d+)/", Path(log.name).read_text())
        if match:
            return process, match.group(1)
        assert process.poll() is None, Path(log.name).read_text()
        time.sleep(0.2)
    process.kill()
    raise AssertionError("marquee serve did not print its URL")


def api(network, url, method="GET", body=None):
    """A JSON request from inside the server's network namespace (curl, run there)."""
    command = network.prefix + ["curl", "-sS", "--fail-with-body", "--max-time", "10", "-X", method, url,
                                "-H", "content-type: application/json"]
    if body is not None:
        command += ["--data", json.dumps(body)]
    answer = subprocess.run(command, capture_output=True, text=True, timeout=20)
    assert answer.returncode == 0, f"{method} {url}: {answer.stdout} {answer.stderr}"
    return json.loads(answer.stdout or "null")


def add_clip(network, base, folder):
    """One two-second clip in the library, so asset, manifest, media and session operations
    have something real to find."""
    clip = folder / "clip.mp4"
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                    "testsrc2=size=160x90:rate=12:duration=2", "-f", "lavfi", "-i", "sine=duration=2",
                    "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", str(clip)],
                   check=True)
    api(network, base + "/api/assets", "POST", {"paths": [str(clip)]})
    deadline = time.time() + 90
    while time.time() < deadline:
        assets = api(network, base + "/api/assets")["assets"]
        if assets and all(a["status"] == "ready" for a in assets):
            return
        assert not any(a["status"] == "failed" for a in assets), assets
        time.sleep(0.5)
    raise AssertionError("the clip was not ready in time")


PYTHON_AST_BUG = "AST constructor recursion depth mismatch"


def only_the_python_bug(output):
    """Whether a failed schemathesis run failed only because of the CPython bug: it is in the
    output, no case failed ("N generated, N passed"), and every error it lists is a runtime error
    (an API mismatch, a server error or a schema problem is listed otherwise)."""
    if PYTHON_AST_BUG not in output or "SUMMARY" not in output:
        return False
    summary = output[output.rindex("SUMMARY"):]
    cases = re.search(r"(\d+) generated, (\d+) passed", summary)
    if not cases or cases.group(1) != cases.group(2) or "Failures:" in summary:
        return False
    errors = re.search(r"\nErrors:\n((?:  .*\n)+)", summary)
    listed = errors.group(1).splitlines() if errors else []
    return all("Runtime Error" in line for line in listed)


def known_identifiers(network, base, folder):
    """A config file: schemathesis.toml, and the clip's and a playback session's identifiers
    offered as every `id` and `asset` path parameter half the time."""
    clip = api(network, base + "/api/assets")["assets"][0]["id"]
    session = api(network, base + "/api/sessions", "POST", {"assetID": clip})["id"]
    config = folder / "schemathesis.toml"
    config.write_text(CONFIG.read_text() + f"""
[dictionaries.known]
values = ["{clip}", "{session}"]

[parameters]
"path.id" = {{ dictionary = "known", probability = 0.5 }}
"path.asset" = {{ dictionary = "known", probability = 0.5 }}
""")
    return config


def test_the_api_answers_as_its_openapi_document_says():
    folder = Path(tempfile.mkdtemp(prefix="marquee-openapi-"))
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    report = ARTIFACTS / "schemathesis.txt"
    network = LoopbackOnly()
    left_out = [] if network.holder else ["--exclude-name-regex", OUTBOUND]
    with open(folder / "server.log", "w") as log:
        process, base = start_server(folder / "data", log, network)
        try:
            add_clip(network, base, folder)
            config = known_identifiers(network, base, folder)
            started = time.time()

            def schemathesis(*generation):
                return subprocess.run(
                    network.prefix + [sys.executable, "-m", "schemathesis.cli", "--config-file", str(config), "run", f"{base}/api/openapi.json", "--checks", CHECKS,
                                      "--request-timeout", str(REQUEST_TIMEOUT), "--max-response-time", str(REQUEST_TIMEOUT),
                                      "--no-color", "--suppress-health-check", "all", *generation, *left_out,
                                      *(["--exclude-checks", EXCLUDED_CHECKS] if EXCLUDED_CHECKS else [])],
                    capture_output=True, text=True, timeout=max(EXPLORE_SECONDS, SAFETY_SECONDS) + 120, cwd=folder)

            if EXPLORE_SECONDS:
                def explore():
                    return schemathesis("--max-time", str(EXPLORE_SECONDS), "--workers", "2", "--seed", str(random.randrange(1 << 32)),
                                        "--generation-database", "none")
                run = explore()
                if run.returncode != 0 and PYTHON_AST_BUG in run.stdout + run.stderr:
                    # Debian 12's Python 3.11 can raise this SystemError inside hypothesis's own code after
                    # it recovered from a deep recursion while generating data (a CPython bug, fixed in
                    # later releases); it says nothing about the API, so the run is made once more.
                    print(f"schemathesis stopped on the Python bug {PYTHON_AST_BUG!r}; running it once more")
                    report.with_suffix(".first-run.txt").write_text(run.stdout + run.stderr)
                    run = explore()
            else:
                # The same cases every run: one worker (two would interleave stateful sequences
                # differently), a fixed number per operation, hypothesis derandomized.
                # Unshrunk: a failing case is reported as found (shrinking one took 7 of 10 minutes).
                # No --max-time: with one, fuzzing runs until it is spent whatever --max-examples says.
                # How many cases each phase makes is set per phase in schemathesis.toml.
                run = schemathesis("--workers", "1", "--generation-deterministic", "--no-shrink")
            report.write_text(run.stdout + run.stderr)
            print(f"schemathesis ran {time.time() - started:.0f} s; report in {report}")
            summary = [line for line in run.stdout.splitlines() if "generated" in line or "passed" in line][-3:]
            if run.returncode != 0 and only_the_python_bug(run.stdout + run.stderr):
                # Every case generated passed and the only error is the bug's, in one operation's
                # coverage phase; the other phases and operations were checked. (A deterministic
                # run meets it at the same place every time, so it is not run again.)
                print(f"schemathesis hit {PYTHON_AST_BUG!r} again; every case it generated passed")
            else:
                assert run.returncode == 0, (f"schemathesis found mismatches between the API and openapi.json "
                                             f"(full report: {report}):\n" + run.stdout[-6000:])
            print("\n".join(summary))
            assert process.poll() is None, "the server stopped during the run"
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
            network.close()
            shutil.rmtree(folder, ignore_errors=True)
