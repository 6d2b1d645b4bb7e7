"""A full disk is an answer a client can act on (issue 24): an upload that fills the data
folder's file system gets `507` with `code: "disk-full"` and a plain sentence (no Cocoa or
SQLite text, no server paths), and the server goes on answering. The data folder is a 4 MiB
tmpfs mounted in a mount namespace of the server's own, so nothing else fills up."""
import json
import os
import re
import shutil
import subprocess
import urllib.error
import urllib.request

import pytest

from conftest import ARTIFACTS, drain_console, marquee_binary


def call(base, method, path, body=None, headers=None):
    request = urllib.request.Request(base + path, method=method, data=body, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            status, text = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, text = error.code, error.read()
    try:
        return status, json.loads(text or b"null")
    except ValueError:
        return status, text


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("unshare"), reason="needs root and unshare to mount a small tmpfs")
def test_an_upload_that_fills_the_disk_is_a_507_with_a_sentence(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    script = f'mount -t tmpfs -o size=4m tmpfs "{data}" && exec "$0" serve --data "{data}" --port 0 --no-samples'
    process = subprocess.Popen(["unshare", "--mount", "--propagation", "private", "sh", "-c", script, str(marquee_binary())],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        line = process.stdout.readline()
        match = re.search(r"(http://127\.0\.0\.1:\d+)/", line)
        assert match, line
        drain_console(process, ARTIFACTS / "disk-full-console.log")
        base = match.group(1)
        # No length given: nothing can check the space before the bytes arrive.
        status, upload = call(base, "POST", "/api/uploads", json.dumps({"fileName": "big.mp4"}).encode(),
                              {"content-type": "application/json"})
        assert status == 201, upload
        body = os.urandom(8 << 20)
        status, answer = call(base, "PUT", f"/api/uploads/{upload['id']}", body,
                              {"content-type": "application/octet-stream", "content-range": f"bytes 0-{len(body) - 1}/*"})
        assert status == 507, answer
        assert answer["error"]["code"] == "disk-full", answer
        assert "disk is full" in answer["error"]["message"], answer
        assert str(data) not in json.dumps(answer) and "Cocoa" not in json.dumps(answer), answer
        # Nothing already stored is lost, and the server still answers.
        status, health = call(base, "GET", "/api/health")
        assert status == 200
        status, upload_now = call(base, "GET", f"/api/uploads/{upload['id']}")
        assert status == 200 and upload_now["offset"] <= len(body), upload_now
    finally:
        process.terminate()
        process.wait(timeout=10)
