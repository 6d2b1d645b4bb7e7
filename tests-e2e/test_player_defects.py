"""The player defects of issue 9 that a viewer meets first (3–7, 9–11), each shown in headless
Chromium with real pointer, touch and key input: a pinch after a swipe, the relative timeline
drag with the picture following it, on-screen volume, Space after a click, subtitles above the
controls, the info panel, ways out of errors and bad addresses, and the small things."""
import time
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from conftest import ARTIFACTS
from player_page import PlayerPage

TOUR = "Test Pattern Tour"


# MARK: Helpers

def desktop(browser):
    """A 1280 × 720 page with a mouse."""
    driver = browser(width=1280, height=720)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 1280, "height": 720, "deviceScaleFactor": 1, "mobile": False})
    return driver


def phone(browser):
    """A 390 × 844 touch phone: coarse pointer, no hover."""
    driver = browser(width=390, height=844)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True})
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    return driver


def snapshot(driver, name):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / f"{name}.png"))


def centre(page, element_id):
    r = page.rect(element_id)
    return r["x"] + r["w"] / 2, r["y"] + r["h"] / 2


def click(page, element_id):
    """A real mouse click in the middle of the element (focus moves as a person's click moves it)."""
    x, y = centre(page, element_id)
    page.mouse("mouseMoved", x, y)
    page.mouse("mousePressed", x, y, buttons=1, button="left", click_count=1)
    page.mouse("mouseReleased", x, y, button="left", click_count=1)


def tap(page, element_id):
    page.tap(*centre(page, element_id))


def hit(page, element_id):
    """Whether a press in the middle of the element lands on it (nothing covers it)."""
    return page.js("const r = document.getElementById(arguments[0]).getBoundingClientRect();"
                   "const e = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);"
                   "return !!e && e.closest('#' + arguments[0]) !== null;", element_id)


def scrubbing(page):
    return "scrubbing" in page.player_attr("class")


# MARK: 3. A pinch after a moving finger

def test_a_pinch_after_a_moving_finger_ends_the_swipe(server, driver):
    page = PlayerPage(driver, server, TOUR)
    page.wait_for_status("playing")
    page.wait_for(lambda: page.current_time > 1.0, "playback did not start")
    # One finger swipes far enough to scrub...
    page.touch("touchStart", [(400, 300)])
    for step in range(1, 7):
        page.touch("touchMove", [(400 + step * 15, 300)])
        time.sleep(0.02)
    assert scrubbing(page), "the swipe did not start scrubbing"
    # ...then a second finger lands and the two pinch.
    page.touch("touchStart", [(490, 300), (700, 300)])
    for step in range(1, 8):
        page.touch("touchMove", [(490 - step * 20, 300), (700 + step * 20, 300)])
        time.sleep(0.02)
    page.touch("touchEnd", [])
    page.wait_for(lambda: page.player_attr("data-gravity") == "fill", "the pinch did not fill")
    assert not scrubbing(page), "still in scrub mode after the pinch"
    assert not page.element("scrub-preview").is_displayed(), "the scrub preview is still up"
    # The clock runs with the video again.
    page.wait_for(lambda: not page.video("paused"), "playback did not carry on")
    before_clock, before_video = page.timeline_time, page.current_time
    time.sleep(1.2)
    assert page.current_time > before_video + 0.6
    assert page.timeline_time > before_clock + 0.6, "the clock is frozen while the video plays"
    page.wait_for(lambda: not page.controls_hidden(), "the controls did not come back", timeout=2)


# MARK: 4. The timeline drag is relative, and the picture follows it

