"""Speeds, subtitles, audio, Japanese UI, interstitials, independent sessions, errors."""
import time

from selenium.webdriver.common.by import By

from player_page import PlayerPage

TOUR = "Test Pattern Tour"


def speed_items(menu):
    return menu.find_elements(By.CSS_SELECTOR, "[data-section='speed'] [role='menuitemradio']")


def test_speed_menu_lists_system_speeds_and_play_keeps_the_chosen_rate(server, driver):
    page = PlayerPage(driver, server, TOUR)
    page.wait_for_status("playing")
    menu = page.open_overflow()
    items = speed_items(menu)
    assert [i.get_attribute("data-value") for i in items] == ["0.5", "1", "1.25", "1.5", "2"]
    assert [i.text for i in items] == ["0.5×", "1×", "1.25×", "1.5×", "2×"]
    assert items[4].get_attribute("aria-label") == "Double speed"
    assert items[1].get_attribute("aria-checked") == "true"
    items[3].click()
    page.wait_for(lambda: page.video("playbackRate") == 1.5, "rate did not become 1.5")
    assert page.video("paused") is False
    start_media, start_wall = page.current_time, time.monotonic()
    time.sleep(2)
    ratio = (page.current_time - start_media) / (time.monotonic() - start_wall)
    assert 1.25 < ratio < 1.75, f"played at {ratio:.2f}×"
    page.key("k")
    page.wait_for(lambda: page.video("paused") is True, "K did not pause")
    page.key("k")
    page.wait_for(lambda: page.video("paused") is False, "K did not play")
    time.sleep(0.3)
    assert page.video("playbackRate") == 1.5
    assert page.player_attr("data-selected-speed") == "1.5"
    assert page.player_attr("data-rate") == "1.5"
    menu = page.open_overflow()
    assert [i.get_attribute("aria-checked") for i in speed_items(menu)] == ["false", "false", "false", "true", "false"]


def test_speed_keys_step_through_the_list(server, driver):
    page = PlayerPage(driver, server, TOUR, "?autoplay=0")
    page.key(">")
    page.wait_for(lambda: page.player_attr("data-selected-speed") == "1.25", "> did not speed up")
    page.key("<")
    page.key("<")
    page.wait_for(lambda: page.player_attr("data-selected-speed") == "0.5", "< did not slow down")
    page.key("k")
    page.wait_for(lambda: page.video("playbackRate") == 0.5 and not page.video("paused"), "did not play at 0.5")


def test_an_empty_speed_list_hides_the_menu(server, driver):
    page = PlayerPage(driver, server, TOUR, "?speeds=")
    menu = page.open_overflow()
    assert speed_items(menu) == []
    assert "Playback speed" not in menu.text
    page.key("Escape")
    page.key(">")
    time.sleep(0.5)
    assert page.video("playbackRate") == 1


def test_player_settings_speeds_apply_to_new_players(server, driver):
    status, _ = server.api("PUT", "/api/settings/player", {"speeds": [1, 3]})
    assert status == 200
    try:
        page = PlayerPage(driver, server, TOUR, "?autoplay=0")
        assert [i.text for i in speed_items(page.open_overflow())] == ["1×", "3×"]
        server.api("PUT", "/api/settings/player", {"speeds": []})
        page = PlayerPage(driver, server, TOUR, "?autoplay=0")
        assert speed_items(page.open_overflow()) == []
    finally:
        server.api("PUT", "/api/settings/player", {"speeds": None})


def test_subtitles_switch_on(server, driver):
    page = PlayerPage(driver, server, TOUR, "?autoplay=0")
    assert page.js("return document.getElementById('video').textTracks[0].mode") == "disabled"
    page.element("captions-button").click()
    page.wait_for(lambda: page.js("return document.getElementById('video').textTracks[0].mode") == "showing", "subtitles did not show")
    assert page.element("captions-button").get_attribute("aria-pressed") == "true"
    page.key("k")
    page.wait_for(lambda: page.js(
        "const cues = document.getElementById('video').textTracks[0].activeCues; return cues && cues.length ? cues[0].text : ''")
        == "Welcome to Marquee.", "no subtitle cue showed")
    page.key("c")
    page.wait_for(lambda: page.js("return document.getElementById('video').textTracks[0].mode") == "disabled", "C did not turn them off")
    # The audio and subtitles menu turns them on by name.
    page.element("renditions-button").click()
    page.driver.find_element(By.CSS_SELECTOR, "#renditions-menu [data-section='subtitles'] [data-value='subtitles-en-0']").click()
    page.wait_for(lambda: page.js("return document.getElementById('video').textTracks[0].mode") == "showing", "menu did not turn them on")


