"""Pinch between fit and fill, centre tap with hidden controls, the info panel."""
import time

from player_page import PlayerPage


def test_pinch_and_ctrl_wheel_switch_fit_and_fill(server, driver):
    page = PlayerPage(driver, server, "Test Pattern Tour", "?autoplay=0")
    assert page.player_attr("data-gravity") == "fit"
    assert page.video("style") is not None
    assert page.js("return getComputedStyle(document.getElementById('video')).objectFit") == "contain"
    page.touch("touchStart", [(560, 360), (720, 360)])
    for step in range(1, 9):
        page.touch("touchMove", [(560 - step * 25, 360), (720 + step * 25, 360)])
    page.touch("touchEnd", [])
    page.wait_for(lambda: page.player_attr("data-gravity") == "fill", "pinch out did not fill")
    assert page.js("return getComputedStyle(document.getElementById('video')).objectFit") == "cover"
    page.wheel(640, 360, 120, ctrl=True)
    page.wait_for(lambda: page.player_attr("data-gravity") == "fit", "ctrl + wheel did not fit")
    page.wheel(640, 360, -120, ctrl=True)
    page.wait_for(lambda: page.player_attr("data-gravity") == "fill", "ctrl + wheel did not fill")


def test_centre_tap_toggles_play_with_controls_hidden(server, driver):
    page = PlayerPage(driver, server, "Test Pattern Tour")
    page.wait_for_status("playing")
    page.wait_for(page.controls_hidden, "controls never faded during playback", timeout=8)
    page.wait_for(lambda: page.js("return getComputedStyle(document.querySelector('.centre-controls')).visibility") == "hidden",
                  "the centre controls did not fade out")
    page.tap(640, 360)
    page.wait_for(lambda: page.video("paused") is True, "centre tap did not pause")
    page.wait_for_status("paused")
    paused_at = page.current_time
    time.sleep(0.5)
    assert page.current_time == paused_at
    page.tap(640, 360)
    page.wait_for(lambda: page.video("paused") is False, "second centre tap did not play")
    page.wait_for_status("playing")
    # Controls fade again during playback and come back when the pointer moves.
    page.wait_for(page.controls_hidden, "controls did not fade again", timeout=8)
    page.mouse("mouseMoved", 300, 200)
    page.wait_for(lambda: not page.controls_hidden(), "pointer movement did not bring the controls back")


def test_info_panel_shows_overridden_metadata(server, driver):
    portrait = server.asset("Portrait Clip")
    status, _ = server.api("PUT", f"/api/assets/{portrait['id']}/metadata", {
        "title": "A Tall Story", "subtitle": "Told upright", "description": "Overrides win over what the file says."})
    assert status == 200
    try:
        page = PlayerPage(driver, server, "A Tall Story", "?autoplay=0")
        assert page.element("title").text == "A Tall Story"
        assert page.element("subtitle").text == "Told upright"
        assert not page.element("info-panel").is_displayed()
        page.element("info-button").click()
        page.wait_for(lambda: page.element("info-panel").is_displayed(), "info panel did not open")
        assert page.element("info-title").text == "A Tall Story"
        assert page.element("info-subtitle").text == "Told upright"
        assert page.element("info-description").text == "Overrides win over what the file says."
        assert page.element("info-button").get_attribute("aria-expanded") == "true"
        # A tap anywhere closes it, and does nothing else.
        page.tap(200, 450)
        page.wait_for(lambda: not page.element("info-panel").is_displayed(), "tap did not close the panel")
        assert page.video("paused") is True
        # I opens it too.
        page.key("i")
        page.wait_for(lambda: page.element("info-panel").is_displayed(), "I did not open the panel")
        # Portrait video is shown as portrait.
        assert page.video("videoHeight") > page.video("videoWidth")
    finally:
        server.api("PUT", f"/api/assets/{portrait['id']}/metadata", {})
