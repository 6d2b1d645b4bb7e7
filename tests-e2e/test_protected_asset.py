"""Marking an asset protected from the library (issue 12) in headless Chromium: the owner's
toggle on the asset's card saves it, the card shows a Protected badge, and the player's paused
frame of that asset gets no Live Text (no frame-text request at all); unprotected again, the
same paused frame shows its text. Screenshots go to artifacts/e2e."""
import time

from selenium.webdriver.common.by import By

from conftest import ARTIFACTS
from player_page import PlayerPage
from test_live_text import CODE, LINE, frame_text_requests, open_player, wait_for_live_text


def card_button(driver, asset_id):
    return driver.find_element(By.CSS_SELECTOR, f".asset-card[data-asset-id='{asset_id}'] button.protect")


def pressed(driver, asset_id):
    """The toggle's aria-pressed as the card shows it now (cards are replaced on every change)."""
    return driver.execute_script(
        "return document.querySelector(`.asset-card[data-asset-id='${arguments[0]}'] button.protect`)?.getAttribute('aria-pressed')", asset_id)


def set_protection_from_the_library(driver, server, asset_id, wanted):
    driver.get(server.url + "/")
    page = PlayerPage.__new__(PlayerPage)
    page.driver = driver
    page.wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, f".asset-card[data-asset-id='{asset_id}'] button.protect"),
                  "no protect control on the card")
    button = card_button(driver, asset_id)
    assert pressed(driver, asset_id) == str(not wanted).lower()
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()
    page.wait_for(lambda: pressed(driver, asset_id) == str(wanted).lower(),
                  "the toggle did not change")
    assert server.asset(CODE)["protected"] is wanted
    badge = driver.execute_script(
        "return document.querySelector(`.asset-card[data-asset-id='${arguments[0]}'] .protected-badge`)?.textContent ?? null", asset_id)
    assert (badge is not None) is wanted, badge
    if wanted:
        assert "Protected" in badge
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(ARTIFACTS / "protected-asset-card.png"))


def test_a_protected_assets_paused_frame_gets_no_live_text(server, driver):
    asset_id = server.asset(CODE)["id"]
    set_protection_from_the_library(driver, server, asset_id, True)
    try:
        page = open_player(driver, server, "?autoplay=0&t=2")
        assert page.js("return window.marquee.session.allowsVideoFrameAnalysis") is False
        time.sleep(2.5)  # well past the 0.5 s delay
        assert page.video("paused")
        assert frame_text_requests(page) == 0, "a protected asset's frame was analysed"
        assert page.js("return document.getElementById('player').dataset.liveText") != "true"
        assert page.js("return document.querySelector('.live-text-button').hidden")
        status, body = server.api("GET", f"/api/assets/{asset_id}/frame-text?time=2")
        assert status == 403 and "protected" in body["error"]["message"], body
    except BaseException:
        server.api("PUT", f"/api/assets/{asset_id}/protected", {"protected": False})  # leave the library as it was
        raise
    # Unprotected from the card again, the same paused frame shows its text.
    set_protection_from_the_library(driver, server, asset_id, False)
    page = open_player(driver, server, "?autoplay=0&t=2")
    wait_for_live_text(page)
    assert LINE in page.js("return window.marquee.liveText.result.text")
