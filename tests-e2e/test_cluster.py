"""The cluster layout on one machine: two `marquee serve` nodes (no workers of their own) and
two `marquee worker`s on one PostgreSQL, behind nginx. Every job is packaged exactly once; a
worker killed with SIGKILL mid-job has its job finished by the other after the lease; a node
shows progress made by a worker through the database (LISTEN/NOTIFY), not through itself;
an asset plays in Chromium through the balancer; a node stops and media is still served."""
import json
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import urllib.request

import pytest

from cluster_support import Balancer, PostgreSQL
from conftest import Server, marquee_binary
from player_page import PlayerPage

LEASE = 8
CLIPS = 6


def get(url, timeout=10):
    with urllib.request.urlopen(url, timeout=timeout) as response:
        return response.status, response.read(), response.headers


def start_node(data, database, media):
    process = subprocess.Popen([marquee_binary(), "serve", "--data", data, "--port", "0", "--no-samples", "--no-worker",
                                "--database", database, "--media", media],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    line = process.stdout.readline()
    match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    assert match, f"marquee serve did not print its URL: {line!r}"
    threading.Thread(target=lambda: process.stdout.read(), daemon=True).start()
    return process, int(match.group(1))


def start_worker(data, database, media, name):
    return subprocess.Popen([marquee_binary(), "worker", "--data", data, "--database", database, "--media", media,
                             "--lease", str(LEASE), "--name", name],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def follow_events(url, seen, stop):
    """Collects `asset` events from a node's /api/events until `stop` is set."""
    with urllib.request.urlopen(url + "/api/events", timeout=120) as stream:
        for raw in stream:
            if stop.is_set():
                return
            line = raw.decode().strip()
            if line.startswith("data: "):
                try:
                    seen.append(json.loads(line[6:]))
                except json.JSONDecodeError:
                    pass


@pytest.fixture(scope="module")
def cluster():
    folder = tempfile.mkdtemp(prefix="marquee-cluster-")
    database = PostgreSQL()
    media = f"{folder}/media"
    processes = []
    try:
        node_a, port_a = start_node(f"{folder}/a", database.url, media)
        node_b, port_b = start_node(f"{folder}/b", database.url, media)
        processes += [node_a, node_b]
        balancer = Balancer([port_a, port_b])
        yield dict(folder=folder, database=database, media=media, nodes=[(node_a, port_a), (node_b, port_b)],
                   balancer=balancer, processes=processes)
        balancer.stop()
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.wait(timeout=10)
        database.stop()
        shutil.rmtree(folder, ignore_errors=True)


def make_clips(folder):
    clips = []
    for index in range(CLIPS):
        # One long clip: the job the first worker is killed in the middle of.
        seconds = 40 if index == 0 else 2
        path = f"{folder}/clip-{index}.mp4"
        subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                        f"testsrc2=size=320x180:rate=24:duration={seconds}", "-f", "lavfi", "-i", f"sine=duration={seconds}",
                        "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", path], check=True)
        clips.append(path)
    return clips


