"""The session decides, the page draws (issue 11): the skip interval comes from the player
setting through the session, the controls a break forbids are disabled because the session's
`permissions` say so, and blocked autoplay is reported to the session, which pauses."""
import os

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from conftest import ARTIFACTS
from player_page import PlayerPage

TOUR = "Test Pattern Tour"
CODE = "Code Walkthrough"


def test_the_stored_skip_interval_moves_buttons_keys_and_labels(server, driver):
    status, body = server.api("PUT", "/api/settings/player", {"skipInterval": 7})
    assert status == 200, body
    try:
        page = PlayerPage(driver, server, TOUR, "?autoplay=0")
        assert page.js("return window.marquee.session.permissions.skipInterval") == 7
        assert page.element("skip-forward").get_attribute("aria-label") == "Forward 7 seconds"
        page.element("skip-forward").click()
        page.wait_until_seeked(7)
        page.key("l")
        page.wait_until_seeked(14)
        page.key("j")
        page.wait_until_seeked(7)
        status, state = server.api("POST", f"/api/sessions/{page.js('return window.marquee.session.id')}/intents",
                                   {"intent": "skip-interval", "direction": 1})
        assert status == 200 and state["state"]["currentTime"] == 14, state
    finally:
        server.api("PUT", "/api/settings/player", {"speeds": None})


def test_a_restricted_break_disables_what_the_session_forbids(server, driver):
    page = PlayerPage(driver, server, CODE, "?autoplay=0")
    assert page.js("return window.marquee.session.permissions.canSeek") is True
    assert page.element("skip-forward").is_enabled()
    page.key("3")
    page.wait_until_seeked(6)
    page.key("k")
    page.wait_for(lambda: page.js("return window.marquee.session.activeInterstitial != null"), "the break did not start", timeout=8)
    allowed = page.js("return window.marquee.session.permissions")
    assert allowed["canSeek"] is False and allowed["canChangeRate"] is False and allowed["canSkipInterstitial"] is False
    assert not page.element("skip-forward").is_enabled() and not page.element("skip-back").is_enabled()
    assert page.player_attr("data-can-seek") == "false"
    page.wait_for(lambda: page.js("return window.marquee.session.activeInterstitial == null"), "the break did not end", timeout=15)
    page.wait_for(lambda: page.element("skip-forward").is_enabled(), "the skip buttons stayed disabled")


def test_blocked_autoplay_is_the_sessions_to_handle(server, request):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                     "--disable-sync", "--disable-default-apps", "--window-size=1280,720", "--lang=en-US",
                     "--autoplay-policy=document-user-activation-required"]:
        options.add_argument(argument)
    if os.geteuid() == 0:
        options.add_argument("--no-sandbox")
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        page = PlayerPage(driver, server, TOUR)  # asks to play at once, with sound, without a gesture
        page.wait_for(lambda: page.js("return window.marquee.session?.autoplayBlocked === true"), "blocked autoplay was not reported")
        state = page.js("return window.marquee.session")
        assert state["desiresPlayback"] is False and state["status"] == "paused"
        assert page.element("play-pause").get_attribute("aria-label") == "Play"
        assert page.video("paused") is True
    finally:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(ARTIFACTS / f"{request.node.name}.png"))
        driver.quit()
