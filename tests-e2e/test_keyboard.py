"""Keyboard only (issue 29, item 4): journeys done with Tab, Shift+Tab, Enter, Space, arrows and
typing alone — add a file, edit it, delete it and undo, play it, seek, change the speed,
download a variant, pair a web remote — with every stop on the way showing where focus is
(a `:focus-visible` ring read from the computed style); and `prefers-reduced-motion: reduce`
(emulated with DevTools) turns off scrub momentum and the Now Playing island's animations."""
import os
import shutil
import subprocess
import tempfile
import time

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

import hls_fixture
from conftest import ARTIFACTS
from player_page import PlayerPage
from test_downloads_page import make_long_stream
from test_transport import swipe

TOUR = "Test Pattern Tour"

FOCUS_RING = """
    const e = document.activeElement;
    if (!e || e === document.body) return null;
    const s = getComputedStyle(e);
    const ring = (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2) || (s.boxShadow && s.boxShadow !== 'none');
    const r = e.getBoundingClientRect();
    return {ring, matches: e.matches(':focus-visible'), width: r.width, height: r.height,
            name: e.id || e.getAttribute('aria-label') || e.textContent.trim().slice(0, 30) || e.tagName,
            outline: s.outlineStyle + ' ' + s.outlineWidth};
"""


def wait(driver, condition, message, timeout=20):
    return WebDriverWait(driver, timeout, poll_frequency=0.1).until(lambda d: condition(d), message)


def press(driver, *keys):
    ActionChains(driver).send_keys(*keys).perform()


def focused(driver, selector):
    return driver.execute_script("return !!document.activeElement?.matches(arguments[0])", selector)


def tab_to(driver, selector, limit=80, backwards=False):
    """Presses Tab (or Shift+Tab) until the focused element matches `selector`; every element
    passed on the way must show a visible focus ring."""
    unseen = []
    for _ in range(limit):
        if backwards:
            ActionChains(driver).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()
        else:
            press(driver, Keys.TAB)
        state = driver.execute_script(FOCUS_RING)
        if state and state["width"] > 0 and not (state["ring"] and state["matches"]):
            unseen.append(state)
        if focused(driver, selector):
            assert not unseen, f"focus without a visible ring on the way to {selector}: {unseen}"
            return
    raise AssertionError(f"Tab never reached {selector}")


@pytest.fixture(scope="module")
def clip():
    folder = tempfile.mkdtemp(prefix="marquee-keys-")
    path = os.path.join(folder, "Keyboard Clip.mp4")
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=24:duration=2",
                    "-f", "lavfi", "-i", "sine=frequency=600:duration=2", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
                    "-c:a", "aac", "-shortest", path], check=True)
    yield path
    shutil.rmtree(folder, ignore_errors=True)


def card(driver, title):
    return driver.execute_script(
        "return [...document.querySelectorAll('.asset-card')].find((c) => c.querySelector('h2')?.textContent === arguments[0])"
        "?.dataset.assetId ?? null", title)


