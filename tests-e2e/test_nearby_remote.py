"""`marquee remote` against the TV over loopback: pairing with the 6-digit code approved on both
sides, then playback intents reaching the TV's PlaybackSession and its renderer, now-playing
shown live, recognition without approval, revocation, and Tic-Tac-Toe to the end."""
import json
import time
import urllib.parse

import websocket

from conftest import marquee_binary
from nearby_support import RemoteProcess


def remote(server, config, *extra):
    _, overview = server.api("GET", "/api/devices")
    return RemoteProcess([marquee_binary(), "remote", "--connect", f"127.0.0.1:{overview['port']}",
                          "--config", str(config), "--name", "Test remote", *extra])


def pair(server, process):
    code = process.expect(r"both screens show (\d{3}) (\d{3})")
    digits = code.group(1) + code.group(2)
    # The TV lists the pairing once its side of the handshake has the code too, which on a
    # loaded machine can be a moment after the remote shows it.
    deadline = time.monotonic() + 15
    while True:
        _, overview = server.api("GET", "/api/devices")
        pending = [p for p in overview["pending"] if p["name"] == "Test remote"]
        if pending or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert len(pending) == 1, overview
    assert pending[0]["code"] == digits, "the TV shows another code than the remote"
    status, _ = server.api("POST", f"/api/devices/pairings/{pending[0]['id']}", {"approved": True})
    assert status == 204
    process.say("y")
    process.expect(r"Paired with")


def renderer_commands(ws, wanted, limit=40):
    """Reads renderer frames until a `commands` frame holding a `wanted` command; returns it."""
    for _ in range(limit):
        frame = json.loads(ws.recv())
        if frame["type"] == "commands":
            for command in frame["commands"]:
                if command["command"] == wanted:
                    return command
    raise AssertionError(f"the renderer got no {wanted} command")


def test_remote_pairs_then_controls_the_session_on_the_tv(server, tmp_path):
    asset = server.asset("Test Pattern Tour")
    status, session = server.api("POST", "/api/sessions", {"assetID": asset["id"], "language": "en", "speeds": [1, 1.5, 2]})
    assert status == 201
    ws_url = server.url.replace("http://", "ws://") + f"/api/sessions/{session['id']}/renderer"
    ws = websocket.create_connection(ws_url, origin=server.url, timeout=10)
    try:
        ws.send(json.dumps({"v": 1, "type": "report", "report": "ready", "duration": 60}))
        process = remote(server, tmp_path / "remote")
        pair(server, process)
        process.expect(r"Now playing: Test Pattern Tour — 0:00 / 1:00 · paused")

        process.say("play")
        process.expect(r"OK: play 1\.0×")
        assert renderer_commands(ws, "play")["rate"] == 1
        ws.send(json.dumps({"v": 1, "type": "report", "report": "playing"}))
        process.say("seek 0:30")
        process.expect(r"OK: seek 0:30")
        assert renderer_commands(ws, "seek")["time"] == 30
        ws.send(json.dumps({"v": 1, "type": "report", "report": "time", "time": 30}))
        process.say("-10")
        assert renderer_commands(ws, "seek")["time"] == 20
        ws.send(json.dumps({"v": 1, "type": "report", "report": "time", "time": 20.4}))
        process.expect(r"Now playing: Test Pattern Tour — 0:20 / 1:00 · playing")
        process.say("speed 1.5")
        assert renderer_commands(ws, "play")["rate"] == 1.5
        process.expect(r"· 1\.5×")
        process.say("speed 3")
        process.expect(r"Refused: speed-not-offered")
        # Volume is the session's too: the TV page gets one set-volume command, the remote shows the level.
        process.say("volume 40")
        command = renderer_commands(ws, "set-volume")
        assert command["volume"] == 0.4 and command["muted"] is False
        process.expect(r"· volume 40%")
        process.say("mute")
        command = renderer_commands(ws, "set-volume")
        assert command["volume"] == 0.4 and command["muted"] is True
        process.expect(r"· muted")
        process.say("volume 140")
        process.expect(r"volume needs a level from 0 to 100")
        # What the viewer does on the TV page itself reaches the remote.
        ws.send(json.dumps({"v": 1, "type": "report", "report": "volume", "volume": 0.8, "muted": False}))
        process.expect(r"· volume 80%")
        process.say("pause")
        renderer_commands(ws, "pause")
        process.say("quit")
        assert process.finish() == 0

        # The remote is recognised next time: no code, no approval.
        _, overview = server.api("GET", "/api/devices")
        paired = [d for d in overview["paired"] if d["name"] == "Test remote"]
        assert len(paired) == 1 and paired[0]["services"] == ["remote"]
        again = remote(server, tmp_path / "remote")
        again.expect(r"Connected to")
        again.say("toggle")
        again.expect(r"OK: play 1\.5×")
        assert renderer_commands(ws, "play")["rate"] == 1.5
        again.say("quit")
        assert again.finish() == 0
        assert server.api("GET", "/api/devices")[1]["pending"] == []

        # Revoked: the remote must pair again, and a "no" on the remote ends it.
        status, _ = server.api("DELETE", f"/api/devices/{paired[0]['id']}")
        assert status == 204
        revoked = remote(server, tmp_path / "remote")
        revoked.expect(r"both screens show")
        revoked.say("n")
        revoked.expect(r"Stopped: refused the other device: rejected")
        assert revoked.finish() == 1  # refused: the work ran and failed (docs/command-line.md)
        assert not [d for d in server.api("GET", "/api/devices")[1]["paired"] if d["name"] == "Test remote"]
    finally:
        ws.close()


def test_unknown_pairing_and_device_ids_get_a_clear_404(server):
    status, body = server.api("POST", "/api/devices/pairings/nope", {"approved": True})
    assert status == 404 and "No pairing nope" in body["error"]["message"]
    status, body = server.api("DELETE", "/api/devices/nope")
    assert status == 404 and "No paired device nope" in body["error"]["message"]


def test_tictactoe_from_the_command_line_to_the_end(server, tmp_path):
    process = remote(server, tmp_path / "game", "--game", "tictactoe")
    pair(server, process)
    process.expect(r"Pick x or o")
    process.say("x")
    process.expect(r"You are X; your move")
    # X takes a corner; the TV (O) answers in the centre; then X tries squares in this order
    # (taken ones are refused) until the game ends; the TV blocks every line X opens here.
    outcome = None
    for square in ["1", "9", "3", "7", "2", "4", "6", "8", "5"]:
        process.say(square)
        match = process.expect(r"(You win!|The TV wins\.|Draw\.|your move|Error: square)")
        if match.group(1) in ("You win!", "The TV wins.", "Draw."):
            outcome = match.group(1)
            break
    assert outcome in ("The TV wins.", "Draw."), "\n".join(process.seen)
    process.say("quit")
    assert process.finish() == 0
