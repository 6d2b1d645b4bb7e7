"""The command line's shared contract (docs/command-line.md), as a script sees it: JSON lines
when stdout is not a terminal, and one meaning per exit status across commands."""
import concurrent.futures
import json
import os
import re
import socket
import subprocess
import time
import urllib.request

import pytest

from test_mediacore_cli import marquee, media  # noqa: F401  (the module-scoped clip fixture)


def run(*args, timeout=180):
    return subprocess.run([marquee(), *map(str, args)], capture_output=True, text=True, timeout=timeout)


def events(stdout):
    lines = [json.loads(line) for line in stdout.splitlines() if line.strip()]
    assert all("event" in line for line in lines), lines
    return lines


def test_piped_package_prints_progress_and_result_as_json_lines(media, tmp_path):
    result = run("package", media, "--out", tmp_path / "hls", "--segment-duration", "2")  # no --json: stdout is a pipe
    assert result.returncode == 0, result.stderr
    lines = events(result.stdout)
    fractions = [l["fraction"] for l in lines if l["event"] == "progress"]
    assert len(fractions) >= 3 and fractions == sorted(fractions) and fractions[-1] == 1
    outcome = lines[-1]
    assert outcome["event"] == "result" and outcome["multivariant"].endswith("master.m3u8")
    assert {r["kind"] for r in outcome["renditions"]} >= {"video", "audio"}
    assert "\u2588" not in result.stderr  # no progress bar drawn into a pipe


def test_piped_compose_and_thumbnails_are_json_lines(media, tmp_path):
    composed = run("compose", "--insert", f"{media}@0-2", "--out", tmp_path / "c.mp4")
    assert composed.returncode == 0, composed.stderr
    assert events(composed.stdout)[-1]["event"] == "result"
    thumbs = run("thumbnails", media, "--at", "1,2", "--out", tmp_path / "t")
    assert thumbs.returncode == 0, thumbs.stderr
    assert [l["requested"] for l in events(thumbs.stdout) if l["event"] == "thumbnail"] == [1, 2]


def test_unusable_input_is_2_everywhere_with_an_error_event(tmp_path):
    missing = tmp_path / "missing.mp4"
    for args in (["package", missing, "--out", tmp_path / "o"],
                 ["compose", "--insert", f"{missing}@0-1", "--out", tmp_path / "x.mp4"],
                 ["thumbnails", missing, "--every", "1", "--out", tmp_path / "t"],
                 ["add", "--data", tmp_path / "lib", missing]):
        result = run(*args)
        assert result.returncode == 2, f"{args}: {result.returncode}\n{result.stderr}"
        assert result.stderr.startswith(f"marquee {args[0]}: ") and "missing.mp4" in result.stderr, result.stderr
        error = events(result.stdout)[-1]
        assert error["event"] == "error" and error["status"] == 2 and error["kind"] == "unusable-input"


def test_partial_failure_is_1(media, tmp_path):
    result = run("thumbnails", media, "--at", "1,500", "--exact", "--out", tmp_path / "t")
    assert result.returncode == 1, result.stderr
    lines = events(result.stdout)
    made = [l for l in lines if l["event"] == "thumbnail"]
    assert "file" in made[0] and "error" in made[1]
    assert lines[-1]["event"] == "error" and lines[-1]["status"] == 1


def test_usage_errors_are_64():
    result = run("thumbnails", "x.mp4", "--at", "1", "--every", "2", "--out", "/tmp/never")
    assert result.returncode == 64
    assert "exactly one of --at and --every" in result.stderr


def test_a_taken_port_is_3_unavailable(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run("serve", "--data", tmp_path, "--port", port, "--no-samples", timeout=60)
    assert result.returncode == 3, result.stdout + result.stderr
    assert "could not serve on 127.0.0.1" in result.stderr


def test_a_database_nobody_answers_is_3_unavailable(tmp_path):
    # A loopback port nobody listens on: both commands give up after their 15 s and say why.
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    database = f"postgres://marquee@127.0.0.1:{port}/none"
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        users = pool.submit(run, "users", "list", "--database", database, timeout=60)
        serve = pool.submit(run, "serve", "--data", tmp_path, "--port", 0, "--no-samples", "--database", database, timeout=60)
        for result in (users.result(), serve.result()):
            assert result.returncode == 3, result.stdout + result.stderr
            assert "PostgreSQL could not connect" in result.stderr and "no answer within 15 s" in result.stderr, result.stderr


def test_a_bucket_nobody_answers_is_3_unavailable(tmp_path):
    # An S3 endpoint on a loopback port nobody listens on: refused at start, at once (the S3
    # client's pool does not retry a refused connection by itself; issue 30) or within 10 s.
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    environment = {**os.environ, "AWS_ENDPOINT_URL_S3": f"http://127.0.0.1:{port}", "AWS_REGION": "us-east-1",
                   "AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test"}
    result = subprocess.run([marquee(), "worker", "--data", str(tmp_path), "--media", "s3://media/marquee"],
                            capture_output=True, text=True, timeout=60, env=environment)
    assert result.returncode == 3, result.stdout + result.stderr
    assert "Cannot use s3://media/marquee" in result.stderr, result.stderr
    assert "Connection refused" in result.stderr or "did not answer within 10 s" in result.stderr, result.stderr


def test_piped_serve_says_ready_as_a_json_line(tmp_path):
    process = subprocess.Popen([marquee(), "serve", "--data", str(tmp_path), "--port", "0", "--no-samples"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        ready = json.loads(process.stdout.readline())
        assert ready["event"] == "ready" and ready["url"].startswith("http://127.0.0.1:")
        assert ready["data"] == str(tmp_path) and ready["message"].startswith("Marquee is ready at")
    finally:
        process.terminate()
        assert process.wait(timeout=20) == 0


def test_worker_serves_its_metrics_on_loopback(media, tmp_path):
    # `marquee worker --metrics-port 0` prints where its /metrics is; the job it runs is counted there.
    process = subprocess.Popen([marquee(), "worker", "--data", str(tmp_path), "--metrics-port", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        lines = [process.stdout.readline(), process.stdout.readline()]
        url = next((line.split("Metrics at ")[1].strip() for line in lines if line.startswith("Metrics at ")), None)
        assert url and url.startswith("http://127.0.0.1:") and url.endswith("/metrics"), lines
        added = run("add", "--data", tmp_path, "--queue-only", media)
        assert added.returncode == 0, added.stderr
        deadline = time.time() + 90
        while time.time() < deadline:
            with urllib.request.urlopen(url, timeout=10) as response:
                assert response.headers["Content-Type"].startswith("text/plain; version=0.0.4")
                exposition = response.read().decode()
            if re.search(r'^marquee_job_outcomes_total\{outcome="succeeded"\} 1(\.0)?$', exposition, re.M):
                break
            time.sleep(0.5)
        else:
            pytest.fail(f"the worker's /metrics never counted its job: {exposition[:2000]}")
    finally:
        process.terminate()
        process.wait(timeout=30)
    # Off loopback it asks for a token rather than show the numbers to whoever reaches it.
    refused = run("worker", "--data", tmp_path, "--metrics-port", "0", "--metrics-host", "0.0.0.0", timeout=30)
    assert refused.returncode == 64 and "--metrics-token" in refused.stderr, refused.stdout + refused.stderr
