"""Outages under traffic (`make chaos`, not part of `make test`: it takes about 90 s). One node
(`marquee serve` with its own worker) on PostgreSQL and a SeaweedFS bucket serves a packaged
clip to a player that fetches a segment every 50 ms and to an API client that lists the
library every 200 ms, while

1. PostgreSQL is stopped for 20 s: segments keep coming (200, no database on their path);
   every API request answers 503 with a sentence naming the database, none waits for the
   server to come back; `/readyz` says the database is not answering and `/metrics` says
   `marquee_ready{check="database"} 0`; once PostgreSQL is back the API answers 200 by itself.
2. The bucket's gateway is stopped for 20 s: the segment the player keeps fetching is served
   from the node's memory (200); a segment nobody fetched before answers 503 with a sentence that names
   no bucket, key or S3 error; the API (which needs no bucket) keeps answering 200; once the
   gateway is back segments are served again by themselves.

The latencies measured are written to artifacts/e2e/chaos.json and printed (`pytest -s`)."""
import json
import re
import shutil
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request

from cluster_support import PostgreSQL, SeaweedFS
from conftest import ARTIFACTS, marquee_binary

OUTAGE = 20
MEDIA = "s3://marquee/chaos"


def fetch(url, timeout=15):
    """(status, body, seconds) of a GET; a timeout or a refused connection is status 0."""
    started = time.monotonic()
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, response.read(), time.monotonic() - started
    except urllib.error.HTTPError as error:
        return error.code, error.read(), time.monotonic() - started
    except (OSError, TimeoutError) as error:
        return 0, str(error).encode(), time.monotonic() - started


class Traffic(threading.Thread):
    """Requests `url` every `interval` seconds until stopped, keeping (start time, status, body, seconds)."""

    def __init__(self, url, interval):
        super().__init__(daemon=True)
        self.url, self.interval, self.stopped, self.results = url, interval, threading.Event(), []

    def run(self):
        while not self.stopped.is_set():
            started = time.time()
            status, body, seconds = fetch(self.url)
            self.results.append((started, status, body, seconds))
            self.stopped.wait(self.interval)

    def between(self, start, end):
        return [r for r in self.results if start <= r[0] and r[0] + r[3] <= end]


def wait_for(predicate, seconds, what):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if predicate():
            return time.time()
        time.sleep(0.2)
    raise AssertionError(f"{what} within {seconds} s")


def metric(url, name, labels):
    _, body, _ = fetch(url + "/metrics")
    pattern = re.escape(name) + r"\{" + ",".join(re.escape(f'{k}="{v}"') for k, v in labels.items()) + r"\} (\S+)"
    match = re.search(pattern, body.decode())
    return float(match.group(1)) if match else None


