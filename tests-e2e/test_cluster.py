"""The cluster layout on one machine: two `marquee serve` nodes (no workers of their own) and
two `marquee worker`s on one PostgreSQL and one SeaweedFS (media in a bucket, SigV4 checked by
the real gateway), behind nginx. Twenty files are ingested (nineteen added by path, one
uploaded through the balancer) and each is packaged exactly once; a worker killed with SIGKILL
mid-job has its job finished by the other after the lease; a node shows progress made by a
worker through the database (LISTEN/NOTIFY), not through itself; the packaged media are in the
bucket, not on any node; every asset is served through the balancer from both nodes and one
plays in Chromium; the words in one clip are read for Live Text by one process of the cluster
and found by a search through either node; a node stops and playback carries on through the other; deleting an asset
deletes its objects."""
import base64
import http.cookiejar
import json
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from cluster_support import Balancer, PostgreSQL, SeaweedFS
from conftest import ARTIFACTS, Server, marquee_binary
from player_page import PlayerPage

LEASE = 8
FILES = 20
MEDIA = "s3://marquee/cluster"
TEXT_CLIP = 1
WORDS = "Marmalade lighthouse"
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def get(url, timeout=10, method="GET", data=None, headers=None):
    request = urllib.request.Request(url, method=method, data=data, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.read(), response.headers
    except urllib.error.HTTPError as error:
        raise AssertionError(f"{method} {url}: {error.code} {error.read()[:500]!r}") from None


def start_node(data, database, environment):
    process = subprocess.Popen([marquee_binary(), "serve", "--data", data, "--port", "0", "--no-samples", "--no-worker",
                                "--database", database, "--media", MEDIA],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=environment)
    line = process.stdout.readline()
    match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    assert match, f"marquee serve did not print its URL: {line!r}"
    threading.Thread(target=lambda: process.stdout.read(), daemon=True).start()
    return process, int(match.group(1))


def start_worker(data, database, environment, name):
    return subprocess.Popen([marquee_binary(), "worker", "--data", data, "--database", database, "--media", MEDIA,
                             "--lease", str(LEASE), "--name", name],
                            stdout=subprocess.DEVNULL, stderr=open(f"{data}.log", "w"), env=environment)


def follow_events(url, seen, stop, client=None):
    """Collects `asset` events from a node's /api/events (or, with `client`, from the
    balancer's, sending the client's cookies) until `stop` is set."""
    opened = client.opener.open(client.base + "/api/events", timeout=120) if client else urllib.request.urlopen(url + "/api/events", timeout=120)
    with opened as stream:
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
    storage = SeaweedFS()
    environment = storage.environment()
    processes = []
    try:
        node_a, port_a = start_node(f"{folder}/a", database.url, environment)
        node_b, port_b = start_node(f"{folder}/b", database.url, environment)
        processes += [node_a, node_b]
        balancer = Balancer([port_a, port_b])
        yield dict(folder=folder, database=database, storage=storage, environment=environment,
                   nodes=[(node_a, port_a), (node_b, port_b)], balancer=balancer, processes=processes)
        balancer.stop()
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.wait(timeout=10)
        storage.stop()
        database.stop()
        # The workers' logs (one per start), kept for a failure's reader.
        kept = ARTIFACTS / "cluster-workers"
        kept.mkdir(parents=True, exist_ok=True)
        for log in Path(folder).glob("*.log"):
            shutil.copy(log, kept / log.name)
        shutil.rmtree(folder, ignore_errors=True)


def make_clips(folder):
    clips = []
    for index in range(FILES):
        # One long clip: the job a worker is killed in the middle of, and the one played in Chromium.
        seconds = 40 if index == 0 else 2
        path = f"{folder}/clip-{index}.mp4"
        # One shows words, for the Live Text search (read once in the cluster, found through any node).
        picture = (f"color=c=white:size=640x360:rate=24:duration={seconds},drawtext=fontfile={FONT}:text='{WORDS}':"
                   "fontsize=32:fontcolor=black:x=30:y=150") if index == TEXT_CLIP else f"testsrc2=size=320x180:rate=24:duration={seconds}"
        subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                        picture, "-f", "lavfi", "-i", f"sine=duration={seconds}",
                        "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", path], check=True)
        clips.append(path)
    return clips