def test_timeline_press_keeps_the_playhead_and_a_drag_moves_it_by_the_distance(server, driver):
    page = PlayerPage(driver, server, TOUR, "?autoplay=0")
    page.key("2")
    page.wait_until_seeked(6, tolerance=0.1)
    bar = page.rect("timeline")
    y = bar["y"] + bar["h"] / 2
    x0 = bar["x"] + bar["w"] * 0.8        # far from the playhead at 20 %
    page.mouse("mouseMoved", x0, y)
    page.mouse("mousePressed", x0, y, buttons=1, button="left", click_count=1)
    time.sleep(0.2)
    assert abs(page.timeline_time - 6) < 0.05, f"a press moved the playhead to {page.timeline_time}"
    assert abs(page.current_time - 6) < 0.05
    # Drag right by 20 % of the bar: 6 s further on a 30 s item.
    x1 = x0 + bar["w"] * 0.2
    for i in range(1, 13):
        page.mouse("mouseMoved", x0 + (x1 - x0) * i / 12, y, buttons=1, button="left")
        time.sleep(0.02)
    assert scrubbing(page)
    assert abs(page.timeline_time - 12) < 0.3, f"the drag put the playhead at {page.timeline_time}"
    assert page.js("return document.querySelector('#scrub-preview .thumbnail').dataset.tile") == "12"
    # Before release, the picture itself has moved to the keyframe at the target.
    page.wait_for(lambda: abs(page.current_time - 12) < 0.05 and not page.video("seeking") and page.video("readyState") >= 2,
                  f"the picture did not follow the drag (at {page.current_time})", timeout=5)
    page.mouse("mouseReleased", x1, y, button="left", click_count=1)
    page.wait_until_seeked(12, tolerance=0.3)
    assert not scrubbing(page)
    assert page.video("paused") is True
    # A click without a drag seeks to the point clicked.
    x = bar["x"] + bar["w"] * 0.25
    page.mouse("mouseMoved", x, y)
    page.mouse("mousePressed", x, y, buttons=1, button="left", click_count=1)
    page.mouse("mouseReleased", x, y, button="left", click_count=1)
    page.wait_until_seeked(7.5, tolerance=0.4)


def test_the_picture_follows_a_scrub_during_playback_and_playback_goes_on(server, driver):
    page = PlayerPage(driver, server, TOUR)
    page.wait_for_status("playing")
    page.wait_for(lambda: page.current_time > 0.5, "playback did not start")
    bar = page.rect("timeline")
    y = bar["y"] + bar["h"] / 2
    x0 = bar["x"] + bar["w"] * 0.3
    page.mouse("mouseMoved", x0, y)
    page.mouse("mousePressed", x0, y, buttons=1, button="left", click_count=1)
    start = page.timeline_time
    shown = []
    for i in range(1, 21):  # 50 % of the bar, slowly: 15 s over about a second
        page.mouse("mouseMoved", x0 + bar["w"] * 0.5 * i / 20, y, buttons=1, button="left")
        time.sleep(0.05)
        shown.append(page.current_time)
    target = page.timeline_time
    assert abs(target - (start + 15)) < 0.5
    # Frames were shown on the way (keyframes every 2 s), not just at the end.
    assert len({round(t) for t in shown if t > start + 1.5}) >= 3, f"picture times during the drag: {shown}"
    page.mouse("mouseReleased", x0 + bar["w"] * 0.5, y, button="left", click_count=1)
    page.wait_until_seeked(target, tolerance=0.6)
    page.wait_for(lambda: not page.video("paused"), "playback did not go on after the scrub")
    before = page.current_time
    time.sleep(0.8)
    assert page.current_time > before + 0.4
    assert page.player_attr("data-status") == "playing"


# MARK: 5. Volume and mute on screen

def volume(page):
    return page.video("volume")


