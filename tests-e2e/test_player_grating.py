"""What still grated in the player and the library (issue 29, items 5–9 and 12), each as a
viewer meets it in headless Chromium with real mouse, touch and key input: the controls stay
under a resting pointer; a damaged file's card offers no Retry and one way out; fit and fill on
a desktop (a button) and a phone (double tap), a double click for full screen; the ad-break
editor's "Here" follows the playhead and its button leaves the player's keys alone, in
Japanese too; a refusal during an ad says why and for how long, and a 5 s ad counts down from
0:05; the library speaks `?lang=ja`, and `?speeds=0.75,abc` offers 1×."""
import re
import subprocess
import json
import time

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from conftest import ARTIFACTS, marquee_binary
from player_page import PlayerPage

TOUR = "Test Pattern Tour"  # 30 s, no breaks of its own
AD = "Sample Ad"            # 5 s


def centre(page, element_id):
    r = page.rect(element_id)
    return r["x"] + r["w"] / 2, r["y"] + r["h"] / 2


def click(page, x, y, count=1):
    page.mouse("mouseMoved", x, y)
    for n in range(1, count + 1):
        page.mouse("mousePressed", x, y, buttons=1, button="left", click_count=n)
        page.mouse("mouseReleased", x, y, button="left", click_count=n)


def phone(browser):
    driver = browser(width=390, height=844)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True})
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    return driver


@pytest.fixture
def breaks(server):
    """Adds ad breaks to the Tour; deletes them afterwards."""
    tour = server.asset(TOUR)["id"]
    added = []

    def add(**event):
        event.setdefault("content", {"assetID": server.asset(AD)["id"]})
        status, body = server.api("POST", f"/api/assets/{tour}/interstitials", event)
        assert status == 201, body
        added.append(body["id"])
        return body

    yield add
    _, listing = server.api("GET", f"/api/assets/{tour}/interstitials")
    for event in listing["events"]:
        server.api("DELETE", f"/api/assets/{tour}/interstitials/{event['id']}")


# MARK: 5. Controls under a resting pointer

def test_controls_stay_under_a_pointer_that_brought_them_back_onto_the_timeline(server, driver):
    page = PlayerPage(driver, server, TOUR)
    page.wait_for_status("playing")
    page.mouse("mouseMoved", 300, 200)
    page.wait_for(page.controls_hidden, "the controls never faded during playback", timeout=8)
    # One move onto where the (hidden) timeline is brings the controls back under the pointer,
    # which then rests there: they stay as long as it does.
    page.mouse("mouseMoved", *centre(page, "timeline"))
    page.wait_for(lambda: not page.controls_hidden(), "moving onto the timeline did not bring the controls back")
    time.sleep(4.5)  # past the 3 s idle time
    assert not page.controls_hidden(), "the controls hid under the pointer resting on the timeline"
    page.mouse("mouseMoved", *centre(page, "fullscreen-button"))
    time.sleep(4.5)
    assert not page.controls_hidden(), "the controls hid under the pointer resting on a button"
    page.mouse("mouseMoved", 300, 200)
    page.wait_for(page.controls_hidden, "the controls did not fade once the pointer left them", timeout=6)


# MARK: 6. A damaged file's card

def test_a_damaged_files_card_offers_no_retry_and_one_remove(server, driver, tmp_path):
    broken = tmp_path / "Broken Clip.mp4"
    broken.write_bytes(b"\x00\x00\x00\x18ftypmp42" + bytes(range(256)) * 64)
    added = subprocess.run([marquee_binary(), "add", "--data", server.data, "--queue-only", str(broken)],
                           capture_output=True, text=True, timeout=60)
    assert added.returncode == 0, added.stderr
    asset_id = json.loads(added.stdout.splitlines()[0])["id"]
    try:
        deadline = time.time() + 60
        while server.api("GET", f"/api/assets/{asset_id}")[1]["status"] != "failed" and time.time() < deadline:
            time.sleep(0.3)
        _, asset = server.api("GET", f"/api/assets/{asset_id}")
        assert asset["status"] == "failed" and asset["job"]["retryable"] is False, asset["job"]
        driver.get(server.url + "/")
        card = f".asset-card[data-asset-id='{asset_id}']"
        WebDriverWait(driver, 15).until(lambda d: d.find_elements(By.CSS_SELECTOR, f"{card} .job.failed"))
        element = driver.find_element(By.CSS_SELECTOR, card)
        assert "damaged" in element.text or "isn’t a video" in element.text, element.text
        assert element.find_elements(By.CSS_SELECTOR, ".retry") == [], "Retry cannot help a damaged file"
        buttons = [b.text for b in element.find_elements(By.CSS_SELECTOR, "button") if b.text in ("Remove", "Delete", "Remove from library")]
        assert buttons == ["Remove from library"], buttons
        element.find_element(By.CSS_SELECTOR, "button.delete").click()
        WebDriverWait(driver, 10).until(lambda d: not d.find_elements(By.CSS_SELECTOR, card))
        assert "Undo" in driver.find_element(By.CSS_SELECTOR, ".undo-toast").text
    finally:
        server.api("DELETE", f"/api/assets/{asset_id}?permanently=true")