def test_add_edit_delete_undo_and_play_with_the_keyboard_alone(server, driver, clip):
    driver.get(server.url + "/")
    wait(driver, lambda d: d.execute_script("return window.marqueeLibrary?.events?.readyState === 1 && document.querySelectorAll('.asset-card').length > 0"),
         "the library did not load")
    asset_id = None
    try:
        # Add: the Add button opens the sheet; the server path field takes the file; Enter adds it.
        tab_to(driver, "#add-button")
        press(driver, Keys.ENTER)
        wait(driver, lambda d: d.find_element(By.ID, "add-sheet").get_attribute("open") is not None, "the add sheet did not open")
        tab_to(driver, "#server-path")
        press(driver, clip)
        tab_to(driver, "#server-path-add")
        press(driver, Keys.ENTER)
        wait(driver, lambda d: card(d, "Keyboard Clip"), "the added file has no card")
        asset_id = card(driver, "Keyboard Clip")
        wait(driver, lambda d: d.execute_script(f"return document.querySelector('.asset-card[data-asset-id=\"{asset_id}\"]')?.dataset.status") == "ready",
             "the clip was not packaged", timeout=90)

        # Edit: its Edit button, a new title typed over the old, Enter saves.
        mine = f'.asset-card[data-asset-id="{asset_id}"]'
        driver.execute_script("document.activeElement?.blur(); window.scrollTo(0, 0)")
        tab_to(driver, f"{mine} button.edit", limit=120)
        press(driver, Keys.ENTER)
        wait(driver, lambda d: focused(d, "#edit-form [name=title]"), "the title field did not take focus")
        ActionChains(driver).key_down(Keys.CONTROL).send_keys("a").key_up(Keys.CONTROL).perform()
        press(driver, "Typed Title", Keys.ENTER)
        wait(driver, lambda d: card(d, "Typed Title") == asset_id, "the new title did not show")

        # Delete, then Undo: focus goes to Undo, and back to the card once undone.
        driver.execute_script("document.activeElement?.blur(); window.scrollTo(0, 0)")
        tab_to(driver, f"{mine} button.delete", limit=120)
        press(driver, Keys.ENTER)
        wait(driver, lambda d: focused(d, ".undo-toast button"), "focus did not go to Undo")
        assert driver.execute_script(FOCUS_RING)["ring"], "Undo has no visible focus"
        assert server.api("GET", f"/api/assets/{asset_id}")[0] == 404
        press(driver, Keys.ENTER)
        wait(driver, lambda d: focused(d, f"{mine} a"), "focus did not return to the restored card")
        assert server.api("GET", f"/api/assets/{asset_id}")[0] == 200

        # Play: Enter on the card opens the player; K pauses and plays.
        press(driver, Keys.ENTER)
        wait(driver, lambda d: d.execute_script("return window.marquee?.session?.duration > 0 && document.getElementById('video').readyState >= 2"),
             "the player did not open")
        driver.execute_script("document.getElementById('video').muted = true")
        for _ in range(2):
            was = driver.execute_script("return document.getElementById('video').paused")
            press(driver, "k")
            wait(driver, lambda d: d.execute_script("return document.getElementById('video').paused") != was, "k did not play or pause")
    finally:
        if asset_id:
            server.api("DELETE", f"/api/assets/{asset_id}?permanently=true")


def test_seek_and_change_speed_with_the_keyboard_alone(server, driver):
    page = PlayerPage(driver, server, TOUR)
    driver.execute_script("document.getElementById('video').muted = true")
    if not page.video("paused"):
        press(driver, "k")
    page.wait_for(lambda: page.video("paused"), "not paused")
    start = page.current_time
    # → seeks 10 s on; on the focused timeline, arrows seek too.
    press(driver, Keys.ARROW_RIGHT)
    page.wait_until_seeked(start + 10, tolerance=1)
    tab_to(driver, "#timeline")
    press(driver, Keys.ARROW_LEFT)
    page.wait_until_seeked(start, tolerance=1)
    # The speed: the "…" menu opened with Enter, an arrow to the next speed, Enter to choose.
    tab_to(driver, "#overflow-button")
    press(driver, Keys.ENTER)
    wait(driver, lambda d: focused(d, "#overflow-menu [aria-checked=true]"), "the menu did not focus the current speed")
    assert driver.execute_script(FOCUS_RING)["ring"], "the menu item has no visible focus"
    press(driver, Keys.ARROW_DOWN)
    chosen = float(driver.execute_script("return document.activeElement.dataset.value ?? document.activeElement.value"))
    press(driver, Keys.ENTER)
    page.wait_for(lambda: page.js("return window.marquee.session.selectedSpeed?.rate") == chosen, "the speed did not change")
    assert chosen != 1
    # Back to normal speed for the other tests using this asset's sessions.
    page.js("return fetch(`/api/sessions/${window.marquee.session.id}/intents`, {method: 'POST', headers: {'content-type': 'application/json'},"
            " body: JSON.stringify({intent: 'selectSpeed', rate: 1})})")


@pytest.fixture(scope="module")
def stream(tmp_path_factory):
    root = tmp_path_factory.mktemp("keys-stream")
    make_long_stream(root)
    faults = hls_fixture.Faults()
    faults.delay = 1.0
    httpd = hls_fixture.serve(root, faults)
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


def test_download_a_variant_with_the_keyboard_alone(server, driver, stream):
    driver.get(server.url + "/downloads")
    wait(driver, lambda d: d.find_element(By.ID, "list-status").get_attribute("data-live") == "true", "no event stream")
    created = None
    try:
        tab_to(driver, "#url")
        press(driver, f"{stream}/long/master.m3u8", Keys.ENTER)
        wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#variants .variant")) == 4, "no variants")
        tab_to(driver, "#variants input[type=radio]")
        press(driver, Keys.SPACE)
        assert driver.execute_script("return document.activeElement.checked")
        tab_to(driver, "#start")
        press(driver, Keys.ENTER)
        wait(driver, lambda d: d.execute_script("return document.querySelector('#downloads .download')?.dataset.state") in ("queued", "downloading"),
             "the download did not start")
        created = driver.execute_script("return document.querySelector('#downloads .download').dataset.id")
        assert server.api("GET", f"/api/downloads/{created}")[1]["request"]["variant"].endswith("v360/index.m3u8")
        # Its buttons are reached and pressed with the keyboard too: Cancel stops it.
        tab_to(driver, f'.download[data-id="{created}"] button[data-action=cancel]')
        press(driver, Keys.ENTER)
        wait(driver, lambda d: d.execute_script(f"return document.querySelector('.download[data-id=\"{created}\"]')?.dataset.state") == "cancelled",
             "Cancel did not cancel")
    finally:
        if created:
            server.api("DELETE", f"/api/downloads/{created}")