def test_volume_and_mute_with_the_mouse_and_keyboard_and_remembered(server, browser):
    driver = desktop(browser)
    page = PlayerPage(driver, server, TOUR, "?autoplay=0")
    button, slider = page.element("mute-button"), page.element("volume-slider")
    assert button.is_displayed() and slider.is_displayed()
    assert button.get_attribute("aria-label") == "Mute"
    assert slider.get_attribute("aria-label") == "Volume"
    r = page.rect("mute-button")
    assert r["w"] >= 44 and r["h"] >= 44 and r["x"] + r["w"] <= 1280
    click(page, "mute-button")
    page.wait_for(lambda: page.video("muted") is True, "the mute button did not mute")
    # The button shows the state from the video's volumechange event, dispatched a moment later.
    page.wait_for(lambda: button.get_attribute("aria-pressed") == "true", "the mute button did not show as pressed")
    click(page, "mute-button")
    page.wait_for(lambda: page.video("muted") is False, "the mute button did not unmute")
    # Drag the slider down to about 30 %.
    s = page.rect("volume-slider")
    y = s["y"] + s["h"] / 2
    page.drag((s["x"] + s["w"] - 3, y), (s["x"] + s["w"] * 0.3, y))
    page.wait_for(lambda: abs(volume(page) - 0.3) < 0.1, f"the slider did not set the volume ({volume(page)})")
    assert slider.get_attribute("aria-valuetext") == f"{round(volume(page) * 100)}%"
    snapshot(driver, "volume-desktop")
    # Reached with Tab, the slider takes arrow keys.
    level = volume(page)
    page.js("document.activeElement.blur()")
    for _ in range(30):
        if page.js("return document.activeElement?.id") == "volume-slider":
            break
        page.key(Keys.TAB)
    assert page.js("return document.activeElement?.id") == "volume-slider"
    page.key(Keys.ARROW_LEFT)
    page.wait_for(lambda: abs(volume(page) - (level - 0.05)) < 0.01, "the arrow key did not lower the volume")
    level = volume(page)
    page.key("m")
    page.wait_for(lambda: button.get_attribute("aria-pressed") == "true", "M did not show as muted")
    # The next page remembers level and mute.
    page = PlayerPage(driver, server, TOUR, "?autoplay=0")
    assert abs(volume(page) - level) < 0.01
    assert page.video("muted") is True
    assert page.element("mute-button").get_attribute("data-level") == "muted"


def test_volume_on_a_touch_phone(server, browser):
    driver = phone(browser)
    driver.get(server.url + "/")
    driver.execute_script("localStorage.clear()")
    page = PlayerPage(driver, server, TOUR, "?autoplay=0")
    assert page.element("mute-button").is_displayed() and page.element("volume-slider").is_displayed()
    s = page.rect("volume-slider")
    assert s["x"] >= 0 and s["x"] + s["w"] <= 390 and s["h"] >= 44
    tap(page, "mute-button")
    page.wait_for(lambda: page.video("muted") is True, "a tap did not mute")
    tap(page, "mute-button")
    page.wait_for(lambda: page.video("muted") is False, "a tap did not unmute")
    y = s["y"] + s["h"] / 2
    page.touch("touchStart", [(s["x"] + s["w"] - 4, y)])
    for i in range(1, 9):
        page.touch("touchMove", [(s["x"] + s["w"] - 4 - (s["w"] * 0.6) * i / 8, y)])
    page.touch("touchEnd", [])
    page.wait_for(lambda: volume(page) < 0.6, f"a touch drag did not lower the volume ({volume(page)})")
    snapshot(driver, "volume-phone")


# MARK: 6. Space plays and pauses after a click on a control

def test_space_plays_and_pauses_after_clicking_a_control(server, driver):
    page = PlayerPage(driver, server, TOUR, "?autoplay=0")
    captions = page.element("captions-button")
    click(page, "captions-button")
    page.wait_for(lambda: captions.get_attribute("aria-pressed") == "true", "subtitles did not switch on")
    page.key(" ")
    page.wait_for(lambda: page.video("paused") is False, "Space did not play after clicking the subtitles button")
    assert captions.get_attribute("aria-pressed") == "true", "Space toggled subtitles"
    page.key(" ")
    page.wait_for(lambda: page.video("paused") is True, "Space did not pause")
    # After choosing a speed with the mouse, Space neither re-opens the menu nor misses.
    click(page, "overflow-button")
    page.wait_for(lambda: page.js("return !!document.getElementById('overflow-menu')"), "menu did not open")
    item = driver.find_element(By.CSS_SELECTOR, "#overflow-menu [data-section='speed'] [data-value='1.5']")
    x, y = item.location["x"] + item.size["width"] / 2, item.location["y"] + item.size["height"] / 2
    page.mouse("mouseMoved", x, y)
    page.mouse("mousePressed", x, y, buttons=1, button="left", click_count=1)
    page.mouse("mouseReleased", x, y, button="left", click_count=1)
    page.wait_for(lambda: page.player_attr("data-selected-speed") == "1.5", "speed not chosen")
    page.key(" ")
    page.wait_for(lambda: page.video("paused") is False, "Space did not play after choosing a speed")
    time.sleep(0.3)
    assert not page.js("return !!document.getElementById('overflow-menu')"), "Space re-opened the speed menu"
    assert page.video("playbackRate") == 1.5
    # A keyboard user who tabs to a button still presses it with Space.
    page.key("k")
    page.wait_for(lambda: page.video("paused") is True, "K did not pause")
    for _ in range(30):
        if page.js("return document.activeElement?.id") == "captions-button":
            break
        page.key(Keys.TAB)
    assert page.js("return document.activeElement?.id") == "captions-button"
    page.key(" ")
    page.wait_for(lambda: captions.get_attribute("aria-pressed") == "false", "Space did not press the focused button")
    assert page.video("paused") is True


