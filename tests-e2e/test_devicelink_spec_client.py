"""A device-link client written from docs/device-link-protocol.md alone (devicelink_spec_client.py,
Python + `cryptography`) pairs with a real `marquee serve`, sends an intent over the encrypted
link and reads the answer; then connects again as a paired device (mode `authenticate`, no code).
Issue 26, item 12."""
import json
import re
import subprocess
import time
import urllib.request

from conftest import marquee_binary
from devicelink_spec_client import INTENT, INTENT_RESULT, Connection, Identity, Refused, handshake


def api(base, method, path, body=None):
    request = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode(),
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        text = response.read()
        return json.loads(text) if text else None


def test_a_client_written_from_the_specification_pairs_and_sends_an_intent(tmp_path):
    process = subprocess.Popen([marquee_binary(), "serve", "--data", str(tmp_path / "data"), "--port", "0", "--nearby-port", "0",
                                "--no-samples", "--no-worker", "--device-name", "Spec TV"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        match = re.search(r"(http://127\.0\.0\.1:\d+)/", process.stdout.readline())
        assert match, "marquee serve did not say where it listens"
        base = match.group(1)
        port = api(base, "GET", "/api/devices")["port"]
        assert port

        def approve_on_the_tv(code):
            # The person at the TV sees the same code in the pending pairing and approves it.
            deadline = time.time() + 20
            while time.time() < deadline:
                pending = [p for p in api(base, "GET", "/api/devices")["pending"] if p["code"] == code]
                if pending:
                    api(base, "POST", f"/api/devices/pairings/{pending[0]['id']}", {"approved": True})
                    return True
                time.sleep(0.1)
            raise AssertionError(f"the TV shows no pending pairing with the code {code}")

        phone = Identity("Spec client")
        link, tv_key = handshake(Connection("127.0.0.1", port), phone, approve=approve_on_the_tv)
        # The TV lists the new device once its side has finished too.
        deadline = time.time() + 20
        while "Spec client" not in json.dumps(api(base, "GET", "/api/devices")["paired"]) and time.time() < deadline:
            time.sleep(0.1)
        assert "Spec client" in json.dumps(api(base, "GET", "/api/devices")["paired"])
        link.send(INTENT, {"v": 1, "type": "intent", "id": 7, "intent": "play"})
        answer = link.receive_type(INTENT_RESULT)
        assert answer["type"] == "error" and answer["replyTo"] == 7 and answer["message"] == "Nothing is playing on the TV", answer
        link.goodbye()

        # Paired now: the next connection authenticates with signatures, no code.
        def never(code):
            raise AssertionError("a paired device was asked for a code")

        again, _ = handshake(Connection("127.0.0.1", port), phone, purpose="connect", paired_key=tv_key, approve=never)
        again.send(INTENT, {"v": 1, "type": "intent", "id": 8, "intent": "pause"})
        answer = again.receive_type(INTENT_RESULT)
        assert answer["replyTo"] == 8, answer
        again.goodbye()

        # A stranger asking only to connect is refused, as the document says.
        try:
            handshake(Connection("127.0.0.1", port), Identity("Stranger"), purpose="connect", approve=never)
            raise AssertionError("a stranger connected")
        except Refused as refusal:
            assert refusal.args[0]["reason"] == "not-paired"
    finally:
        process.terminate()
        process.wait(timeout=30)
