"""Choosing the picture quality and "Stats for nerds" (issue 29, item 1), in Chromium and in
Firefox: the "…" menu offers Auto (naming the variant playing, "Auto (720p)") and each variant;
choosing 360p plays 360p pictures (the element's `videoHeight`) and holds them; Auto lets the
throughput choose again; the stats panel shows the variant, the buffer and frame counts moving,
and closes. Screenshots quality-menu-desktop.png and quality-menu-phone.png in artifacts/e2e."""
import re
import shutil
import time

import pytest
from selenium.webdriver.common.by import By

from conftest import ARTIFACTS
from player_page import PlayerPage

TOUR = "Test Pattern Tour"  # 30 s, 720p and 360p


def quality_items(page):
    return [(b.text.replace("\n", " "), b.get_attribute("aria-checked"), b.get_attribute("data-value"))
            for b in page.driver.find_elements(By.CSS_SELECTOR, "#overflow-menu [data-section='quality'] [role='menuitemradio']")]


def open_overflow(page):
    """Opens "…" as a person would during playback: a mouse move brings the controls back first."""
    page.mouse("mouseMoved", 640, 300)
    page.wait_for(lambda: not page.controls_hidden(), "the controls did not come back")
    return page.open_overflow()


def open_quality(page):
    open_overflow(page)
    return quality_items(page)


def variant_id(page, height):
    return page.js(f"return window.marquee.engine.variants.find((v) => v.height === {height}).id")


def choose(page, value):
    open_overflow(page)
    page.driver.find_element(By.CSS_SELECTOR, f"#overflow-menu [data-section='quality'] [data-value='{value}']").click()
    page.wait_for(lambda: not page.js("return !!document.getElementById('overflow-menu')"), "choosing did not close the menu")


def stat(page, key):
    return page.js(f"return document.querySelector('#stats-panel [data-stat={key}]').textContent")


def frames_shown(page):
    """The total of "dropped of total" in the stats panel."""
    return int(re.search(r"(\d+)$", stat(page, "dropped")).group(1))


def test_choosing_360p_plays_360p_pictures_and_auto_names_the_variant_playing(server, driver):
    page = PlayerPage(driver, server, TOUR)
    page.wait_for_status("playing")
    # Auto moves up to 720p on a loopback connection in a 1280×720 window.
    page.wait_for(lambda: page.video("videoHeight") == 720, f"Auto never played 720p (at {page.video('videoHeight')}p)", timeout=20)
    items = open_quality(page)
    assert [(label.split(" ")[0], checked) for label, checked, _ in items] == [("Auto", "true"), ("720p", "false"), ("360p", "false")], items
    assert items[0][0] == "Auto (720p)"
    # Each variant with its bit rate beside it.
    assert all(re.search(r"^\d+p \d+(\.\d)? (Mb|kb)/s$", label) for label, _, _ in items[1:]), items
    page.key("\ue00c")  # Escape

    choose(page, variant_id(page, 360))
    page.wait_for(lambda: page.video("videoHeight") == 360, f"choosing 360p did not show 360p pictures ({page.video('videoHeight')}p)")
    before = page.current_time
    page.wait_for(lambda: page.current_time > before + 2, "playback did not go on at 360p")
    assert page.video("videoHeight") == 360, "Auto took the quality back"
    assert page.video("paused") is False
    items = open_quality(page)
    assert [label.split(" ")[0] for label, checked, _ in items if checked == "true"] == ["360p"], items
    assert items[0][0] == "Auto", "Auto names no variant while a quality is chosen"
    page.key("\ue00c")

    choose(page, "auto")
    page.wait_for(lambda: page.video("videoHeight") == 720, "Auto did not go back up to 720p", timeout=25)
    assert open_quality(page)[0][:2] == ("Auto (720p)", "true")


def test_stats_for_nerds_shows_numbers_that_move_and_closes(server, driver):
    page = PlayerPage(driver, server, TOUR)
    page.wait_for_status("playing")
    open_overflow(page)
    page.driver.find_element(By.CSS_SELECTOR, "#overflow-menu [data-value='stats']").click()
    page.wait_for(lambda: page.js("return !document.getElementById('stats-panel').hidden"), "the stats panel did not open")
    assert page.element("stats-title").text == "Stats for nerds"
    page.wait_for(lambda: "Mb/s" in stat(page, "bandwidth") or "kb/s" in stat(page, "bandwidth"), "no bandwidth estimate")
    assert re.match(r"^\d+(\.\d)? s$", stat(page, "buffer")), stat(page, "buffer")
    assert re.match(r"^\d+ of \d+$", stat(page, "dropped")), stat(page, "dropped")
    assert "avc1." in stat(page, "codecs") and "mp4a." in stat(page, "codecs"), stat(page, "codecs")
    assert re.match(r"^\d+×\d+ · ", stat(page, "resolution")), stat(page, "resolution")
    assert stat(page, "choice") == "Auto"
    first = frames_shown(page)
    page.wait_for(lambda: frames_shown(page) > first + 10, "the frame count does not move while playing")
    choose(page, variant_id(page, 360))
    # Auto may already be on 360p: the panel (refreshed twice a second) must also say "Chosen".
    page.wait_for(lambda: stat(page, "variant").startswith("360p ·") and stat(page, "resolution").startswith("640×360")
                  and stat(page, "choice") == "Chosen",
                  f"the panel did not follow the chosen variant ({stat(page, 'variant')}, {stat(page, 'choice')})")
    page.element("stats-panel").find_element(By.CSS_SELECTOR, ".stats-close").click()
    page.wait_for(lambda: page.js("return document.getElementById('stats-panel').hidden"), "× did not close the panel")
    assert page.video("paused") is False, "closing the panel must not pause"


