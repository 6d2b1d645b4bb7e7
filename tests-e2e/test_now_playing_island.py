"""The player's own Now playing island (issue 15) in headless Chromium: while the player plays
in one tab and the person is on another Marquee page, that page shows the session's Now
playing activity as a Dynamic Island at Apple's sizes, live from the server's activity; a tap
expands it, a second tap returns to the player (which continues the session where it was, and
the old tab stops); pausing updates the island; playback reaching the end removes it. English
and Japanese. Screenshots go to artifacts/e2e."""
import pytest
import time

from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By

from conftest import ARTIFACTS
from player_page import PlayerPage

TITLE = "Test Pattern Tour"  # 30 s, no interstitials


def shot(driver, name):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / f"now-playing-island-{name}.png"))


def island(page):
    """The island's state as the page shows it, or None while it is hidden."""
    return page.js("""
        const e = document.getElementById('now-playing-island');
        if (!e || e.hidden) return null;
        const view = e.firstElementChild, r = view.getBoundingClientRect();
        return {mode: e.dataset.mode, session: e.dataset.sessionId, position: Number(e.dataset.position),
                paused: e.dataset.paused === 'true', label: e.getAttribute('aria-label'), text: e.innerText,
                width: r.width, height: r.height, top: r.top, icon: view.querySelector('.icon')?.textContent};
    """)


def play_in_first_tab(driver, server, title):
    page = PlayerPage(driver, server, title, "?t=2")
    page.wait_for(lambda: not page.video("paused") and page.current_time > 2.2, "the player did not play")
    return page, page.js("return window.marquee.session.id")


def save_network_log(driver, name):
    """Every request the browser made (all tabs): address, type, status, when sent and finished
    or why it failed, for a failure's reader (artifacts/e2e/<name>.json)."""
    import json
    requests = {}
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        params, method = message.get("params", {}), message["method"]
        rid = params.get("requestId")
        if method == "Network.requestWillBeSent":
            requests[rid] = {"url": params["request"]["url"], "type": params.get("type"), "sent": params["timestamp"]}
        elif rid in requests and method == "Network.responseReceived":
            requests[rid]["status"] = params["response"]["status"]
        elif rid in requests and method == "Network.loadingFinished":
            requests[rid]["finished"] = params["timestamp"]
        elif rid in requests and method == "Network.loadingFailed":
            requests[rid]["failed"] = params.get("errorText")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / f"{name}.json").write_text(json.dumps(list(requests.values()), indent=1))


def open_other_page(driver, server, path):
    driver.switch_to.new_window("tab")
    driver.get(server.url + path)
    page = PlayerPage.__new__(PlayerPage)
    page.driver = driver
    return page


def intent(server, session_id, name, **fields):
    status, body = server.api("POST", f"/api/sessions/{session_id}/intents", {"intent": name, **fields})
    assert status == 200, body