# MARK: 7. Subtitles move above the controls

def _cue_displays(node, found):
    attributes = node.get("attributes") or []
    if "pseudo" in attributes and attributes[attributes.index("pseudo") + 1] == "-webkit-media-text-track-display":
        found.append(node)
    for key in ("children", "shadowRoots"):
        for child in node.get(key) or []:
            _cue_displays(child, found)
    return found


def cue_boxes(driver):
    """Top and bottom of every cue Chromium draws (inside the video's user-agent shadow tree)."""
    root = driver.execute_cdp_cmd("DOM.getDocument", {"depth": -1, "pierce": True})["root"]
    boxes = []
    for node in _cue_displays(root, []):
        try:
            quad = driver.execute_cdp_cmd("DOM.getBoxModel", {"backendNodeId": node["backendNodeId"]})["model"]["border"]
        except Exception:
            continue  # not laid out
        boxes.append((quad[1], quad[5]))
    return boxes


def bar_top(page):
    return page.js("return document.querySelector('.bottom-bar').getBoundingClientRect().top")


def check_cues_clear_the_controls(page, driver, name):
    page.element("captions-button").click()
    page.wait_for(lambda: page.js("return document.getElementById('video').textTracks[0].mode") == "showing", "subtitles did not show")
    page.key("k")
    page.wait_for(lambda: page.js("const c = document.getElementById('video').textTracks[0].activeCues; return !!(c && c.length)"),
                  "no cue showed")
    page.key("k")  # paused: the controls stay
    page.wait_for(lambda: page.video("paused") is True, "did not pause")
    page.wait_for(lambda: len(cue_boxes(driver)) == 1 and cue_boxes(driver)[0][1] <= bar_top(page),
                  f"the cue {cue_boxes(driver)} runs under the controls at {bar_top(page)}", timeout=3)
    snapshot(driver, f"subtitles-{name}-controls-shown")
    return cue_boxes(driver)[0]


def test_subtitles_move_above_the_controls_and_back(server, browser):
    driver = desktop(browser)
    page = PlayerPage(driver, server, TOUR, "?autoplay=0")
    raised = check_cues_clear_the_controls(page, driver, "desktop")
    # Playing with the pointer away, the controls fade and the cue goes back to the bottom.
    page.mouse("mouseMoved", 640, 200)
    page.key("k")
    page.wait_for(page.controls_hidden, "the controls did not fade", timeout=8)
    page.wait_for(lambda: cue_boxes(driver) and cue_boxes(driver)[0][1] > raised[1] + 40,
                  f"the cue did not move back down ({cue_boxes(driver)})", timeout=3)
    snapshot(driver, "subtitles-desktop-controls-hidden")


def test_subtitles_clear_the_controls_on_a_phone(server, browser):
    driver = phone(browser)
    page = PlayerPage(driver, server, TOUR, "?autoplay=0")
    check_cues_clear_the_controls(page, driver, "phone")


# MARK: 9. The info panel

LONG = "\n\n".join(f"Paragraph {n}. " + "A long description that goes on and on about the test pattern. " * 6 for n in range(1, 13))