def test_pair_a_web_remote_with_the_keyboard_alone(server, browser):
    tv = browser()
    phone = browser(width=420, height=860)
    paired = None
    try:
        tv.get(server.url + "/devices")
        wait(tv, lambda d: d.execute_script("return document.readyState") == "complete", "no devices page")
        phone.get(server.url + "/remote")
        wait(phone, lambda d: d.find_element(By.ID, "pair").is_displayed(), "no pair button")
        tab_to(phone, "#pair")
        press(phone, Keys.ENTER)
        wait(phone, lambda d: len(d.find_element(By.ID, "code").text.replace(" ", "")) == 6, "no code")
        code = phone.find_element(By.ID, "code").text
        tab_to(phone, "#code-approve")
        press(phone, Keys.ENTER)
        # The TV's person approves on /devices with the keyboard: the pending row shows the same code.
        wait(tv, lambda d: code.replace(" ", "") in d.find_element(By.ID, "pending").text.replace(" ", ""), "the TV does not list the code")
        tab_to(tv, "#pending button.approve")
        press(tv, Keys.ENTER)
        wait(phone, lambda d: d.find_element(By.ID, "controls-panel").is_displayed(), "the phone did not connect")
        paired = [d["id"] for d in server.api("GET", "/api/devices")[1]["paired"] if d.get("platform") == "web"]
    finally:
        for device in paired or [d["id"] for d in server.api("GET", "/api/devices")[1]["paired"] if d.get("platform") == "web"]:
            server.api("DELETE", f"/api/devices/{device}")


def reduce_motion(driver, on=True):
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce" if on else "no-preference"}]})


def coasts(page):
    """Swipes fast across the paused picture; whether the timeline kept moving after the release."""
    page.key("1")
    page.wait_until_seeked(3)
    swipe(page, 300, 700, 400)
    released = page.timeline_time
    assert released > 6, "the swipe itself did not scrub"
    try:
        page.wait_for(lambda: page.timeline_time > released + 0.3, "no momentum", 2)
        return True
    except Exception:
        return False
    finally:
        page.wait_for(lambda: not page.js("return document.getElementById('gesture-surface').dataset.coasting"), "momentum never stopped", 5)


def test_reduced_motion_turns_off_scrub_momentum_and_island_animations(server, driver):
    page = PlayerPage(driver, server, TOUR, "?autoplay=0")
    # Without the preference a fling coasts on (the check can fail)…
    assert coasts(page), "a fling did not coast without reduced motion"
    # …with it, the playhead stops where it was let go.
    reduce_motion(driver)
    try:
        assert page.js("return matchMedia('(prefers-reduced-motion: reduce)').matches")
        assert not coasts(page), "a fling coasted with reduced motion"
        # The player's chrome fades without a transition.
        assert page.js("return getComputedStyle(document.querySelector('.chrome')).transitionDuration").split(",")[0].strip() == "0s"
        # The Now Playing island (on the library while this player plays): no animated sizes or bars.
        page.js("document.getElementById('video').play()")
        driver.switch_to.new_window("tab")
        reduce_motion(driver)
        driver.get(server.url + "/")
        wait(driver, lambda d: d.execute_script("return !!document.querySelector('.np-island-host')"), "no island host")
        durations = driver.execute_script("""
            const host = document.querySelector('.np-island-host');
            return [getComputedStyle(host).getPropertyValue('--transition').trim(),
                    ...[...host.querySelectorAll('*')].map((e) => getComputedStyle(e).transitionDuration)];""")
        assert durations[0] == "0s" and all(d.split(",")[0].strip() in ("0s", "") for d in durations[1:]), durations
        reduce_motion(driver, on=False)
        driver.get(server.url + "/")
        wait(driver, lambda d: d.execute_script("return !!document.querySelector('.np-island-host')"), "no island host")
        assert driver.execute_script("return getComputedStyle(document.querySelector('.np-island-host')).getPropertyValue('--transition').trim()") == ".5s"
        driver.close()
        driver.switch_to.window(driver.window_handles[0])
    finally:
        reduce_motion(driver, on=False)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