# Once quarantined (failed in two full runs of 2026-12-03 and one of 2026-12-07): the player the
# island returned to sat at 3.9 s, waiting for ever. The saved network log showed why: it
# started at 3.9 s in 2 s segments, and the loader took the segment after the one holding the
# playhead (within 0.15 s of its end), leaving a hole under it. It failed only when the island's
# position at the tap fell in the last 0.15 s of a segment. Fixed in mse-loader.js's
# nextSegment (node test); a failure still saves every request of the browser's tabs.
def test_island_follows_the_player_from_another_page_and_returns_to_it(server, browser):
    driver = browser(width=1280, height=800, network_log=True)
    player, first_session = play_in_first_tab(driver, server, TITLE)
    player_tab = driver.current_window_handle
    asset_id = server.asset(TITLE)["id"]

    # Another Marquee page: the island shows the session, compact, with its title and position.
    other = open_other_page(driver, server, "/downloads")
    other.wait_for(lambda: (island(other) or {}).get("session") == first_session, "no Now playing island on the downloads page")
    shown = island(other)
    assert shown["mode"] == "compact"
    assert TITLE in shown["label"] and "playing" in shown["label"]
    assert abs(shown["height"] - 36.67) < 0.5 and abs(shown["width"] - (62.33 * 2 + 126.67)) < 1, shown
    assert shown["text"].startswith("▶") and "−0:" in shown["text"], shown["text"]
    assert other.js("return document.getElementById('now-playing-minimal').hidden")
    # It moves on with playback.
    start = shown["position"]
    assert 1.5 < start < 12, shown
    other.wait_for(lambda: island(other)["position"] >= start + 1.0, "the island's position did not move on")
    shot(driver, "compact")

    # A tap expands it (408 pt wide, 84–160 tall) with the title, the times and the way back.
    driver.find_element(By.ID, "now-playing-island").click()
    other.wait_for(lambda: island(other)["mode"] == "expanded", "a tap did not expand the island")
    expanded = island(other)
    assert abs(expanded["width"] - 408) < 1 and 84 <= expanded["height"] <= 160, expanded
    assert TITLE in expanded["text"] and "/ 0:30" in expanded["text"] and "Tap to return to the player" in expanded["text"]
    shot(driver, "expanded")

    # A second tap returns to the player: the session continues here from where it was, and
    # the first tab's player stops (its session ends).
    tapped = island(other)
    at_tap = tapped["position"]
    assert not tapped["paused"], f"the island showed the session paused before the tap: {tapped}"
    driver.find_element(By.ID, "now-playing-island").click()
    other.wait_for(lambda: f"/watch/{asset_id}" in driver.current_url, "the expanded island did not return to the player")
    back = PlayerPage.__new__(PlayerPage)
    back.driver = driver

    def continued():
        return back.js("return window.marquee?.session?.id") not in (None, first_session) \
            and not back.video("paused") and back.video("readyState") >= 2
    try:
        back.wait_for(continued, "the player did not continue", timeout=20)
    except TimeoutException:
        state = back.js("""const v = document.getElementById('video');
            return {url: location.href, session: window.marquee?.session?.id ?? null, paused: v?.paused,
                    readyState: v?.readyState, currentTime: v?.currentTime, error: v?.error?.message ?? null,
                    state: document.getElementById('player')?.dataset.state ?? null, status: document.getElementById('player')?.dataset.status ?? null,
                    toast: document.getElementById('toast')?.textContent ?? null}""")
        save_network_log(driver, "now-playing-island-network")
        raise AssertionError(f"the player did not continue: {state}; island at the tap {tapped} "
                             "(every request: artifacts/e2e/now-playing-island-network.json)")
    assert abs(back.current_time - at_tap) < 3, (back.current_time, at_tap)
    second_session = back.js("return window.marquee.session.id")
    back_tab = driver.current_window_handle
    assert island(back) is None, "the player shows its own island while its picture is in sight"
    back.wait_for(lambda: server.api("GET", f"/api/sessions/{first_session}")[0] == 404, "the first tab's session did not end")
    driver.switch_to.window(player_tab)
    player.wait_for(lambda: player.video("paused"), "the first tab kept playing")
    assert "another tab" in player.js("return document.getElementById('toast').textContent")

    # Pausing updates the island on another page.
    library = open_other_page(driver, server, "/")
    library.wait_for(lambda: (island(library) or {}).get("session") == second_session, "no island for the continued session")
    assert not island(library)["paused"]
    intent(server, second_session, "pause")
    library.wait_for(lambda: island(library)["paused"], "pausing did not update the island")
    paused = island(library)
    assert paused["icon"] == "⏸" and "paused" in paused["label"], paused
    time.sleep(1.2)
    assert abs(island(library)["position"] - paused["position"]) < 0.05, "a paused island's position moved"
    shot(driver, "paused")

    # Playback reaching the end removes it.
    intent(server, second_session, "seek", time=28.5)
    intent(server, second_session, "play")
    library.wait_for(lambda: island(library) is None, "the island stayed after playback ended", timeout=30)
    status, snapshot = server.api("GET", f"/api/sessions/{second_session}")
    assert status == 200 and snapshot["status"] == "ended", snapshot
    server.api("DELETE", f"/api/sessions/{second_session}")


def test_island_in_japanese(server, browser):
    driver = browser("ja-JP", width=1000, height=800)
    _, session_id = play_in_first_tab(driver, server, "Portrait Clip")
    library = open_other_page(driver, server, "/")
    library.wait_for(lambda: (island(library) or {}).get("session") == session_id, "no Now playing island on the library page")
    shown = island(library)
    assert shown["label"].startswith("再生中: Portrait Clip、再生中、"), shown["label"]
    assert library.js("return document.getElementById('now-playing-minimal').hidden")
    driver.find_element(By.ID, "now-playing-island").click()
    library.wait_for(lambda: island(library)["mode"] == "expanded", "a tap did not expand the island")
    assert "タップしてプレーヤーに戻る" in island(library)["text"]
    intent(server, session_id, "pause")
    library.wait_for(lambda: "一時停止中" in island(library)["text"], "pausing did not update the Japanese island")
    shot(driver, "ja")
    # A tap elsewhere collapses it again.
    driver.find_element(By.CSS_SELECTOR, "header h1").click()
    library.wait_for(lambda: island(library)["mode"] == "compact", "a tap elsewhere did not collapse the island")
    server.api("DELETE", f"/api/sessions/{session_id}")
    library.wait_for(lambda: island(library) is None, "the island stayed after the session ended")