def test_two_nodes_two_workers_one_database(cluster, browser):
    database, balancer = cluster["database"], cluster["balancer"]
    (_, port_a), (_, port_b) = cluster["nodes"]
    node_a = f"http://127.0.0.1:{port_a}"
    clips = make_clips(cluster["folder"])

    events, stop = [], threading.Event()
    threading.Thread(target=follow_events, args=(node_a, events, stop), daemon=True).start()
    time.sleep(1)

    first = start_worker(f"{cluster['folder']}/w1", database.url, cluster["media"], "first")
    cluster["processes"].append(first)
    subprocess.run([marquee_binary(), "add", "--data", f"{cluster['folder']}/cli", "--database", database.url,
                    "--media", cluster["media"], "--queue-only", clips[0]], check=True, capture_output=True)
    # The first worker takes the long clip; kill it in the middle of packaging.
    deadline = time.time() + 60
    while time.time() < deadline:
        row = database.psql("marquee", "SELECT lease_owner || ' ' || progress FROM ingest_job WHERE state = 'running'")
        if row.startswith("first ") and float(row.split()[1]) > 0.05:
            break
        time.sleep(0.1)
    else:
        pytest.fail(f"the first worker never got going: {database.psql('marquee', 'SELECT * FROM ingest_job')}")
    first.send_signal(signal.SIGKILL)
    first.wait(timeout=10)
    killed_at = time.time()

    second = start_worker(f"{cluster['folder']}/w2", database.url, cluster["media"], "second")
    third = start_worker(f"{cluster['folder']}/w3", database.url, cluster["media"], "third")
    cluster["processes"] += [second, third]
    subprocess.run([marquee_binary(), "add", "--data", f"{cluster['folder']}/cli", "--database", database.url,
                    "--media", cluster["media"], "--queue-only"] + clips[1:], check=True, capture_output=True)

    deadline = time.time() + 240
    while time.time() < deadline:
        states = database.psql("marquee", "SELECT string_agg(state, ',') FROM ingest_job").split(",")
        if len(states) == CLIPS and all(s == "succeeded" for s in states):
            break
        assert "failed" not in states, database.psql("marquee", "SELECT asset_id, message FROM ingest_job WHERE state = 'failed'")
        time.sleep(0.5)
    else:
        pytest.fail(f"not every job finished: {database.psql('marquee', 'SELECT id, state, lease_owner, attempts FROM ingest_job')}")

    attempts = database.psql("marquee", "SELECT string_agg(attempts::text, ',' ORDER BY id) FROM ingest_job").split(",")
    assert attempts == ["2"] + ["1"] * (CLIPS - 1), \
        f"the killed job ran twice, every other job exactly once: {database.psql('marquee', 'SELECT id, attempts, message, updated_at FROM ingest_job ORDER BY id')}"
    assert time.time() - killed_at >= LEASE * 0.5  # it waited for the lease to run out

    # Node A runs no worker and was not asked to add anything: it learnt of the progress from the database.
    time.sleep(1)
    stop.set()
    progress = {e["id"]: e["job"]["progress"] for e in events if e.get("job", {}).get("state") == "running" and e["job"]["progress"] > 0}
    assert len(progress) >= 1, f"node A saw no progress: {events[-5:]}"
    assert sum(1 for e in events if e.get("status") == "ready") >= CLIPS

    # Through the balancer: every asset's manifest and first segment, from both nodes.
    _, body, _ = get(balancer.url + "/api/assets")
    assets = json.loads(body)["assets"]
    assert len(assets) == CLIPS and all(a["status"] == "ready" for a in assets)
    upstreams = set()
    for asset in assets:
        status, body, headers = get(balancer.url + asset["manifestURL"])
        assert status == 200
        upstreams.add(headers["X-Upstream"])
        status, playlist, headers = get(f"{balancer.url}/media/{asset['id']}/master.m3u8")
        assert status == 200 and playlist.startswith(b"#EXTM3U")
        upstreams.add(headers["X-Upstream"])
    assert len(upstreams) == 2, f"the balancer used one node only: {upstreams}"

    # Plays in Chromium through the balancer.
    page = PlayerPage(browser(), Server(balancer.url, None, None), "clip-1")
    page.js("document.getElementById('video').play()")
    page.wait_for(lambda: page.current_time > 0.5, "the clip did not play through the balancer", timeout=20)

    # Stop node A: media and the library still come through node B.
    node_process = cluster["nodes"][0][0]
    node_process.terminate()
    node_process.wait(timeout=15)
    for asset in assets:
        status, playlist, _ = get(f"{balancer.url}/media/{asset['id']}/master.m3u8")
        assert status == 200 and playlist.startswith(b"#EXTM3U")
    status, body, _ = get(balancer.url + "/api/assets")
    assert status == 200 and len(json.loads(body)["assets"]) == CLIPS