def test_japanese_quality_menu_and_stats(server, browser):
    page = PlayerPage(browser("ja-JP"), server, TOUR, "?autoplay=0")
    items = open_quality(page)
    titles = page.js("return [...document.querySelectorAll('#overflow-menu h3')].map((h) => h.textContent)")
    assert "画質" in titles, titles
    assert items[0][0].startswith("自動"), items
    page.driver.find_element(By.CSS_SELECTOR, "#overflow-menu [data-value='stats']").click()
    assert page.element("stats-title").text == "詳細統計情報"


def screenshot_menu(page, name):
    page.wait_for(lambda: page.video("videoHeight") > 0, "no picture")
    page.open_overflow()
    page.wait_for(lambda: page.js("return document.querySelector(\"#overflow-menu [data-section='quality']\") !== null"), "no quality section")
    page.js("document.querySelector(\"#overflow-menu [data-section='quality']\").scrollIntoView({block: 'nearest'})")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.driver.save_screenshot(str(ARTIFACTS / name))
    # The whole menu fits on the screen (it scrolls inside itself when it must).
    rect = page.js("const r = document.getElementById('overflow-menu').getBoundingClientRect();"
                   "return {top: r.top, bottom: r.bottom, vh: innerHeight};")
    assert rect["top"] >= 0 and rect["bottom"] <= rect["vh"], rect


def test_quality_menu_screenshots_on_desktop_and_phone(server, browser):
    desktop = PlayerPage(browser(), server, TOUR, "?autoplay=0")
    screenshot_menu(desktop, "quality-menu-desktop.png")
    driver = browser(width=390, height=844)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True})
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    phone = PlayerPage(driver, server, TOUR, "?autoplay=0")
    screenshot_menu(phone, "quality-menu-phone.png")
    assert (ARTIFACTS / "quality-menu-phone.png").stat().st_size > 10_000


# MARK: Firefox

firefox_only = pytest.mark.skipif(shutil.which("firefox-esr") is None, reason="firefox-esr is not installed")


@pytest.fixture(scope="module")
def firefox():
    from firefox_bidi import Firefox
    browser = Firefox.launch(width=1280, height=720)
    yield browser
    browser.quit()


@firefox_only
def test_firefox_plays_the_chosen_360p_and_shows_its_stats(server, firefox):
    tab = firefox.tab()
    tab.set_viewport(1280, 720)
    try:
        tab.navigate(f"{server.url}/watch/{server.asset(TOUR)['id']}")
        tab.wait_for("window.marquee?.session?.duration > 0 && document.getElementById('video').readyState >= 2", "the player did not load")
        tab.press_key("k")  # Firefox waits for a gesture before it plays
        tab.wait_for("document.getElementById('video').currentTime > 0.5", "playback never started")
        tab.wait_for("document.getElementById('video').videoHeight === 720", "Auto never played 720p", timeout=20)
        tab.click_element("#overflow-button")
        tab.wait_for("document.querySelector(\"#overflow-menu [data-value='auto']\") !== null", "no quality section")
        assert tab.evaluate("document.querySelector(\"#overflow-menu [data-value='auto']\").textContent") == "Auto (720p)"
        low = tab.evaluate("window.marquee.engine.variants.find((v) => v.height === 360).id")
        tab.click_element(f"#overflow-menu [data-value='{low}']")
        tab.wait_for("document.getElementById('video').videoHeight === 360", "choosing 360p did not show 360p pictures in Firefox")
        start = tab.evaluate("document.getElementById('video').currentTime")
        tab.wait_for(f"document.getElementById('video').currentTime > {start} + 1.5", "playback did not go on at 360p")
        assert tab.evaluate("document.getElementById('video').videoHeight") == 360
        tab.click_element("#overflow-button")
        tab.wait_for("document.querySelector(\"#overflow-menu [data-value='stats']\") !== null", "no stats item")
        tab.click_element("#overflow-menu [data-value='stats']")
        frames = "Number(document.querySelector('#stats-panel [data-stat=dropped]').textContent.match(/(\\d+)$/)[1])"
        tab.wait_for(f"{frames} > 0", "no frame count in Firefox")
        first = tab.evaluate(frames)
        tab.wait_for(f"{frames} > {first} + 10", "the frame count does not move in Firefox")
        assert tab.evaluate("document.querySelector('#stats-panel [data-stat=variant]').textContent").startswith("360p ·")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        tab.screenshot(ARTIFACTS / "firefox-quality-stats.png")
    finally:
        tab.navigate("about:blank")
