"""Starting or seeking in the last moments of a segment plays on (the island test's stall, found
2026-12-07): with 2 s segments, a start at 3.9 s once made the MSE loader fetch segment 2 and
never segment 1, which holds 3.9 s, and the player waited for ever. Here, in a real Chromium:
starts at the end of a segment (with the old loader each of these stalled), and seeks (by the
session, as any control or remote sends them) to the end of another (these played on with the
old loader too: a seek from playing has a buffered end to continue from), each play on past the
next boundary."""
import pytest
from selenium.common.exceptions import TimeoutException

from player_page import PlayerPage

TOUR = "Test Pattern Tour"  # 30 s, 2 s segments, no interstitials


def plays_past(page, time, what):
    """Waits until the video plays beyond `time`; on failure says where it stood and what it had."""
    try:
        page.wait_for(lambda: not page.video("paused") and page.current_time > time, what, timeout=15)
    except TimeoutException:
        state = page.js("""const v = document.getElementById('video');
            return {at: v.currentTime, paused: v.paused, readyState: v.readyState,
                    buffered: [...Array(v.buffered.length).keys()].map((i) => [v.buffered.start(i), v.buffered.end(i)])};""")
        raise AssertionError(f"{what}: {state}") from None


# Each 0.1 to 0.14 s before a boundary (with the old loader all three stalled; a start 0.05 s
# or less before one played on, the gap being small enough for Chromium to step over).
@pytest.mark.parametrize("start", [3.9, 5.88, 13.87])
def test_a_start_in_the_last_moments_of_a_segment_plays_on(server, driver, start):
    page = PlayerPage(driver, server, TOUR, f"?t={start}")
    plays_past(page, start + 1.2, f"the player started at {start} s and did not play on")


def test_seeks_to_the_last_moments_of_segments_play_on(server, driver):
    page = PlayerPage(driver, server, TOUR, "?t=1")
    page.wait_for(lambda: not page.video("paused") and page.current_time > 1.5, "the player did not play")
    session = page.js("return window.marquee.session.id")
    for target in (11.9, 5.88, 19.86):
        status, body = server.api("POST", f"/api/sessions/{session}/intents", {"intent": "seek", "time": target})
        assert status == 200, body
        page.wait_for(lambda: target - 0.2 <= page.current_time and not page.video("seeking"), f"the seek to {target} s did not land")
        plays_past(page, target + 1.2, f"after a seek to {target} s the player did not play on")
