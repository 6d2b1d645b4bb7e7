"""The web remote (issue 14) in two Chromium windows against the e2e server: a TV playing a
video in the player and a phone-sized page at /remote. The phone speaks the device-link
protocol in JavaScript (WebCrypto X25519/Ed25519/HKDF, the hand-written ChaCha20-Poly1305):
it pairs by code with approval on both sides, then its buttons change the TV's playback; a
tampered frame closes the link without reaching the TV; a revoked phone cannot send commands.
Screenshots go to artifacts/e2e."""
import shutil
import subprocess
import time

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import ARTIFACTS
from player_page import PlayerPage

TOUR = "Test Pattern Tour"


def visible(driver, element_id):
    return driver.find_element(By.ID, element_id).is_displayed()


def pending_for(server, code):
    return next((p for p in server.api("GET", "/api/devices")[1]["pending"] if p["code"] == code), None)


def pair_phone(server, phone, wait):
    """Opens /remote, asks to pair, checks the TV lists the same code, approves on both sides."""
    phone.get(server.url + "/remote")
    wait.until(lambda d: visible(d, "pair"))
    phone.find_element(By.ID, "pair").click()
    wait.until(lambda d: visible(d, "code") and len(d.find_element(By.ID, "code").text.replace(" ", "")) == 6)
    code = phone.find_element(By.ID, "code").text.replace(" ", "")
    # The TV lists the phone with the very same digits (what its /devices page shows).
    pending = None
    deadline = time.time() + 10
    while pending is None and time.time() < deadline:
        pending = pending_for(server, code)
        time.sleep(0.1)
    assert pending, f"the TV does not list a pairing with code {code}"
    assert pending["platform"] == "web" and pending["service"] == "remote"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    phone.save_screenshot(str(ARTIFACTS / "web-remote-code.png"))
    phone.find_element(By.ID, "code-approve").click()
    # Approved on the phone only: not connected until the TV's person approves too.
    time.sleep(0.5)
    assert not visible(phone, "controls-panel")
    status, _ = server.api("POST", f"/api/devices/pairings/{pending['id']}", {"approved": True})
    assert status == 204
    wait.until(lambda d: visible(d, "controls-panel"))
    return pending


