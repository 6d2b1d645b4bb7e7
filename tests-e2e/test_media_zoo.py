"""Every kind of file a person has (tests-e2e/media_zoo.py) goes in through the library's API —
server paths through `POST /api/assets`, some through resumable uploads — and either plays with
the right duration, upright picture size and tracks, or fails with a plain reason; no file
crashes or hangs the server. The held-out part of the zoo runs last.

A file that makes the media converter crash is simulated with the child's failpoint
(`MARQUEE_MEDIA_WORK_CRASH_ON`): the job fails as `packagerCrashed`, the other files are
prepared, and the server keeps serving."""
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
import urllib.request

import pytest

from conftest import ARTIFACTS, drain_console, marquee_binary
from media_zoo import HELD_OUT, ZOO, build, default_folder

CRASH_MARK = "crash-me"
SPECIMENS = {s.name: s for s in ZOO}
TUNED = [s.name for s in ZOO if s.name not in HELD_OUT]
HELD = [s.name for s in ZOO if s.name in HELD_OUT]
# These go in as uploads (what the library page does), the rest as server paths.
UPLOADED = {"portrait-720x1280.mp4", "vp9-opus.webm", "two-languages-subs.mkv", "song-with-cover.mp3", "zero-length.mp4"}


class ZooServer:
    def __init__(self, url, process, data):
        self.url = url
        self.process = process
        self.data = data
        self.ids = {}

    def call(self, method, path, body=None, raw=None, headers=None):
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        request = urllib.request.Request(self.url + path, method=method, data=data,
                                         headers=headers or {"content-type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                text = response.read()
                kind = response.headers.get("content-type", "")
                return response.status, (json.loads(text) if text and "json" in kind else text)
        except urllib.error.HTTPError as error:
            text = error.read()
            return error.code, (json.loads(text) if text else None)

    def add(self, paths):
        status, body = self.call("POST", "/api/assets", {"paths": [str(p) for p in paths]})
        assert status == 202, body
        for path, asset in zip(paths, body["assets"]):
            self.ids[os.path.basename(path)] = asset["id"]

    def upload(self, path):
        size = os.path.getsize(path)
        status, created = self.call("POST", "/api/uploads", {"fileName": os.path.basename(path), "length": size})
        assert status == 201, created
        with open(path, "rb") as file:
            data = file.read()
        if data:
            status, _ = self.call("PUT", f"/api/uploads/{created['id']}", raw=data,
                                  headers={"content-type": "application/octet-stream",
                                           "content-range": f"bytes 0-{size - 1}/{size}"})
            assert status in (200, 204), status
        status, asset = self.call("POST", f"/api/uploads/{created['id']}/complete")
        if status == 400:
            # Refused at once (an empty file may be), with a sentence.
            assert size == 0 and asset["error"]["message"], asset
            return None
        assert status in (200, 201, 202), asset
        self.ids[os.path.basename(path)] = asset["id"]
        return asset

    def settle(self, names, timeout):
        """Waits until every named asset is ready or failed; returns name -> asset."""
        deadline = time.time() + timeout
        settled = {}
        while time.time() < deadline:
            assert self.process.poll() is None, "the server died"
            for name in names:
                if name in settled or name not in self.ids:
                    continue
                status, asset = self.call("GET", f"/api/assets/{self.ids[name]}")
                assert status == 200, asset
                if asset["status"] in ("ready", "failed"):
                    settled[name] = asset
            if len(settled) == len([n for n in names if n in self.ids]):
                return settled
            time.sleep(0.5)
        pending = sorted(set(n for n in names if n in self.ids) - set(settled))
        pytest.fail(f"not settled in {timeout} s: {pending}")


@pytest.fixture(scope="module")
def zoo():
    return build(default_folder())


@pytest.fixture(scope="module")
def zoo_server():
    data = tempfile.mkdtemp(prefix="marquee-zoo-")
    environment = dict(os.environ, **{"MARQUEE_MEDIA_WORK_CRASH_ON": CRASH_MARK})
    process = subprocess.Popen([marquee_binary(), "serve", "--data", data, "--port", "0", "--no-samples"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=environment)
    line = process.stdout.readline()
    match = re.search(r"(http://127\.0\.0\.1:\d+)/", line)
    assert match, f"marquee serve did not print its URL: {line!r}"
    drain_console(process, ARTIFACTS / "zoo-server-console.log")
    yield ZooServer(match.group(1), process, data)
    process.terminate()
    process.wait(timeout=20)
    shutil.rmtree(data, ignore_errors=True)


def probe_served(server, asset_id):
    """What ffprobe, a client that is not ours, reads from the served HLS: duration and streams."""
    url = f"{server.url}/media/{asset_id}/master.m3u8"
    result = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration:stream=codec_type,width,height",
                             "-of", "json", url], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-600:]
    return json.loads(result.stdout)


def master_playlist(server, asset_id):
    status, text = server.call("GET", f"/media/{asset_id}/master.m3u8")
    assert status == 200
    return text.decode() if isinstance(text, bytes) else text


def check(server, name, asset):
    expect = SPECIMENS[name].expect
    if expect.fails:
        assert asset["status"] == "failed", f"{name} should be refused: {asset}"
        job = asset.get("job") or {}
        assert job.get("reason") in ("notMedia", "unreadable"), f"{name}: {job}"
        assert job.get("message") and "/" not in job["message"], f"{name}: a plain sentence without paths: {job}"
        return
    assert asset["status"] == "ready", f"{name} did not become playable: {asset.get('job')}"
    # A truncated file plays what it holds, and says so: less than its header promised.
    duration = asset["duration"] if expect.partial else expect.duration
    if expect.partial:
        assert 0.5 < duration < expect.duration - 0.5, f"{name}: duration {duration} of a file cut short"
    assert abs(asset["duration"] - duration) <= 0.5, f"{name}: duration {asset['duration']} vs {duration}"
    if expect.width:
        # Upright, with the display aspect (encoders round odd sizes to even: a pixel or two).
        assert abs(asset["width"] - expect.width) <= 2 and abs(asset["height"] - expect.height) <= 2, \
            f"{name}: shown {asset['width']}x{asset['height']}, expected {expect.width}x{expect.height}"
        assert abs(asset["width"] / asset["height"] - expect.width / expect.height) < 0.01, name
        assert asset["portrait"] == (expect.height > expect.width), name
    master = master_playlist(server, asset["id"])
    audio = len(re.findall(r"#EXT-X-MEDIA:TYPE=AUDIO", master))
    subtitles = len(re.findall(r"#EXT-X-MEDIA:TYPE=SUBTITLES", master))
    if expect.width:
        # Renditions are separate when the file has audio (muxed-only variants have none).
        assert audio == expect.audio, f"{name}: {audio} audio renditions, expected {expect.audio}\n{master}"
    else:
        assert audio in (0, expect.audio), f"{name}: {audio} audio renditions\n{master}"
    assert subtitles == expect.subtitles, f"{name}: {subtitles} subtitle renditions, expected {expect.subtitles}"
    if expect.width:
        # Every variant keeps the picture's shape (a portrait file is not served landscape).
        for w, h in re.findall(r"RESOLUTION=(\d+)x(\d+)", master):
            assert abs(int(w) / int(h) - expect.width / expect.height) < 0.02, f"{name}: variant {w}x{h}"
    probed = probe_served(server, asset["id"])
    served = float(probed["format"]["duration"])
    assert abs(served - duration) <= 0.5, f"{name}: ffprobe reads {served} s from the served HLS"
    kinds = [s["codec_type"] for s in probed["streams"]]
    assert ("video" in kinds) == bool(expect.width), f"{name}: {kinds}"
    assert ("audio" in kinds) == bool(expect.audio), f"{name}: {kinds}"


def add_all(server, zoo, names):
    paths = [zoo[n] for n in names if n not in UPLOADED]
    server.add(paths)
    for name in names:
        if name in UPLOADED:
            server.upload(zoo[name])


@pytest.fixture(scope="module")
def tuned_results(zoo_server, zoo):
    add_all(zoo_server, zoo, TUNED)
    return zoo_server.settle(TUNED, timeout=1500)


@pytest.mark.parametrize("name", TUNED)
def test_every_file_plays_or_says_why(zoo_server, tuned_results, name):
    if name not in zoo_server.ids:
        assert SPECIMENS[name].expect.fails  # refused at upload, with a sentence
        return
    check(zoo_server, name, tuned_results[name])


# Played to the end in the web player (headless Chromium, Media Source Extensions), as a
# person would watch them: phone video, a turned picture, non-square pixels, 10-bit, HEVC,
# VP9, a late picture, a short picture and surround sound.
PLAYED = ["portrait-720x1280.mp4", "rotated-270.mp4", "anamorphic-720x576.mp4", "h264-422.mp4", "hevc-hdr10.mp4",
          "vp9-opus.webm", "late-video.mkv", "audio-longer.mp4", "surround-5.1.mp4", "two-languages-subs.mkv",
          "flac-96khz.flac"]


@pytest.fixture(scope="module")
def browser():
    from conftest import make_driver
    driver = make_driver()
    yield driver
    driver.quit()


@pytest.mark.parametrize("name", PLAYED)
def test_the_player_plays_it_to_the_end_upright(zoo_server, tuned_results, browser, name):
    expect = SPECIMENS[name].expect
    asset_id = zoo_server.ids[name]
    browser.get(f"{zoo_server.url}/watch/{asset_id}")
    deadline = time.time() + expect.duration * 4 + 30
    state = None
    while time.time() < deadline:
        state = browser.execute_script(
            "const v = document.getElementById('video'); const p = document.getElementById('player');"
            "return {status: p?.dataset.status, ended: v?.ended, time: v?.currentTime, duration: v?.duration,"
            " width: v?.videoWidth, height: v?.videoHeight, error: v?.error ? v.error.message || String(v.error.code) : null};")
        assert state["error"] is None, f"{name}: the player's media element failed: {state}"
        if state["status"] == "ended":
            break
        time.sleep(0.2)
    else:
        pytest.fail(f"{name} did not play to its end: {state}")
    assert abs(state["time"] - expect.duration) <= 0.6, f"{name}: ended at {state['time']} of {expect.duration}"
    if expect.width:
        # What the page shows is upright and keeps the display aspect (square pixels served).
        assert state["width"] and abs(state["width"] / state["height"] - expect.width / expect.height) < 0.02, \
            f"{name}: the picture is {state['width']}x{state['height']}, expected the shape of {expect.width}x{expect.height}"


def test_a_file_that_crashes_the_converter_fails_alone_and_the_server_keeps_serving(zoo_server, zoo, tmp_path):
    crashing = tmp_path / f"{CRASH_MARK}.mp4"
    shutil.copyfile(zoo["b-pyramid.mp4"], crashing)
    fine = tmp_path / "after-the-crash.mp4"
    shutil.copyfile(zoo["b-pyramid.mp4"], fine)
    zoo_server.add([crashing, fine])
    settled = zoo_server.settle([crashing.name, fine.name], timeout=300)
    failed = settled[crashing.name]
    assert failed["status"] == "failed", failed
    assert failed["job"]["reason"] == "packagerCrashed", failed["job"]
    assert "crash" in failed["job"]["message"], failed["job"]
    assert settled[fine.name]["status"] == "ready", settled[fine.name]
    assert zoo_server.process.poll() is None
    status, listing = zoo_server.call("GET", "/api/assets")
    assert status == 200 and listing["assets"]
    # A retry starts afresh: it is tried (and crashes) again, rather than failing at once.
    job_id = failed["job"]["id"]
    status, _ = zoo_server.call("POST", f"/api/jobs/{job_id}/retry")
    assert status == 202
    status, again = zoo_server.call("GET", f"/api/assets/{failed['id']}")
    deadline = time.time() + 120
    seen_running = False
    while time.time() < deadline:
        status, again = zoo_server.call("GET", f"/api/assets/{failed['id']}")
        if again["status"] in ("pending", "processing"):
            seen_running = True
        if again["status"] == "failed" and again["job"]["reason"] == "packagerCrashed" and seen_running:
            break
        time.sleep(0.2)
    assert again["status"] == "failed" and again["job"]["reason"] == "packagerCrashed", again


# The held-out part: run last, as a new user would meet it.
@pytest.fixture(scope="module")
def held_out_results(zoo_server, zoo, tuned_results):
    add_all(zoo_server, zoo, HELD)
    return zoo_server.settle(HELD, timeout=900)


@pytest.mark.parametrize("name", HELD)
def test_held_out_file_plays_or_says_why(zoo_server, held_out_results, name):
    if name not in zoo_server.ids:
        assert SPECIMENS[name].expect.fails
        return
    check(zoo_server, name, held_out_results[name])