# MARK: 7. Fit and fill

def test_fit_and_fill_by_button_on_a_desktop_and_a_double_click_goes_full_screen(server, driver):
    page = PlayerPage(driver, server, TOUR, "?autoplay=0")
    fit = lambda: page.js("return getComputedStyle(document.getElementById('video')).objectFit")  # noqa: E731
    button = page.element("gravity-button")
    assert button.get_attribute("aria-label") == "Fill the screen" and button.get_attribute("aria-pressed") == "false"
    click(page, *centre(page, "gravity-button"))
    page.wait_for(lambda: page.player_attr("data-gravity") == "fill", "the button did not fill")
    assert fit() == "cover" and button.get_attribute("aria-pressed") == "true"
    click(page, *centre(page, "gravity-button"))
    page.wait_for(lambda: page.player_attr("data-gravity") == "fit", "the button did not fit again")
    assert fit() == "contain"
    # A double click on the picture: full screen, and back.
    click(page, 300, 250, count=2)
    page.wait_for(lambda: page.js("return document.fullscreenElement?.id ?? null") == "player", "a double click did not go full screen")
    assert page.player_attr("data-gravity") == "fit", "a mouse's double click is full screen, not fill"
    r = page.rect("player")  # the full-screen page may be another size: a place on the picture, off the buttons
    click(page, r["x"] + r["w"] * 0.12, r["y"] + r["h"] * 0.4, count=2)
    page.wait_for(lambda: page.js("return document.fullscreenElement") is None, "a second double click did not leave full screen")


def test_a_double_tap_on_a_phone_switches_fit_and_fill_and_a_single_tap_still_plays(server, browser):
    page = PlayerPage(phone(browser), server, TOUR, "?autoplay=0")
    x, y = 195, 300
    page.tap(x, y)
    page.tap(x, y)
    page.wait_for(lambda: page.player_attr("data-gravity") == "fill", "a double tap did not fill")
    assert page.video("paused") is True, "a double tap is not two taps"
    page.tap(x, y)
    page.tap(x, y)
    page.wait_for(lambda: page.player_attr("data-gravity") == "fit", "a second double tap did not fit")
    r = page.rect("player")
    page.tap(r["x"] + r["w"] / 2, r["y"] + r["h"] / 2)
    page.wait_for(lambda: page.video("paused") is False, "a single tap in the centre did not play")
    assert page.player_attr("data-gravity") == "fit"


# MARK: 8. The ad-break editor