def check_info_panel(page, scroll):
    page.tap(*centre(page, "info-button")) if scroll == "touch" else click(page, "info-button")
    page.wait_for(lambda: page.element("info-panel").is_displayed(), "the info panel did not open")
    panel = page.rect("info-panel")
    height = page.js("return innerHeight")
    assert panel["y"] + panel["h"] <= min(height, bar_top(page)) + 1, f"the panel runs off the bottom: {panel}"
    assert page.js("const p = document.getElementById('info-panel'); return p.scrollHeight > p.clientHeight + 100"), "nothing to scroll"
    scroll_before = page.js("return document.getElementById('info-panel').scrollTop")
    x, y = panel["x"] + panel["w"] / 2, panel["y"] + panel["h"] / 2
    if scroll == "wheel":
        page.mouse("mouseMoved", x, y)
        page.wheel(x, y, 400)
    else:
        page.touch("touchStart", [(x, y + 100)])
        for i in range(1, 11):
            page.touch("touchMove", [(x, y + 100 - i * 25)])
            time.sleep(0.016)
        page.touch("touchEnd", [])
    page.wait_for(lambda: page.js("return document.getElementById('info-panel').scrollTop") > scroll_before + 50,
                  "the long description did not scroll", timeout=3)
    assert page.element("info-panel").is_displayed(), "scrolling closed the panel"
    assert page.element("info-description").text.startswith("Paragraph 1.")
    r = page.rect("info-button")
    assert r["w"] >= 44 and r["h"] >= 44, f"the chevron's hit area is {r['w']:.0f} × {r['h']:.0f}"
    assert hit(page, "info-button")


def test_a_long_description_scrolls_and_the_chevron_is_easy_to_hit(server, browser):
    portrait = server.asset("Portrait Clip")
    status, _ = server.api("PUT", f"/api/assets/{portrait['id']}/metadata", {"description": LONG})
    assert status == 200
    try:
        driver = desktop(browser)
        page = PlayerPage(driver, server, "Portrait Clip", "?autoplay=0")
        check_info_panel(page, "wheel")
        snapshot(driver, "info-panel-desktop")
        driver = phone(browser)
        page = PlayerPage(driver, server, "Portrait Clip", "?autoplay=0")
        check_info_panel(page, "touch")
        snapshot(driver, "info-panel-phone")
        # A tap outside still closes it.
        page.tap(200, 780)
        page.wait_for(lambda: not page.element("info-panel").is_displayed(), "a tap outside did not close the panel")
    finally:
        server.api("PUT", f"/api/assets/{portrait['id']}/metadata", {})


# MARK: 10. No dead ends

def test_a_failed_player_keeps_the_way_back(server, driver):
    driver.get(server.url + "/watch/does-not-exist")
    page_error = driver.find_element(By.ID, "error")
    WebDriverWait(driver, 10).until(lambda _: page_error.is_displayed())
    page = PlayerPage.__new__(PlayerPage)
    page.driver = driver
    assert hit(page, "back"), "the error overlay covers the back button"
    back = driver.find_element(By.ID, "error-back")
    assert back.is_displayed() and back.text == "Back to Library"
    assert hit(page, "error-back")
    click(page, "back")
    WebDriverWait(driver, 10).until(lambda d: d.current_url.rstrip("/") == server.url)
    WebDriverWait(driver, 10).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".asset-card")) >= 3)


def test_bad_speeds_in_the_address_are_ignored_with_a_warning(server, driver):
    page = PlayerPage(driver, server, TOUR, "?autoplay=0&speeds=0.5,abc,2,40")
    assert not page.element("error").is_displayed()
    page.wait_for(lambda: page.element("toast").is_displayed() and "abc" in page.element("toast").text, "no warning shown")
    assert "“40”" in page.element("toast").text
    items = page.open_overflow().find_elements(By.CSS_SELECTOR, "[data-section='speed'] [role='menuitemradio']")
    assert [i.text for i in items] == ["0.5×", "1×", "2×"]  # normal speed is always offered (issue 29)
    page.key(Keys.ESCAPE)
    page.wait_for(lambda: not page.js("return !!document.getElementById('overflow-menu')"), "Escape did not close the menu")
    page.key("k")
    page.wait_for(lambda: not page.video("paused"), "the player does not play")
    # Nothing usable: the usual list.
    page = PlayerPage(driver, server, TOUR, "?autoplay=0&speeds=fast")
    items = page.open_overflow().find_elements(By.CSS_SELECTOR, "[data-section='speed'] [role='menuitemradio']")
    assert [i.get_attribute("data-value") for i in items] == ["0.5", "1", "1.25", "1.5", "2"]


# MARK: 11. Minor

def test_controls_stay_while_the_pointer_rests_on_them(server, driver):
    page = PlayerPage(driver, server, TOUR)
    page.wait_for_status("playing")
    page.mouse("mouseMoved", *centre(page, "skip-forward"))
    time.sleep(4.5)
    assert not page.controls_hidden(), "the controls hid under the resting pointer"
    page.mouse("mouseMoved", 200, 250)
    page.wait_for(page.controls_hidden, "the controls did not fade once the pointer left them", timeout=6)