class BrowserLike:
    """An HTTP client that keeps cookies, as a browser does: the balancer's affinity cookie
    (`marquee_node`) set on its first answer is sent with every later request."""

    def __init__(self, base):
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def call(self, method, path, data=None, headers=None, timeout=30):
        request = urllib.request.Request(self.base + path, method=method, data=data, headers=headers or {})
        try:
            with self.opener.open(request, timeout=timeout) as response:
                return response.status, response.read(), response.headers
        except urllib.error.HTTPError as error:
            raise AssertionError(f"{method} {path}: {error.code} {error.read()[:500]!r}") from None

    def cookie(self, name):
        return next((c.value for c in self.jar if c.name == name), None)


def upload(client, path, chunks=6, after_first_chunk=None):
    """Uploads a file as the library page's uploader does (`Upload` in js/library/uploader.js):
    `POST /api/uploads`, then each chunk as `PUT` with `Content-Range` (the page's are 8 MiB;
    here the file is cut in `chunks` pieces so that there are several), asking for the offset
    with `HEAD` on the way as a page resuming after a dropped connection does, then
    `POST …/complete`. `after_first_chunk(id, offset, data)` is called once, after the first
    chunk. Returns the upload's id and the new asset's id."""
    data = open(path, "rb").read()
    status, body, _ = client.call("POST", "/api/uploads", json.dumps({"fileName": "uploaded.mp4", "length": len(data)}).encode(),
                                  {"Content-Type": "application/json"})
    assert status == 201, body
    upload_id = json.loads(body)["id"]
    size = -(-len(data) // chunks)
    sent = 0
    while sent < len(data):
        chunk = data[sent:sent + size]
        status, body, _ = client.call("PUT", f"/api/uploads/{upload_id}", chunk,
                                      {"Content-Range": f"bytes {sent}-{sent + len(chunk) - 1}/{len(data)}",
                                       "Content-Type": "application/octet-stream"})
        assert status == 200, body
        sent = json.loads(body)["offset"]
        _, _, headers = client.call("HEAD", f"/api/uploads/{upload_id}")
        assert int(headers["Upload-Offset"]) == sent
        if after_first_chunk:
            after_first_chunk(upload_id, sent, data)
            after_first_chunk = None
    status, body, _ = client.call("POST", f"/api/uploads/{upload_id}/complete", b"", {"Content-Type": "application/json"})
    assert status == 202, body
    return upload_id, json.loads(body)["id"]


def media_requests(node):
    """The node's count of answered media requests (routed and from its event-loop cache), from /metrics."""
    _, exposition, _ = get(node + "/metrics")
    return sum(float(m) for m in re.findall(rb'^marquee_http_requests_total\{route="/media/\{asset\}/\*\*",[^}]*\} (\S+)$', exposition, re.M))


def frames_read(data, asset_id):
    """How many frames of `asset_id` the process with data directory `data` read for Live Text
    (its own cache of read frames, `frame-text.sqlite`)."""
    path = f"{data}/frame-text.sqlite"
    if not os.path.exists(path):
        return 0
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        return db.execute("SELECT count(*) FROM analysedFrame WHERE assetID = ?", (asset_id,)).fetchone()[0]


def files_under(folder):
    return [os.path.join(root, name) for root, _, names in os.walk(folder) for name in names]


def test_two_nodes_two_workers_one_database_one_bucket(cluster, browser):
    database, balancer, storage, environment = cluster["database"], cluster["balancer"], cluster["storage"], cluster["environment"]
    folder = cluster["folder"]
    (_, port_a), (_, port_b) = cluster["nodes"]
    node_a = f"http://127.0.0.1:{port_a}"
    clips = make_clips(folder)

    events, stop = [], threading.Event()
    threading.Thread(target=follow_events, args=(node_a, events, stop), daemon=True).start()
    time.sleep(1)

    workers = {name: start_worker(f"{folder}/{name}", database.url, environment, name) for name in ("one", "two")}
    cluster["processes"] += list(workers.values())
    subprocess.run([marquee_binary(), "add", "--data", f"{folder}/cli", "--database", database.url, "--media", MEDIA,
                    "--queue-only", clips[0]], check=True, capture_output=True, env=environment)
    # One worker takes the long clip; kill it in the middle of packaging.
    deadline = time.time() + 60
    while time.time() < deadline:
        row = database.psql("marquee", "SELECT lease_owner || ' ' || progress FROM ingest_job WHERE state = 'running'")
        if row and float(row.split()[1]) > 0.05:
            break
        time.sleep(0.1)
    else:
        pytest.fail(f"no worker got going: {database.psql('marquee', 'SELECT * FROM ingest_job')}")
    killed = row.split()[0]
    other = "two" if killed == "one" else "one"
    long_job = database.psql("marquee", "SELECT id FROM ingest_job WHERE state = 'running'")
    workers[killed].send_signal(signal.SIGKILL)
    workers[killed].wait(timeout=10)
    killed_at = time.time()

    # Nineteen more by path, and the twentieth uploaded through the balancer (kept in the bucket
    # until a worker, which never saw the node's disk, fetches it).
    subprocess.run([marquee_binary(), "add", "--data", f"{folder}/cli", "--database", database.url, "--media", MEDIA,
                    "--queue-only"] + clips[1:FILES - 1], check=True, capture_output=True, env=environment)
    # A browser through the documented nginx configuration: its first answer gives it the
    # affinity cookie; its library event stream (SSE) and every request of its chunked upload
    # then reach one node.
    client = BrowserLike(balancer.url)
    status, _, headers = client.call("GET", "/api/health")
    assert status == 200 and client.cookie("marquee_node"), f"nginx set no affinity cookie: {headers}"
    through_balancer, stop_balancer_events = [], threading.Event()
    threading.Thread(target=follow_events, args=(None, through_balancer, stop_balancer_events, client), daemon=True).start()
    logged_before_upload = os.path.getsize(balancer.access_log)

    def a_chunk_sent_to_the_other_node(upload_id, offset, data):
        """What a client that keeps no cookie risks: a chunk that reaches the node that did not
        start the upload is refused with a sentence saying why, and the upload is unharmed."""
        started_on = next(r["upstream"] for r in balancer.requests(logged_before_upload) if r["path"] == "/api/uploads")
        other = next(f"http://127.0.0.1:{p}" for _, p in cluster["nodes"] if f"127.0.0.1:{p}" != started_on)
        request = urllib.request.Request(f"{other}/api/uploads/{upload_id}", method="PUT", data=data[offset:offset + 100],
                                         headers={"Content-Range": f"bytes {offset}-{offset + 99}/{len(data)}",
                                                  "Content-Type": "application/octet-stream"})
        try:
            urllib.request.urlopen(request, timeout=10)
            pytest.fail("a chunk for an upload another node started was accepted")
        except urllib.error.HTTPError as error:
            answer = json.loads(error.read())
            assert error.code == 404 and error.headers["Content-Type"].startswith("application/json"), answer
            message = answer["error"]["message"]
            assert upload_id in message and "node that started it" in message, message
        refused.append(message)

    refused = []
    upload_id, uploaded = upload(client, clips[FILES - 1], after_first_chunk=a_chunk_sent_to_the_other_node)
    assert refused
    upload_requests = [r for r in balancer.requests(logged_before_upload) if r["path"].startswith("/api/uploads")]
    assert len(upload_requests) >= 13, upload_requests  # create, 6 chunks, 6 offsets, complete
    assert len({r["upstream"] for r in upload_requests}) == 1 and all(r["status"] < 300 for r in upload_requests), \
        "the upload's requests did not all reach one node:\n" + "".join(r["line"] for r in upload_requests)
    upload_node = upload_requests[0]["upstream"]

    # The other worker takes the killed job over once its lease runs out; then the killed worker
    # comes back, as a supervisor would restart it, so two workers share the rest.
    deadline = time.time() + LEASE * 4
    while time.time() < deadline:
        owner = database.psql("marquee", f"SELECT lease_owner || ' ' || attempts FROM ingest_job WHERE id = {long_job}")
        if owner == f"{other} 2":
            break
        time.sleep(0.2)
    else:
        pytest.fail(f"the killed job was not taken over by {other}: {database.psql('marquee', f'SELECT * FROM ingest_job WHERE id = {long_job}')}")
    taken_over_after = time.time() - killed_at
    # (In the same data directory: it frees what the killed process left staged.)
    restarted = start_worker(f"{folder}/{killed}", database.url, environment, f"{killed}-again")
    cluster["processes"].append(restarted)

    deadline = time.time() + 240
    while time.time() < deadline:
        states = database.psql("marquee", "SELECT string_agg(state, ',') FROM ingest_job").split(",")
        if len(states) == FILES and all(s == "succeeded" for s in states):
            break
        assert "failed" not in states, database.psql("marquee", "SELECT asset_id, message FROM ingest_job WHERE state = 'failed'")
        time.sleep(0.5)
    else:
        pytest.fail(f"not every job finished: {database.psql('marquee', 'SELECT id, state, lease_owner, attempts, message FROM ingest_job')}")

    attempts = database.psql("marquee", "SELECT string_agg(attempts::text, ',' ORDER BY id) FROM ingest_job").split(",")
    assert attempts == ["2"] + ["1"] * (FILES - 1), \
        f"the killed job ran twice, every other job exactly once: {database.psql('marquee', 'SELECT id, attempts, message, updated_at FROM ingest_job ORDER BY id')}"
    assert taken_over_after >= LEASE * 0.5  # it waited for the lease to run out

    # Node A runs no worker and was not asked to add anything: it learnt of the progress from the database.
    time.sleep(1)
    stop.set()
    progress = {e["id"]: e["job"]["progress"] for e in events if e.get("job", {}).get("state") == "running" and e["job"]["progress"] > 0}
    assert len(progress) >= 1, f"node A saw no progress: {events[-5:]}"
    assert sum(1 for e in events if e.get("status") == "ready") >= FILES
    # The browser's event stream through nginx (unbuffered, on its node) told it of the upload's progress.
    stop_balancer_events.set()
    assert any(e.get("id") == uploaded and e.get("status") == "ready" for e in through_balancer), \
        f"the event stream through nginx did not say the upload is ready: {through_balancer[-5:]}"

    # The media are in the bucket, each asset's under its id; no node or worker kept a copy of a segment.
    _, body, _ = get(balancer.url + "/api/assets")
    assets = json.loads(body)["assets"]
    assert len(assets) == FILES and all(a["status"] == "ready" for a in assets)
    keys = storage.objects("cluster")
    for asset in assets:
        mine = [k for k in keys if k.startswith(f"cluster/{asset['id']}/")]
        assert f"cluster/{asset['id']}/master.m3u8" in mine and f"cluster/{asset['id']}/poster.jpg" in mine, mine
        assert any(k.endswith(".m4s") for k in mine), mine
    assert any(k.startswith("cluster/sources/") and k.endswith("/uploaded.mp4") for k in keys), "the upload was not kept in the bucket"
    local = [f for f in files_under(folder) if f.endswith(".m4s")]
    assert local == [], f"segments left on local disks: {local[:5]}"

    # Through the balancer, as a client that keeps no cookie (spread request by request): every
    # asset's manifest, playlist, first segment and poster, from both nodes.
    logged_before_reads = os.path.getsize(balancer.access_log)
    media_before = [media_requests(f"http://127.0.0.1:{p}") for _, p in cluster["nodes"]]
    for asset in assets:
        status, body, headers = get(balancer.url + asset["manifestURL"])
        assert status == 200
        manifest = json.loads(body)
        status, playlist, headers = get(f"{balancer.url}/media/{asset['id']}/master.m3u8")
        assert status == 200 and playlist.startswith(b"#EXTM3U")
        status, segment, headers = get(balancer.url + manifest["video"][0]["segments"][0]["url"])
        assert status == 200 and headers["Content-Type"] == "video/iso.segment" and len(segment) > 1000
        status, part, headers = get(balancer.url + manifest["video"][0]["segments"][0]["url"], headers={"Range": "bytes=100-199"})
        assert status == 206 and part == segment[100:200]
        status, poster, _ = get(f"{balancer.url}/media/{asset['id']}/poster.jpg")
        assert status == 200 and poster.startswith(b"\xff\xd8\xff")
    upstreams = {r["upstream"] for r in balancer.requests(logged_before_reads)}
    assert len(upstreams) == 2, f"the balancer used one node only: {upstreams}"
    # What an operator's Prometheus and readiness probe see on each node: the media reads
    # just made counted under their route template, the queue read from the database, and
    # every dependency answering.
    for (_, port), before in zip(cluster["nodes"], media_before):
        node = f"http://127.0.0.1:{port}"
        assert media_requests(node) > before, f"node {port}'s metrics did not move with the reads"
        _, exposition, _ = get(node + "/metrics")
        assert re.search(rb'^marquee_jobs\{state="succeeded"\} 20(\.0)?$', exposition, re.M), exposition[:2000]
        assert not re.search(rb"route=\"/media/[0-9a-f]", exposition), "a raw media path became a label"
        status, body, _ = get(node + "/readyz")
        checks = json.loads(body)["checks"]
        assert status == 200 and [c["name"] for c in checks] == ["database", "queue", "media-storage"] and all(c["ok"] for c in checks), body

    # Live Text: the words in one clip are found by a search through the balancer from either
    # node, and were read by exactly one process of the cluster (the nodes run no worker, so
    # they leave reading to the workers; two workers claim each asset once between them).
    text_asset = next(a["id"] for a in assets if a["title"] == f"clip-{TEXT_CLIP}")
    deadline = time.time() + 90
    while time.time() < deadline:
        if database.psql("marquee", f"SELECT count(*) FROM frame_text_asset WHERE asset_id = '{text_asset}' AND indexed_at IS NOT NULL") == "1":
            break
        time.sleep(0.5)
    else:
        pytest.fail(f"the text clip was not indexed: {database.psql('marquee', 'SELECT * FROM frame_text_asset')}")
    for base in [balancer.url] + [f"http://127.0.0.1:{port}" for _, port in cluster["nodes"]]:
        _, body, _ = get(f"{base}/api/search?q=marmalade")
        frames = json.loads(body)["frames"]
        assert any(f["assetID"] == text_asset and WORDS in f["text"] for f in frames), f"{base} did not find the words: {frames}"
    readers = {name: frames_read(f"{folder}/{name}", text_asset) for name in ("a", "b", "one", "two")}
    assert sorted(readers.values())[:3] == [0, 0, 0] and max(readers.values()) > 0, f"frames read per process: {readers}"

    # The uploaded file plays: its session, and the renderer's WebSocket upgraded through nginx
    # to the node holding the session (the browser's cookie).
    status, body, _ = client.call("POST", "/api/sessions", json.dumps({"assetID": uploaded}).encode(), {"Content-Type": "application/json"})
    assert status in (200, 201), body
    session = json.loads(body)
    logged_before_socket = os.path.getsize(balancer.access_log)
    with socket.create_connection(("127.0.0.1", balancer.port), timeout=10) as sock:
        key = base64.b64encode(os.urandom(16)).decode()
        sock.sendall((f"GET /api/sessions/{session['id']}/renderer HTTP/1.1\r\nHost: 127.0.0.1:{balancer.port}\r\n"
                      f"Origin: {balancer.url}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n"
                      f"Sec-WebSocket-Key: {key}\r\nCookie: marquee_node={client.cookie('marquee_node')}\r\n\r\n").encode())
        head = sock.recv(4096)
        assert head.startswith(b"HTTP/1.1 101"), head
        assert b"upgrade" in head.lower() and b"sec-websocket-accept" in head.lower(), head
    deadline = time.time() + 10
    while not (upgraded := [r for r in balancer.requests(logged_before_socket) if r["path"].endswith("/renderer")]) and time.time() < deadline:
        time.sleep(0.1)
    assert upgraded and upgraded[0]["status"] == 101 and upgraded[0]["upstream"] == upload_node, upgraded

    # Plays in Chromium through the balancer ...
    driver = browser()
    # Through nginx, a node and the S3 proxy, with two nodes, two workers, PostgreSQL and
    # SeaweedFS on two cores: a full `make test` once needed more than 15 s to show the first
    # frame (the bound only limits a failing run; the message then says where the load stopped).
    page = PlayerPage(driver, Server(balancer.url, None, None), "clip-0", load_timeout=45)
    page.js("document.getElementById('video').play()")
    page.wait_for(lambda: page.current_time > 1, "the clip did not play through the balancer", timeout=20)

    # ... and carries on when a node stops: the player keeps fetching segments through the other.
    access_log = balancer.access_log
    node_process = cluster["nodes"][0][0]
    node_process.terminate()
    node_process.wait(timeout=15)
    logged_before_stop = os.path.getsize(access_log)
    stopped_at = page.current_time
    page.wait_for(lambda: page.current_time > stopped_at + 6, "playback stopped with the node", timeout=20)
    assert page.video("error") is None
    with open(access_log) as log:
        log.seek(logged_before_stop)
        fetched_after = [line for line in log if ".m4s" in line and '" 200 ' in line]
    assert fetched_after, "the player fetched no segment after the node stopped (was everything buffered already?)"
    for asset in assets:
        status, playlist, _ = get(f"{balancer.url}/media/{asset['id']}/master.m3u8")
        assert status == 200 and playlist.startswith(b"#EXTM3U")
    status, body, _ = get(balancer.url + "/api/assets")
    assert status == 200 and len(json.loads(body)["assets"]) == FILES

    # Deleting an asset (and its kept upload) deletes its objects.
    get(f"{balancer.url}/api/assets/{uploaded}?permanently=true", method="DELETE")
    remaining = storage.objects("cluster")
    assert not any(k.startswith(f"cluster/{uploaded}/") for k in remaining), "the deleted asset's media are still in the bucket"
    assert not any(k.startswith("cluster/sources/") for k in remaining), "the deleted upload is still in the bucket"
    kept = next(a["id"] for a in assets if a["id"] != uploaded)
    assert any(k.startswith(f"cluster/{kept}/") for k in remaining), "another asset's media went too"
