"""Two `marquee serve` nodes on one PostgreSQL share more than the library (issue 16): an
account created through node A signs in through node B, a phone paired through node A is
recognised by node B without a new code, and a Live Activity started through node A is
listed by node B. Sign-in is required on both nodes (--require-sign-in), as off loopback."""
import json
import re
import shutil
import subprocess
import tempfile
import time

import pytest

from cluster_support import PostgreSQL
from conftest import ARTIFACTS, drain_console, marquee_binary
from nearby_support import RemoteProcess
from test_access_control import Client

OWNER = ("nora", "node owner password 1")


def start_node(name, data, database):
    process = subprocess.Popen([marquee_binary(), "serve", "--data", data, "--port", "0", "--no-samples", "--no-worker",
                                "--require-sign-in", "--nearby-port", "0", "--no-advertise", "--database", database],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    console, port, code = [], None, None
    deadline = time.time() + 60
    while time.time() < deadline and not (port and code):
        line = process.stdout.readline()
        if not line:
            break
        console.append(line)
        if m := re.search(r"http://127\.0\.0\.1:(\d+)/", line):
            port = port or int(m.group(1))
        if m := re.search(r"setup code ([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})", line):
            code = m.group(1)
    assert port and code, "".join(console)
    drain_console(process, ARTIFACTS / f"shared-stores-{name}-console.log")
    return process, f"http://127.0.0.1:{port}", code


@pytest.fixture(scope="module")
def nodes():
    folder = tempfile.mkdtemp(prefix="marquee-shared-stores-")
    database = PostgreSQL()
    processes = []
    try:
        node_a, url_a, code_a = start_node("a", f"{folder}/a", database.url)
        processes.append(node_a)
        node_b, url_b, _ = start_node("b", f"{folder}/b", database.url)
        processes.append(node_b)
        yield dict(folder=folder, database=database, a=url_a, b=url_b, code=code_a)
    finally:
        for process in processes:
            if process.poll() is None:
                process.terminate()
                process.wait(timeout=15)
        database.stop()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def owners(nodes):
    """The owner, set up through node A; then signed in through node B."""
    on_a = Client(nodes["a"])
    status, _, body = on_a.call("POST", "/api/auth/setup", {"name": OWNER[0], "password": OWNER[1], "setupCode": nodes["code"]})
    assert status == 201, body
    on_b = Client(nodes["b"])
    status, _, body = on_b.call("POST", "/api/auth/signin", {"name": OWNER[0].upper(), "password": OWNER[1]})
    assert status == 200 and body["account"]["name"] == OWNER[0] and body["account"]["role"] == "owner", body
    return on_a, on_b


def test_an_account_made_on_one_node_signs_in_on_the_other(nodes, owners):
    on_a, on_b = owners
    status, _, body = on_b.call("GET", "/api/auth/session")
    assert status == 200 and body["account"]["name"] == OWNER[0], body
    # Node B knows an owner exists: its own setup code no longer makes one.
    status, _, body = Client(nodes["b"]).call("POST", "/api/auth/setup", {"name": "eve", "password": "another password 1", "setupCode": "0000-0000-0000"})
    assert status in (403, 409), body
    # A viewer added through B signs in through A; a wrong password is refused there.
    status, _, body = on_b.call("POST", "/api/users", {"name": "vic", "password": "viewer password 1", "role": "viewer"})
    assert status == 201, body
    status, _, body = Client(nodes["a"]).call("POST", "/api/auth/signin", {"name": "vic", "password": "viewer password 1"})
    assert status == 200 and body["account"]["role"] == "viewer", body
    status, _, _ = Client(nodes["a"]).call("POST", "/api/auth/signin", {"name": "vic", "password": "wrong password 1"})
    assert status == 401


def test_a_sign_out_on_one_node_holds_on_the_other_at_once(nodes, owners):
    status, headers, body = Client(nodes["b"]).call("POST", "/api/auth/signin", {"name": OWNER[0], "password": OWNER[1]})
    assert status == 200, body
    cookie = headers["Set-Cookie"].split(";")[0]
    on_a, on_b = Client(nodes["a"]), Client(nodes["b"])
    # Node A resolves (and caches) the session made on node B.
    status, _, body = on_a.call("GET", "/api/auth/session", headers={"Cookie": cookie})
    assert status == 200 and body["account"]["name"] == OWNER[0], body
    status, _, body = on_b.call("POST", "/api/auth/signout", headers={"Cookie": cookie})
    assert status in (200, 204), body
    deadline = time.time() + 3
    while time.time() < deadline:
        status, _, body = on_a.call("GET", "/api/auth/session", headers={"Cookie": cookie})
        if status == 401 or (status == 200 and not body.get("account")):
            break
        time.sleep(0.1)
    else:
        pytest.fail(f"node A still accepts a session signed out on node B: {status} {body}")


def test_an_activity_started_on_one_node_is_listed_on_the_other(owners):
    on_a, on_b = owners
    status, _, created = on_a.call("POST", "/api/activities", {"type": "Delivery", "attributes": {"title": "Parcel"},
                                                               "contentState": {"stops": 3}})
    assert status == 201, created
    activity_id = created["id"]
    deadline = time.time() + 10
    while time.time() < deadline:
        status, _, listing = on_b.call("GET", "/api/activities")
        assert status == 200, listing
        if activity_id in json.dumps(listing):
            break
        time.sleep(0.2)
    else:
        pytest.fail(f"node B never listed the activity: {listing}")
    status, _, single = on_b.call("GET", f"/api/activities/{activity_id}")
    assert status == 200 and "Parcel" in json.dumps(single), single


def remote(base_client, config):
    _, _, overview = base_client.call("GET", "/api/devices")
    return RemoteProcess([marquee_binary(), "remote", "--connect", f"127.0.0.1:{overview['port']}",
                          "--config", str(config), "--name", "Cluster remote"])


def test_a_pairing_made_on_one_node_is_trusted_on_the_other(nodes, owners, tmp_path):
    on_a, on_b = owners
    _, _, overview_a = on_a.call("GET", "/api/devices")
    _, _, overview_b = on_b.call("GET", "/api/devices")
    assert overview_a["fingerprint"] == overview_b["fingerprint"], "the nodes present different identities"

    process = remote(on_a, tmp_path / "remote")
    code = process.expect(r"both screens show (\d{3}) (\d{3})")
    _, _, overview_a = on_a.call("GET", "/api/devices")
    pending = [p for p in overview_a["pending"] if p["name"] == "Cluster remote"]
    assert len(pending) == 1 and pending[0]["code"] == code.group(1) + code.group(2), overview_a
    status, _, body = on_a.call("POST", f"/api/devices/pairings/{pending[0]['id']}", {"approved": True})
    assert status == 204, body
    process.say("y")
    process.expect(r"Paired with")
    process.say("quit")
    assert process.finish() == 0

    # Node B lists the device and lets it in without a code or an approval.
    _, _, overview_b = on_b.call("GET", "/api/devices")
    assert [d["name"] for d in overview_b["paired"]] == ["Cluster remote"], overview_b
    again = remote(on_b, tmp_path / "remote")
    again.expect(r"Connected to")
    again.say("quit")
    assert again.finish() == 0
    assert on_b.call("GET", "/api/devices")[2]["pending"] == []

    # Revoked through B: node A no longer lets it in without pairing again.
    device_id = overview_b["paired"][0]["id"]
    status, _, _ = on_b.call("DELETE", f"/api/devices/{device_id}")
    assert status == 204
    assert on_a.call("GET", "/api/devices")[2]["paired"] == []
    revoked = remote(on_a, tmp_path / "remote")
    revoked.expect(r"both screens show")
    revoked.say("n")
    assert revoked.finish() == 1


def test_a_download_started_on_one_node_is_listed_and_controlled_on_the_other(owners):
    """The download runs on node A (its playlist server holds every request open, so it stays
    under way); node B lists it, pauses and resumes it through A, and deletes it."""
    import socket
    import threading
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    held = []
    threading.Thread(target=lambda: [held.append(listener.accept()) for _ in iter(int, 1)], daemon=True).start()
    on_a, on_b = owners

    def state_on(client, download_id):
        status, _, listing = client.call("GET", "/api/downloads")
        assert status == 200, listing
        return next((d["state"] for d in listing["downloads"] if d["id"] == download_id), None)

    def wait_for(client, download_id, expected, what):
        deadline = time.time() + 15
        while time.time() < deadline:
            if state_on(client, download_id) == expected:
                return
            time.sleep(0.2)
        pytest.fail(f"{what}: {state_on(client, download_id)!r}, not {expected!r}")

    try:
        url = f"http://127.0.0.1:{listener.getsockname()[1]}/master.m3u8"
        status, _, created = on_a.call("POST", "/api/downloads", {"url": url, "title": "Held Stream"})
        assert status in (200, 201, 202), created
        download_id = created["id"]
        wait_for(on_b, download_id, "downloading", "node B does not list node A's download")
        status, _, paused = on_b.call("POST", f"/api/downloads/{download_id}/pause")
        assert status == 200 and paused["state"] == "paused", paused
        wait_for(on_a, download_id, "paused", "node A did not pause its download for node B")
        status, _, resumed = on_b.call("POST", f"/api/downloads/{download_id}/resume")
        assert status == 200 and resumed["state"] == "downloading", resumed
        status, _, body = on_b.call("DELETE", f"/api/downloads/{download_id}")
        assert status in (200, 204), body
        wait_for(on_a, download_id, None, "node A still lists the download deleted through node B")
        assert state_on(on_b, download_id) is None
    finally:
        listener.close()
        for connection, _ in held:
            connection.close()