def test_the_break_editor_adds_at_the_time_when_pressed_and_leaves_the_player_keys_alone(server, driver, breaks):
    page = PlayerPage(driver, server, TOUR, "?autoplay=0")
    page.wait_for(lambda: page.element("ad-breaks-button").is_displayed(), "the owner was not offered the break editor")
    click(page, *centre(page, "ad-breaks-button"))  # focus stays on the button, as after any click
    page.wait_for(lambda: page.js("return !!document.querySelector('#ad-breaks form')"), "the editor did not open")
    here = lambda: page.js("return document.querySelector('#ad-breaks option[value=here]').textContent")  # noqa: E731
    assert here() == "Here (0:00)"
    assert page.js("return document.activeElement.id") == "ad-breaks-button"
    page.key("k")
    page.wait_for(lambda: page.video("paused") is False, "K did not play while the editor's button had focus")
    page.key("5")
    page.wait_for(lambda: 15 <= page.current_time < 17, "5 did not jump to 50 % while the editor's button had focus")
    page.key(" ")
    page.wait_for(lambda: page.video("paused") is True, "Space did not pause while the editor's button had focus")
    assert page.js("return document.getElementById('ad-breaks').hidden") is False, "Space pressed the button instead"
    at = page.current_time
    page.wait_for(lambda: here() == f"Here (0:{int(at):02d})", f"“Here” did not follow the playhead ({here()} at {at:.2f})")
    page.driver.find_element(By.CSS_SELECTOR, "#ad-breaks form button[type=submit]").click()
    page.wait_for(lambda: page.element("toast").text == "Ad break saved", "the break was not saved")
    _, listing = server.api("GET", f"/api/assets/{server.asset(TOUR)['id']}/interstitials")
    assert len(listing["events"]) == 1 and abs(listing["events"][0]["time"] - at) < 0.1, (listing["events"], at)


def test_the_break_editor_button_speaks_japanese(server, browser):
    page = PlayerPage(browser("ja-JP"), server, TOUR, "?autoplay=0")
    page.wait_for(lambda: page.element("ad-breaks-button").is_displayed(), "the owner was not offered the break editor")
    assert page.element("ad-breaks-button").text == "広告枠"


# MARK: 9. Refusals during an ad, and the countdown

def test_a_refused_seek_during_an_ad_says_when_it_can_be_skipped_and_a_5_s_ad_counts_from_0_05(server, driver, breaks):
    breaks(time=2, cue="none", restrictions={"skip": True, "jump": False},
           skipControl={"offset": 4, "labels": {"en": "Skip ad", "ja": "広告をスキップ"}})
    page = PlayerPage(driver, server, TOUR)
    page.wait_for(lambda: page.js("return !!window.marquee.session?.activeInterstitial"), "the break never started", timeout=15)
    seen = []
    deadline = time.time() + 1.5
    while time.time() < deadline:
        text = page.js("return document.getElementById('ad-badge').textContent")
        if text and text not in seen:
            seen.append(text)
        time.sleep(0.03)
    assert seen and seen[0] == "Ad · 0:05", f"the 5 s ad's countdown began at {seen}"
    page.key("l")  # forward 10 s: refused in a restricted ad
    page.wait_for(lambda: page.element("toast").is_displayed() and "skipped in" in page.element("toast").text, "no reason shown")
    message = page.element("toast").text
    assert re.fullmatch(r"Seeking is off during this ad\. Ads can be skipped in [1-4] s\.", message), message
    page.wait_for(lambda: page.js("return !document.getElementById('skip-ad-button').hidden"), "the skip button never came", timeout=8)
    page.key("l")
    page.wait_for(lambda: "The ad ends in" in page.element("toast").text, "no wait until the ad's end shown")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / "refusal-during-an-ad.png"))


# MARK: 12. Language and speeds in the address

def test_the_library_speaks_the_addresss_language(server, driver):
    driver.get(server.url + "/?lang=ja")
    WebDriverWait(driver, 15).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".asset-card")) >= 3)
    assert driver.execute_script("return document.documentElement.lang") == "ja"
    assert "ライブラリ" in driver.title or "ライブラリ" in driver.find_element(By.TAG_NAME, "h1").text
    driver.get(server.url + "/?lang=en")
    WebDriverWait(driver, 15).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".asset-card")) >= 3)
    assert driver.execute_script("return document.documentElement.lang") == "en"


def test_a_speed_list_without_1x_offers_it_too(server, driver):
    page = PlayerPage(driver, server, TOUR, "?autoplay=0&speeds=0.75,abc")
    page.wait_for(lambda: page.element("toast").is_displayed() and "abc" in page.element("toast").text, "no warning about “abc”")
    items = page.open_overflow().find_elements(By.CSS_SELECTOR, "[data-section='speed'] [role='menuitemradio']")
    assert [i.text for i in items] == ["0.75×", "1×"]
    assert [i.get_attribute("aria-checked") for i in items] == ["false", "true"], "plays at 1× until another speed is chosen"
    page.key(Keys.ESCAPE)
    page.key("k")
    page.wait_for(lambda: page.video("paused") is False and page.video("playbackRate") == 1, "did not play at 1×")
