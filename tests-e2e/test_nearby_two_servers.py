"""Two Marquee servers on loopback (issue 14, "Play on…" to another TV): the e2e server is TV A;
a second `marquee serve` with a data folder of its own (a copy of A's library, so the sample
clips are ready at once; its device identity is its own) is server B. B chooses A by its
address (`POST /api/devices/pairings`): both list the same six digits, each approves. Then, in
Chromium, B's player (at 12 s and 1.5×) hands the item to A with "Play on…", and A's screen (a
browser window on A marked as the TV's screen) opens the player there and plays it from that
time at that speed. Screenshots two-tvs-*.png in artifacts/e2e."""
import re
import shutil
import sqlite3
import subprocess
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import ARTIFACTS, Server, drain_console, marquee_binary
from player_page import PlayerPage

TOUR = "Test Pattern Tour"


def wait_until(condition, message, timeout=20):
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(message)


def start_second_server(first, data):
    """`marquee serve` on another port and data folder, its library copied from `first`."""
    data.mkdir()
    # SQLite's online backup: a consistent copy while the first server keeps writing.
    for name in ["library.sqlite"]:
        with sqlite3.connect(f"{first.data}/{name}") as source, sqlite3.connect(data / name) as copy:
            source.backup(copy)
    shutil.copytree(f"{first.data}/media", data / "media")
    process = subprocess.Popen([marquee_binary(), "serve", "--data", str(data), "--port", "0", "--nearby-port", "0",
                                "--device-name", "TV B"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    line = process.stdout.readline()
    match = re.search(r"(http://127\.0\.0\.1:\d+)/", line)
    assert match, f"the second marquee serve did not print its URL: {line!r}"
    second = Server(match.group(1), process, str(data))
    second.console = ARTIFACTS / "server-b-console.log"
    drain_console(process, second.console)
    wait_until(lambda: any(a["title"] == TOUR and a["status"] == "ready" for a in second.api("GET", "/api/assets")[1]["assets"]),
               "server B's library has no ready tour")
    return second


def test_play_on_hands_the_item_from_one_server_to_another_tv_at_its_time_and_speed(server, browser, tmp_path):
    tv_a = server
    tv_b = start_second_server(tv_a, tmp_path / "tv-b")
    tv = browser()
    laptop = browser()
    trusted_on_a = None
    try:
        a_port = tv_a.api("GET", "/api/devices")[1]["port"]
        b_port = tv_b.api("GET", "/api/devices")[1]["port"]
        assert a_port and b_port and a_port != b_port

        # B chooses A by its address; both list the pairing with the same six digits, each approves.
        status, started = tv_b.api("POST", "/api/devices/pairings", {"host": "127.0.0.1", "port": a_port, "role": "tv"})
        assert status == 202, started
        mine = wait_until(lambda: next((p for p in tv_b.api("GET", "/api/devices")[1]["pending"] if p["direction"] == "outgoing"), None),
                          "B does not list its pairing with A")
        theirs = wait_until(lambda: next((p for p in tv_a.api("GET", "/api/devices")[1]["pending"] if p["name"] == "TV B"), None),
                            "A does not list B asking to pair")
        assert mine["code"] == theirs["code"] and len(mine["code"]) == 6
        assert tv_a.api("POST", f"/api/devices/pairings/{theirs['id']}", {"approved": True})[0] == 204
        assert tv_b.api("POST", f"/api/devices/pairings/{mine['id']}", {"approved": True})[0] == 204
        wait_until(lambda: any(o["id"] == started["id"] and o["state"] == "paired" for o in tv_b.api("GET", "/api/devices")[1]["outgoing"]),
                   "B's pairing with A did not finish")
        # Each side stores the trust when its own half of the handshake completes; A may finish after B.
        trusted_on_a = wait_until(lambda: next((d["id"] for d in tv_a.api("GET", "/api/devices")[1]["paired"] if d["name"] == "TV B"), None),
                                  "A does not list B as paired")
        target = next(t for t in tv_b.api("GET", "/api/devices/tvs")[1]["tvs"] if t["port"] == a_port)

        # A's browser is its screen; B's player is at 12 s and 1.5×.
        tv.get(tv_a.url + "/devices?screen=1")
        WebDriverWait(tv, 15).until(lambda d: d.execute_script("return document.documentElement.dataset.screen") == "listening")
        page = PlayerPage(laptop, tv_b, TOUR, "?t=12&autoplay=0")
        page.wait_for(lambda: abs(page.current_time - 12) < 0.6, "B's player did not open at 12 s")
        session_id = page.js("return window.marquee.session.id")
        assert tv_b.api("POST", f"/api/sessions/{session_id}/intents", {"intent": "select-speed", "rate": 1.5})[0] == 200
        page.wait_for(lambda: page.js("return window.marquee.session.selectedSpeed.rate") == 1.5, "B's speed did not change")

        # Play on… → A: the menu lists A next to B's own screen ("Play on…" is added to the
        # controls by its own module: wait for it).
        WebDriverWait(laptop, 10).until(lambda d: d.find_elements(By.ID, "play-on-button"))[0].click()
        choice = WebDriverWait(laptop, 10).until(
            lambda d: d.find_element(By.CSS_SELECTOR, f"#play-on-menu [data-device-id='{target['deviceID']}']"))
        laptop.save_screenshot(str(ARTIFACTS / "two-tvs-menu.png"))
        choice.click()

        # A's screen opens the player at that moment and plays at that speed; B pauses and says where it plays.
        WebDriverWait(tv, 20).until(lambda d: "/watch/" in d.current_url)
        tv_page = PlayerPage.__new__(PlayerPage)
        tv_page.driver = tv
        tv_page.wait_for(lambda: tv_page.js("return window.marquee?.session?.metadata?.title") == TOUR, "A's screen did not open the tour")
        tv_page.wait_for(lambda: tv_page.video("paused") is False and tv_page.current_time >= 11.5, "A did not play from 12 s")
        assert tv_page.current_time < 20
        tv_page.wait_for(lambda: tv_page.js("return window.marquee.session.selectedSpeed.rate") == 1.5
                         and tv_page.video("playbackRate") == 1.5, "A did not play at 1.5×")
        page.wait_for(lambda: page.video("paused") is True, "B kept playing after handing over")
        WebDriverWait(laptop, 10).until(lambda d: d.find_element(By.ID, "play-on-status").text == f"Playing on {target['name']}.")
        tv.save_screenshot(str(ARTIFACTS / "two-tvs-a-playing.png"))
        laptop.save_screenshot(str(ARTIFACTS / "two-tvs-b-handed-over.png"))
    finally:
        try:
            tv.execute_script("localStorage.removeItem('marquee.screen')")
        except Exception:
            pass
        if trusted_on_a:
            tv_a.api("DELETE", f"/api/devices/{trusted_on_a}")
        tv_b.process.terminate()
        try:
            tv_b.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            tv_b.process.kill()