def test_the_scrub_time_label_sits_above_the_bar(server, browser):
    for driver in (desktop(browser), phone(browser)):
        page = PlayerPage(driver, server, TOUR, "?autoplay=0")
        bar = page.rect("timeline")
        y = bar["y"] + bar["h"] / 2
        x0 = bar["x"] + bar["w"] * 0.1
        page.mouse("mouseMoved", x0, y)
        page.mouse("mousePressed", x0, y, buttons=1, button="left", click_count=1)
        for i in range(1, 9):
            page.mouse("mouseMoved", x0 + bar["w"] * 0.3 * i / 8, y, buttons=1, button="left")
        assert page.element("scrub-preview").is_displayed()
        label = page.js("const r = document.querySelector('#scrub-preview .scrub-time').getBoundingClientRect(); return {top: r.top, bottom: r.bottom};")
        assert label["bottom"] <= bar["y"], f"the time label ({label}) overlaps the bar (top {bar['y']})"
        snapshot(driver, f"scrub-label-{'desktop' if bar['w'] > 600 else 'phone'}")
        page.mouse("mouseReleased", x0 + bar["w"] * 0.3, y, button="left", click_count=1)


def test_every_page_has_an_icon(server, driver):
    player_url = f"{server.url}/watch/{server.asset(TOUR)['id']}"
    for url in (server.url + "/", player_url):
        driver.get(url)
        href = driver.execute_script("return document.querySelector('link[rel~=\"icon\"]')?.href")
        assert href, f"{url} names no icon"
        with urllib.request.urlopen(href, timeout=5) as response:
            assert response.status == 200
            assert response.headers["content-type"].startswith("image/")
    # Pages that name none (and browsers that ask anyway) get one at the usual place.
    with urllib.request.urlopen(server.url + "/favicon.ico", timeout=5) as response:
        assert response.status == 200
        assert response.headers["content-type"] == "image/png"
        assert response.read(8) == b"\x89PNG\r\n\x1a\n"


def test_badges_are_in_the_page_language(server, browser):
    driver = browser("ja")
    driver.get(server.url + "/")
    # Read in one script: cards are redrawn as events arrive, so a found element can go stale.
    WebDriverWait(driver, 10).until(lambda d: d.execute_script(
        "return [...document.querySelectorAll('.asset-card')].some((c) => c.innerText.includes(arguments[0]))", TOUR))
    badges = driver.execute_script(
        "const card = [...document.querySelectorAll('.asset-card')].find((c) => c.innerText.includes(arguments[0]));"
        "return [...card.querySelectorAll('.badge')].map((b) => b.innerText)", TOUR)
    assert "多言語" in badges and "Multilingual" not in badges, badges


def test_keyboard_shortcuts_are_not_offered_on_touch_phones(server, browser):
    page = PlayerPage(phone(browser), server, TOUR, "?autoplay=0")
    tap(page, "overflow-button")
    page.wait_for(lambda: page.js("return !!document.getElementById('overflow-menu')"), "menu did not open")
    assert "playback speed" in page.element("overflow-menu").text.lower()
    assert "keyboard shortcuts" not in page.element("overflow-menu").text.lower()
    snapshot(page.driver, "overflow-phone")
    # With a mouse and keyboard they are.
    page = PlayerPage(desktop(browser), server, TOUR, "?autoplay=0")
    assert "keyboard shortcuts" in page.open_overflow().text.lower()


def test_the_hidden_ad_never_shows_in_search(server, driver):
    ad = next(a for a in server.api("GET", "/api/assets")[1]["assets"] if a["role"] == "interstitial")
    driver.get(server.url + "/")
    WebDriverWait(driver, 10).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".asset-card")) == 3)
    driver.find_element(By.ID, "search").send_keys(ad["title"])
    WebDriverWait(driver, 5).until(lambda d: ad["title"] in d.find_element(By.ID, "library-status").text)
    assert driver.find_elements(By.CSS_SELECTOR, ".asset-card") == []
    search = driver.find_element(By.ID, "search")
    search.clear()
    search.send_keys("Sample")
    WebDriverWait(driver, 5).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".asset-card")) == 3)
    assert ad["title"] not in driver.find_element(By.ID, "assets").text