def test_a_web_remote_pairs_by_code_and_controls_the_tv(server, browser):
    _, settings = server.api("GET", "/api/settings/player")
    status, body = server.api("PUT", "/api/settings/player", {"skipInterval": 7})
    assert status == 200, body
    tv = browser()
    phone = browser(width=390, height=844)
    paired_id = None
    try:
        page = PlayerPage(tv, server, TOUR, "?autoplay=0")
        wait = WebDriverWait(phone, 20, poll_frequency=0.1)
        pending = pair_phone(server, phone, wait)
        paired_id = next(d["id"] for d in server.api("GET", "/api/devices")[1]["paired"] if d["fingerprint"] == pending["fingerprint"])

        # Now playing, with the session's skip interval (7 s, not a hard-coded 10).
        wait.until(lambda d: d.find_element(By.ID, "now-title").text == TOUR)
        assert phone.find_element(By.ID, "skip-forward").text == "+7"
        assert phone.find_element(By.ID, "skip-forward").get_attribute("aria-label") == "Forward 7 seconds"

        # Play, then pause, from the phone: the TV's video follows.
        assert page.video("paused") is True
        phone.find_element(By.ID, "play-pause").click()
        page.wait_for(lambda: page.video("paused") is False, "the TV did not start playing")
        wait.until(lambda d: d.find_element(By.ID, "play-pause").get_attribute("aria-label") == "Pause")
        phone.find_element(By.ID, "play-pause").click()
        page.wait_for(lambda: page.video("paused") is True, "the TV did not pause")

        # Seek and skip.
        phone.execute_script("const s = document.getElementById('seek'); s.value = 20; s.dispatchEvent(new Event('change'));")
        page.wait_until_seeked(20)
        wait.until(lambda d: d.find_element(By.ID, "position").text == "0:20")
        phone.find_element(By.ID, "skip-forward").click()
        page.wait_until_seeked(27)
        phone.find_element(By.ID, "skip-back").click()
        page.wait_until_seeked(20)
        phone.save_screenshot(str(ARTIFACTS / "web-remote-controls.png"))

        # Speed, from the session's list.
        assert visible(phone, "speed-row")
        offered = phone.execute_script("return [...document.getElementById('speed').options].map(o => Number(o.value))")
        assert offered == [s["rate"] for s in page.js("return window.marquee.session.speeds")]
        faster = max(offered)
        assert faster > 1
        phone.execute_script("const s = document.getElementById('speed'); s.value = arguments[0]; s.dispatchEvent(new Event('change'));",
                             str(faster))
        page.wait_for(lambda: page.js("return window.marquee.session.selectedSpeed.rate") == faster, "the TV's speed did not change")
        phone.find_element(By.ID, "play-pause").click()
        page.wait_for(lambda: page.video("playbackRate") == faster and not page.video("paused"), "the TV did not play at the new speed")
        phone.find_element(By.ID, "play-pause").click()
        page.wait_for(lambda: page.video("paused") is True, "the TV did not pause")

        # A tampered frame: a sealed "play" with one ciphertext bit flipped. The TV closes the link
        # and does not play; the phone reconnects as a paired device without asking anyone.
        first_link = phone.execute_script("""
            const link = window.marqueeRemote.link;
            const bytes = link.outbound.seal(0x100, new TextEncoder().encode(JSON.stringify({v: 1, type: 'intent', id: 99, intent: 'play'})));
            bytes[12] ^= 0x40;
            window.firstLink = link;
            link.sendRaw(bytes);
            return true;""")
        assert first_link
        wait.until(lambda d: d.execute_script("return window.firstLink.closed") is not None)
        assert page.video("paused") is True, "a tampered frame reached the TV"
        wait.until(lambda d: d.execute_script("return window.marqueeRemote.link !== window.firstLink && window.marqueeRemote.link.isOpen"))
        assert not pending_for(server, pending["code"]), "a reconnection of a paired phone must not ask for approval"
        phone.find_element(By.ID, "play-pause").click()
        page.wait_for(lambda: page.video("paused") is False, "the reconnected phone could not play")
        phone.find_element(By.ID, "play-pause").click()
        page.wait_for(lambda: page.video("paused") is True, "the reconnected phone could not pause")

        # Revoked on the TV: the link closes, the phone says so, and it cannot send commands.
        assert server.api("DELETE", f"/api/devices/{paired_id}")[0] == 204
        paired_id = None
        wait.until(lambda d: "no longer paired" in d.find_element(By.ID, "status").text)
        assert not visible(phone, "controls-panel")
        phone.save_screenshot(str(ARTIFACTS / "web-remote-revoked.png"))
        refusal = phone.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const { LinkClient, linkURL } = await import('/ui/js/devicelink/link-client.js');
            const { loadIdentity } = await import('/ui/js/devicelink/identity-store.js');
            const link = new LinkClient({ url: linkURL(), identity: await loadIdentity(), service: 'remote',
                                          session: 'revoked-test', purpose: 'connect', trustsPeer: () => true });
            link.connect().then(() => { link.send(0x100, {v: 1, type: 'intent', id: 1, intent: 'play'}); done('connected'); },
                                (error) => done(error.reason));""")
        assert refusal == "not-paired"
        time.sleep(0.5)
        assert page.video("paused") is True
    finally:
        if paired_id:
            server.api("DELETE", f"/api/devices/{paired_id}")
        server.api("PUT", "/api/settings/player", {"skipInterval": settings.get("skipInterval", 10)})


def test_the_web_remote_in_japanese_and_a_rejection_on_the_tv(server, browser):
    phone = browser("ja-JP", width=390, height=844)
    wait = WebDriverWait(phone, 20, poll_frequency=0.1)
    phone.get(server.url + "/remote")
    wait.until(lambda d: visible(d, "pair"))
    assert phone.find_element(By.ID, "pair").text == "このテレビとペアリング"
    phone.find_element(By.ID, "pair").click()
    wait.until(lambda d: len(d.find_element(By.ID, "code").text.replace(" ", "")) == 6)
    pending = pending_for(server, phone.find_element(By.ID, "code").text.replace(" ", ""))
    assert pending
    assert server.api("POST", f"/api/devices/pairings/{pending['id']}", {"approved": False})[0] == 204
    wait.until(lambda d: d.find_element(By.ID, "status").text == "ペアリングは拒否されました。")
    assert not visible(phone, "controls-panel")
    assert not [d for d in server.api("GET", "/api/devices")[1]["paired"] if d["fingerprint"] == pending["fingerprint"]]


def test_the_tv_shows_the_web_remote_address_as_a_qr_code_a_camera_reads(server, driver, tmp_path):
    driver.get(server.url + "/devices")
    wait = WebDriverWait(driver, 15)
    wait.until(lambda d: d.find_element(By.ID, "web-remote").get_attribute("data-url"))
    url = driver.find_element(By.ID, "web-remote").get_attribute("data-url")
    # The e2e server listens on loopback only: the address is this machine's, and the hint says so.
    assert url == server.url + "/remote"
    assert "--host 0.0.0.0" in driver.find_element(By.ID, "web-remote-hint").text
    assert driver.find_element(By.ID, "web-remote-url").text == url.removeprefix("http://")
    image = tmp_path / "qr.png"
    driver.find_element(By.ID, "web-remote-qr").screenshot(str(image))
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / "web-remote-invite-on-tv.png"))
    if not shutil.which("zbarimg"):
        pytest.skip("zbarimg (zbar-tools) is not installed; scripts/setup.sh --test installs it")
    read = subprocess.run(["zbarimg", "--raw", "-q", str(image)], capture_output=True, text=True)
    assert read.returncode == 0, read.stderr
    assert read.stdout.strip() == url
    # The address opens the remote, signed out and without any approval yet.
    driver.get(url)
    wait.until(lambda d: visible(d, "pair"))


def test_a_phone_without_webcrypto_pairs_and_controls_the_tv_with_the_portable_cryptography(server, browser):
    """A phone opening http://LAN-address/remote has no crypto.subtle (not a secure context); the
    page then runs plain-JavaScript X25519/Ed25519/SHA/HKDF. Forced here on loopback."""
    tv = browser()
    phone = browser(width=390, height=844)
    paired_id = None
    try:
        page = PlayerPage(tv, server, TOUR, "?autoplay=0")
        wait = WebDriverWait(phone, 20, poll_frequency=0.1)
        phone.get(server.url + "/remote")
        phone.execute_script("localStorage.setItem('marquee.devicelink.crypto', 'portable')")
        pending = pair_phone(server, phone, wait)
        backend = phone.execute_async_script("""const done = arguments[arguments.length - 1];
            import('/ui/js/devicelink/link-crypto.js').then(async (m) => done(await m.cryptoBackend()));""")
        assert backend == "portable"
        paired_id = next(d["id"] for d in server.api("GET", "/api/devices")[1]["paired"] if d["fingerprint"] == pending["fingerprint"])
        wait.until(lambda d: d.find_element(By.ID, "now-title").text == TOUR)
        phone.find_element(By.ID, "play-pause").click()
        page.wait_for(lambda: page.video("paused") is False, "the TV did not start playing")
        phone.find_element(By.ID, "play-pause").click()
        page.wait_for(lambda: page.video("paused") is True, "the TV did not pause")
    finally:
        if paired_id:
            server.api("DELETE", f"/api/devices/{paired_id}")


def test_play_on_tv_hands_the_item_over_at_its_time_and_speed_and_this_browser_becomes_the_remote(server, browser):
    tv = browser()
    laptop = browser()
    paired_id = None
    try:
        # The TV's browser is marked as its screen and listens for "Play on…".
        tv.get(server.url + "/devices?screen=1")
        WebDriverWait(tv, 15).until(lambda d: d.execute_script("return document.documentElement.dataset.screen") == "listening")
        assert tv.find_element(By.ID, "screen-switch").is_selected()
        wait = WebDriverWait(laptop, 20, poll_frequency=0.1)
        pending = pair_phone(server, laptop, wait)
        paired_id = next(d["id"] for d in server.api("GET", "/api/devices")[1]["paired"] if d["fingerprint"] == pending["fingerprint"])

        page = PlayerPage(laptop, server, TOUR, "?t=12&autoplay=0")
        page.wait_for(lambda: abs(page.current_time - 12) < 0.6, "the laptop did not open at 12 s")
        session_id = page.js("return window.marquee.session.id")
        status, _ = server.api("POST", f"/api/sessions/{session_id}/intents", {"intent": "select-speed", "rate": 1.5})
        assert status == 200
        page.wait_for(lambda: page.js("return window.marquee.session.selectedSpeed.rate") == 1.5, "the laptop's speed did not change")
        # "Play on…" is added to the controls by its own module: wait for it.
        WebDriverWait(laptop, 10).until(lambda d: d.find_elements(By.ID, "play-on-button"))[0].click()

        # The TV opens the player at that moment and plays, at that speed; the laptop is now its remote.
        WebDriverWait(tv, 20).until(lambda d: "/watch/" in d.current_url)
        tv_page = PlayerPage.__new__(PlayerPage)
        tv_page.driver = tv
        tv_page.wait_for(lambda: tv_page.video("paused") is False and tv_page.current_time >= 11.5, "the TV did not play from 12 s")
        tv_page.wait_for(lambda: tv_page.js("return window.marquee.session.selectedSpeed.rate") == 1.5, "the TV did not take the speed")
        wait.until(lambda d: "/remote" in d.current_url and visible(d, "controls-panel"))
        wait.until(lambda d: d.find_element(By.ID, "now-title").text == TOUR)
        laptop.save_screenshot(str(ARTIFACTS / "play-on-remote.png"))
        tv.save_screenshot(str(ARTIFACTS / "play-on-tv.png"))
        laptop.find_element(By.ID, "play-pause").click()
        tv_page.wait_for(lambda: tv_page.video("paused") is True, "the laptop, now the remote, did not pause the TV")
    finally:
        if paired_id:
            server.api("DELETE", f"/api/devices/{paired_id}")


def test_a_game_of_tictactoe_from_the_web_remote_to_the_end(server, browser):
    phone = browser(width=390, height=844)
    paired_id = None
    try:
        wait = WebDriverWait(phone, 20, poll_frequency=0.1)
        pending = pair_phone(server, phone, wait)
        paired_id = next(d["id"] for d in server.api("GET", "/api/devices")[1]["paired"] if d["fingerprint"] == pending["fingerprint"])
        wait.until(lambda d: visible(d, "game-open"))
        phone.find_element(By.ID, "game-open").click()
        # Paired per service: the game asks for the code once more, approved on both sides.
        wait.until(lambda d: visible(d, "code") and len(d.find_element(By.ID, "code").text.replace(" ", "")) == 6)
        code = phone.find_element(By.ID, "code").text.replace(" ", "")
        game_pending = WebDriverWait(phone, 10).until(lambda _: pending_for(server, code))
        assert game_pending["service"] == "tictactoe"
        phone.find_element(By.ID, "code-approve").click()
        assert server.api("POST", f"/api/devices/pairings/{game_pending['id']}", {"approved": True})[0] == 204
        wait.until(lambda d: visible(d, "pick-x"))
        phone.find_element(By.ID, "pick-x").click()
        moves = 0
        while phone.find_element(By.ID, "game-panel").get_attribute("data-outcome") == "playing" and moves < 5:
            before = phone.execute_script("return JSON.stringify(window.marqueeGame.state.board)")
            free = [b for b in phone.find_elements(By.CSS_SELECTOR, "#game-board button") if b.is_enabled()]
            free[0].click()
            moves += 1
            wait.until(lambda d: d.execute_script("return JSON.stringify(window.marqueeGame.state.board)") != before)
        outcome = phone.find_element(By.ID, "game-panel").get_attribute("data-outcome")
        assert outcome in ("phone-wins", "tv-wins", "draw"), outcome
        status = phone.find_element(By.ID, "game-status").text
        assert status == {"phone-wins": "You win!", "tv-wins": "The TV wins.", "draw": "Draw."}[outcome]
        board = phone.execute_script("return window.marqueeGame.state.board")
        # The TV shows the same finished board (its /devices page draws GET /api/devices' games).
        games = server.api("GET", "/api/devices")[1]["games"]
        assert games and games[0]["board"] == board and games[0]["outcome"] == outcome
        phone.save_screenshot(str(ARTIFACTS / "web-remote-tictactoe.png"))
    finally:
        if paired_id:
            server.api("DELETE", f"/api/devices/{paired_id}")


def test_play_on_tv_on_first_use_pairs_then_plays_on_a_tv_left_on_the_library_page(server, browser):
    """Issue 26, item 13: from a browser not yet paired, "Play on TV" pairs and then plays the
    item on the TV — which listens on every Marquee page, here the library."""
    tv = browser()
    laptop = browser()
    paired_id = None
    try:
        tv.get(server.url + "/?screen=1")
        WebDriverWait(tv, 15).until(lambda d: d.execute_script("return document.documentElement.dataset.screen") == "listening")
        page = PlayerPage(laptop, server, TOUR, "?t=12&autoplay=0")
        page.wait_for(lambda: abs(page.current_time - 12) < 0.6, "the laptop did not open at 12 s")
        # "Play on…" is added to the controls by its own module: wait for it.
        WebDriverWait(laptop, 10).until(lambda d: d.find_elements(By.ID, "play-on-button"))[0].click()
        # Not paired yet: the laptop goes to pair first; both approve the same code.
        wait = WebDriverWait(laptop, 20, poll_frequency=0.1)
        wait.until(lambda d: "/remote" in d.current_url and visible(d, "code") and len(d.find_element(By.ID, "code").text.replace(" ", "")) == 6)
        code = laptop.find_element(By.ID, "code").text.replace(" ", "")
        pending = None
        deadline = time.time() + 10
        while pending is None and time.time() < deadline:
            pending = pending_for(server, code)
            time.sleep(0.1)
        assert pending, f"the TV does not list a pairing with code {code}"
        laptop.find_element(By.ID, "code-approve").click()
        status, _ = server.api("POST", f"/api/devices/pairings/{pending['id']}", {"approved": True})
        assert status == 204
        # Paired: the "Play on TV" it asked for goes through, and the TV left on the library plays it from 12 s.
        WebDriverWait(tv, 20).until(lambda d: "/watch/" in d.current_url)
        paired_id = next(d["id"] for d in server.api("GET", "/api/devices")[1]["paired"] if d["fingerprint"] == pending["fingerprint"])
        tv_page = PlayerPage.__new__(PlayerPage)
        tv_page.driver = tv
        tv_page.wait_for(lambda: tv_page.video("paused") is False and tv_page.current_time >= 11.5, "the TV did not play from 12 s")
        wait.until(lambda d: visible(d, "controls-panel"))
    finally:
        if paired_id:
            server.api("DELETE", f"/api/devices/{paired_id}")