def test_postgresql_and_the_bucket_stopped_under_traffic():
    folder = tempfile.mkdtemp(prefix="marquee-chaos-")
    database, storage = PostgreSQL(), SeaweedFS()
    environment = storage.environment()
    node = None
    summary = {}
    try:
        node = subprocess.Popen([marquee_binary(), "serve", "--data", f"{folder}/node", "--port", "0", "--no-samples",
                                 "--database", database.url, "--media", MEDIA, "--log-format", "json"],
                                stdout=subprocess.PIPE, stderr=open(f"{folder}/node.log", "w"), text=True, env=environment)
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", node.stdout.readline())
        assert match, open(f"{folder}/node.log").read()[-2000:]
        threading.Thread(target=lambda: node.stdout.read(), daemon=True).start()
        url = f"http://127.0.0.1:{match.group(1)}"

        clip = f"{folder}/clip.mp4"
        subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=24:duration=14",
                        "-f", "lavfi", "-i", "sine=duration=14", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
                        "-c:a", "aac", clip], check=True)
        subprocess.run([marquee_binary(), "add", "--data", f"{folder}/cli", "--database", database.url, "--media", MEDIA,
                        "--queue-only", clip], check=True, capture_output=True, env=environment)

        def ready_asset():
            status, body, _ = fetch(url + "/api/assets")
            assets = json.loads(body)["assets"] if status == 200 else []
            return assets[0] if assets and assets[0]["status"] == "ready" else None
        wait_for(ready_asset, 120, "the clip was not packaged")
        asset = ready_asset()
        _, body, _ = fetch(url + asset["manifestURL"])
        segment = url + json.loads(body)["video"][0]["segments"][0]["url"]
        cold_segment = url + json.loads(body)["video"][0]["segments"][-1]["url"]
        assert cold_segment != segment
        status, _, _ = fetch(url + "/readyz")
        assert status == 200

        player, api = Traffic(segment, 0.05), Traffic(url + "/api/assets", 0.2)
        player.start()
        api.start()
        time.sleep(2)

        # 1. PostgreSQL stops for OUTAGE seconds.
        database.stop_server()
        stopped = time.time()
        time.sleep(3)
        readyz_status, readyz_body, readyz_seconds = fetch(url + "/readyz")
        ready_metric = metric(url, "marquee_ready", {"check": "database"})
        time.sleep(OUTAGE - 3 - (time.time() - stopped))
        outage_end = time.time()
        database.start_server()
        recovered = wait_for(lambda: fetch(url + "/api/assets")[0] == 200, 60, "the API did not recover by itself")
        summary["database"] = dict(recovery_seconds=round(recovered - outage_end, 2))

        during = api.between(stopped + 0.5, outage_end)
        assert len(during) >= 4, f"too few API requests during the outage: {len(during)}"
        statuses = {r[1] for r in during}
        assert statuses == {503}, f"API answers during the PostgreSQL outage: {sorted(statuses)}"
        for _, _, body, seconds in during:
            error = json.loads(body)["error"]
            assert error["code"] == "database-unavailable" and "database is not answering" in error["message"], error
            # Bounded by the wait for a connection (2 s), not by the outage (20 s).
            assert seconds < 10, f"an API request waited {seconds:.1f} s"
        summary["database"].update(api_requests=len(during), api_seconds_max=round(max(r[3] for r in during), 2),
                                   api_seconds_median=round(sorted(r[3] for r in during)[len(during) // 2], 3))
        segments = player.between(stopped, outage_end)
        assert len(segments) >= 50 and {r[1] for r in segments} == {200}, \
            f"segments during the PostgreSQL outage: {[(r[1], r[2][:200]) for r in segments if r[1] != 200][:3]}"
        summary["database"].update(segments=len(segments), segment_seconds_max=round(max(r[3] for r in segments), 3))
        assert readyz_status == 503, readyz_body
        readiness = json.loads(readyz_body)
        assert readiness["status"] == "unavailable" and "database" in readiness["message"], readiness
        assert next(c for c in readiness["checks"] if c["name"] == "database")["ok"] is False
        summary["database"]["readyz_seconds"] = round(readyz_seconds, 2)
        assert ready_metric == 0, ready_metric
        assert fetch(url + "/readyz")[0] == 200

        # 2. The bucket's gateway stops for OUTAGE seconds.
        storage.stop_process()
        stopped = time.time()
        cold = Traffic(cold_segment, 0.2)
        cold.start()
        time.sleep(OUTAGE)
        outage_end = time.time()
        cold.stopped.set()
        storage.start_process()
        recovered = wait_for(lambda: fetch(cold_segment)[0] == 200, 90, "segments were not served again")
        summary["bucket"] = dict(recovery_seconds=round(recovered - outage_end, 2))
        hot = player.between(stopped, outage_end)
        assert len(hot) >= 50 and {r[1] for r in hot} == {200}, \
            f"the hot segment during the bucket outage: {[(r[1], r[2][:200]) for r in hot if r[1] != 200][:3]}"
        summary["bucket"].update(hot_segments=len(hot), hot_segment_seconds_max=round(max(r[3] for r in hot), 2))
        segments = cold.between(stopped + 0.5, outage_end)
        assert len(segments) >= 5 and {r[1] for r in segments} == {503}, \
            f"segments during the bucket outage: {sorted({r[1] for r in segments})}"
        for _, _, body, seconds in segments:
            text = body.decode()
            error = json.loads(text)["error"]
            assert error["code"] == "media-storage-unavailable" and "media storage is not answering" in error["message"], text
            for secret in ["chaos/", "S3", "NetworkError", str(storage.s3_port)]:
                assert secret not in text, f"a 503 revealed {secret}: {text}"
            assert seconds < 10, f"a segment request waited {seconds:.1f} s"
        summary["bucket"].update(segments=len(segments), segment_seconds_max=round(max(r[3] for r in segments), 2),
                                 segment_seconds_median=round(sorted(r[3] for r in segments)[len(segments) // 2], 3))
        calls = api.between(stopped, outage_end)
        assert calls and {r[1] for r in calls} == {200}, sorted({r[1] for r in calls})

        player.stopped.set()
        api.stopped.set()
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        (ARTIFACTS / "chaos.json").write_text(json.dumps(summary, indent=1))
        print("chaos:", json.dumps(summary))
        # The node's log: JSON lines, the outage in it with its request ids.
        lines = [json.loads(line) for line in open(f"{folder}/node.log") if line.startswith("{")]
        assert any(line.get("status") == "503" and line.get("request.id") for line in lines if line["label"] == "marquee.access")
    finally:
        if node and node.poll() is None:
            node.terminate()
            node.wait(timeout=10)
        storage.stop()
        database.stop()
        shutil.rmtree(folder, ignore_errors=True)