def test_audio_switches_to_french(server, driver):
    page = PlayerPage(driver, server, TOUR)
    page.wait_for_status("playing")
    page.element("renditions-button").click()
    labels = [b.text for b in page.driver.find_elements(By.CSS_SELECTOR, "#renditions-menu [data-section='audio'] button")]
    assert labels == ["English", "Français"]
    page.driver.find_element(By.CSS_SELECTOR, "#renditions-menu [data-section='audio'] [data-value='audio-fr-1']").click()
    page.wait_for(lambda: page.js("return window.marquee.engine.audioIndex") == 1, "audio did not switch")
    before = page.current_time
    time.sleep(1.5)
    assert page.current_time > before + 0.8, "playback stalled after switching audio"
    assert page.js("return window.marquee.session.selectedAudio") == "audio-fr-1"


def test_japanese_browser_gets_the_japanese_ui(server, browser):
    driver = browser("ja")
    page = PlayerPage(driver, server, TOUR, "?autoplay=0")
    assert page.js("return document.documentElement.lang") == "ja"
    assert page.element("play-pause").get_attribute("aria-label") == "再生"
    assert page.element("skip-forward").get_attribute("aria-label") == "10秒進む"
    menu = page.open_overflow()
    assert "再生速度" in menu.text
    assert [i.get_attribute("aria-label") for i in speed_items(menu)] == ["0.5倍速", "標準速度", "1.25倍速", "1.5倍速", "2倍速"]
    driver.get(server.url + "/")
    page.wait_for(lambda: driver.find_element(By.ID, "library-title").text == "ライブラリ", "library is not in Japanese")


def test_an_ad_plays_at_its_time_and_cannot_be_skipped(server, driver):
    page = PlayerPage(driver, server, "Code Walkthrough", "?autoplay=0")
    assert page.js("return document.querySelectorAll('#timeline .markers span').length") == 1
    page.key("3")
    page.wait_until_seeked(6)
    page.key("k")
    page.wait_for(lambda: page.element("interstitial-video").is_displayed(), "the ad did not start", timeout=8)
    assert page.element("ad-badge").is_displayed()
    page.wait_for(lambda: page.js("return document.getElementById('interstitial-video').currentTime") > 0.5, "the ad is not playing")
    page.key("l")
    page.wait_for(lambda: page.element("toast").is_displayed(), "the refusal was not shown")
    assert page.js("return window.marquee.session.activeInterstitial !== null")
    page.wait_for(lambda: not page.element("interstitial-video").is_displayed(), "the feature did not resume", timeout=12)
    page.wait_for(lambda: page.current_time > 8.3 and not page.video("paused"), "the feature did not play on from 8 s")


def test_two_pages_on_one_asset_are_independent_sessions(server, browser):
    first = PlayerPage(browser(), server, TOUR)
    second = PlayerPage(browser(), server, TOUR)
    first.wait_for_status("playing")
    second.wait_for_status("playing")
    assert first.js("return window.marquee.session.id") != second.js("return window.marquee.session.id")
    first.key("k")
    first.wait_for(lambda: first.video("paused") is True, "first page did not pause")
    time.sleep(0.5)
    assert second.video("paused") is False


def test_unknown_asset_shows_what_failed(server, driver):
    driver.get(server.url + "/watch/does-not-exist")
    page_error = driver.find_element(By.ID, "error")
    from selenium.webdriver.support.ui import WebDriverWait
    WebDriverWait(driver, 10).until(lambda _: page_error.is_displayed())
    assert "does-not-exist" in driver.find_element(By.ID, "error-message").text
