"""The TV starts the pairing (issue 14's picker): on the TV's /devices page in Chromium, the
person chooses a `marquee remote --listen` by its address (loopback: no multicast anywhere);
both show the same six digits, each side approves, and the remote then controls the TV over
the link the TV started. Revoking it on the TV ends that link."""
import json
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import ARTIFACTS, marquee_binary
from nearby_support import RemoteProcess
from test_nearby_remote import renderer_commands

import websocket


def test_the_tv_chooses_a_listening_remote_both_approve_and_the_remote_controls_it(server, driver, tmp_path):
    asset = server.asset("Test Pattern Tour")
    status, session = server.api("POST", "/api/sessions", {"assetID": asset["id"], "language": "en", "speeds": [1, 1.5, 2]})
    assert status == 201
    ws = websocket.create_connection(server.url.replace("http://", "ws://") + f"/api/sessions/{session['id']}/renderer",
                                     origin=server.url, timeout=10)
    remote = RemoteProcess([marquee_binary(), "remote", "--listen", "--listen-host", "127.0.0.1", "--config", str(tmp_path / "remote"),
                            "--name", "Chosen remote"])
    paired_id = None
    try:
        ws.send(json.dumps({"v": 1, "type": "report", "report": "ready", "duration": 60}))
        port = remote.expect(r"Waiting for a TV to choose .* on port (\d+).*not advertised").group(1)

        driver.get(server.url + "/devices")
        wait = WebDriverWait(driver, 20, poll_frequency=0.1)
        wait.until(lambda d: d.find_element(By.ID, "choose-address").is_displayed())
        driver.find_element(By.ID, "choose-address").send_keys(f"127.0.0.1:{port}")
        driver.find_element(By.CSS_SELECTOR, "#choose-role option[value=remote]").click()
        driver.find_element(By.ID, "choose-button").click()

        # Both show the same code: the remote on its terminal, the TV under "Asking to pair".
        code = remote.expect(r"both screens show (\d{3}) (\d{3})")
        digits = code.group(1) + " " + code.group(2)
        row = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "#pending li[data-direction=outgoing]"))
        assert row.find_element(By.CLASS_NAME, "pairing-code").text == digits
        assert "Chosen remote" in row.text
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(ARTIFACTS / "nearby-choose-code.png"))
        row.find_element(By.CSS_SELECTOR, "button.approve").click()
        # Approved on the TV only: nothing is paired until the remote's person says yes.
        time.sleep(0.5)
        assert not [d for d in server.api("GET", "/api/devices")[1]["paired"] if d["name"] == "Chosen remote"]
        remote.say("y")
        remote.expect(r"Paired with")
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#outgoing li[data-state=paired]"))
        wait.until(lambda d: "Chosen remote" in d.find_element(By.ID, "paired").text)
        driver.save_screenshot(str(ARTIFACTS / "nearby-choose-paired.png"))

        # The remote controls the TV over the TV's link, with now playing shown live.
        remote.expect(r"Now playing: Test Pattern Tour — 0:00 / 1:00 · paused")
        remote.say("seek 0:30")
        remote.expect(r"OK: seek 0:30")
        assert renderer_commands(ws, "seek")["time"] == 30
        remote.say("play")
        remote.expect(r"OK: play 1\.0×")

        # Revoked on the TV: the link the TV started ends.
        paired_id = next(d["id"] for d in server.api("GET", "/api/devices")[1]["paired"] if d["name"] == "Chosen remote")
        assert server.api("DELETE", f"/api/devices/{paired_id}")[0] == 204
        paired_id = None
        remote.expect(r"Disconnected")
        remote.say("pause")
        remote.expect(r"No TV is connected")
        remote.say("quit")
        assert remote.finish() == 0
    finally:
        ws.close()
        if paired_id:
            server.api("DELETE", f"/api/devices/{paired_id}")
        if remote.process.poll() is None:
            remote.process.kill()


def test_answering_a_pairing_that_ended_says_how_it_ended(server):
    """A pairing the TV started stays listed for two minutes with how it ended; answering it
    then is a 409 saying so (it exists, in a state that takes no answer), not a 404 that says
    it never was (schemathesis's ensure_resource_availability followed the link and met the 404)."""
    status, started = server.api("POST", "/api/devices/pairings", {"host": "127.0.0.1", "port": 1, "role": "tv"})
    assert status == 202, started
    deadline = time.time() + 20
    while time.time() < deadline:
        _, overview = server.api("GET", "/api/devices")
        mine = [p for p in overview.get("outgoing", []) if p["id"] == started["id"]]
        if mine and mine[0]["state"] == "failed":
            break
        time.sleep(0.2)
    else:
        raise AssertionError(f"the pairing to a closed port did not fail: {mine}")
    status, answer = server.api("POST", f"/api/devices/pairings/{started['id']}", {"approved": True})
    assert status == 409, answer
    assert answer["error"]["code"] == "pairing-not-waiting"
    assert "has ended: Could not connect to the device" in answer["error"]["message"], answer
    status, answer = server.api("POST", "/api/devices/pairings/00000000-0000-0000-0000-000000000000", {"approved": True})
    assert status == 404, answer
