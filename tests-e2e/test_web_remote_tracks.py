"""The web remote's volume, audio and subtitle controls (issue 14): a TV window plays the
sample tour (English and French audio, English subtitles) and a phone-sized /remote page,
paired by code, lists what the TV's item offers and changes the TV page's audio track,
subtitles and volume through the session; a volume change made on the TV page itself shows on
the phone. Screenshot web-remote-tracks.png in artifacts/e2e."""
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import ARTIFACTS
from player_page import PlayerPage
from test_web_remote import TOUR, pair_phone, visible


def choose(phone, select_id, value):
    phone.execute_script(
        "const s = document.getElementById(arguments[0]); s.value = arguments[1]; s.dispatchEvent(new Event('change'));",
        select_id, value)


def set_range(phone, range_id, value):
    phone.execute_script(
        "const r = document.getElementById(arguments[0]); r.value = arguments[1];"
        "r.dispatchEvent(new Event('input')); r.dispatchEvent(new Event('change'));", range_id, str(value))


def test_the_web_remote_changes_the_tvs_audio_subtitles_and_volume(server, browser):
    tv = browser()
    phone = browser(width=390, height=844)
    paired_id = None
    try:
        page = PlayerPage(tv, server, TOUR, "?autoplay=0")
        page.wait_for(lambda: page.js("return window.marquee.session?.audio?.length") == 2, "the tour has no two audio tracks")
        wait = WebDriverWait(phone, 20, poll_frequency=0.1)
        pending = pair_phone(server, phone, wait)
        paired_id = next(d["id"] for d in server.api("GET", "/api/devices")[1]["paired"] if d["fingerprint"] == pending["fingerprint"])
        wait.until(lambda d: d.find_element(By.ID, "now-title").text == TOUR)

        # The pickers list exactly what the TV's item offers, with the session's choice selected.
        session = page.js("return window.marquee.session")
        wait.until(lambda d: visible(d, "audio-row") and visible(d, "subtitles-row") and visible(d, "volume-row"))
        audio = phone.execute_script("return [...document.getElementById('audio').options].map(o => [o.value, o.text])")
        assert audio == [[o["id"], o["name"]] for o in session["audio"]]
        assert phone.find_element(By.ID, "audio").get_attribute("value") == session["selectedAudio"]
        subtitles = phone.execute_script("return [...document.getElementById('subtitles').options].map(o => [o.value, o.text])")
        assert subtitles == [["", "Off"]] + [[o["id"], o["name"]] for o in session["subtitles"]]
        assert phone.find_element(By.ID, "subtitles").get_attribute("value") == ""
        assert phone.find_element(By.ID, "audio-label").text == "Audio"

        # French audio: the TV's MSE engine switches to the second track.
        french = next(o["id"] for o in session["audio"] if o["language"] == "fr")
        choose(phone, "audio", french)
        page.wait_for(lambda: page.js("return window.marquee.session.selectedAudio") == french, "the TV's session kept its audio")
        page.wait_for(lambda: page.js("return window.marquee.engine.audioIndex") == 1, "the TV did not switch its audio track")
        wait.until(lambda d: d.find_element(By.ID, "audio").get_attribute("value") == french)

        # Subtitles on, then off: the TV's text track shows and hides.
        english = session["subtitles"][0]["id"]
        choose(phone, "subtitles", english)
        page.wait_for(lambda: page.js("return document.getElementById('video').textTracks[0].mode") == "showing",
                      "the TV did not show the subtitles")
        assert page.js("return window.marquee.session.selectedSubtitles") == english
        wait.until(lambda d: d.find_element(By.ID, "subtitles").get_attribute("value") == english)

        # Volume: the slider sets the TV page's level; mute mutes it; the TV's own slider shows both.
        set_range(phone, "remote-volume", 0.3)
        page.wait_for(lambda: abs(page.video("volume") - 0.3) < 0.01 and page.video("muted") is False, "the TV's volume did not change")
        page.wait_for(lambda: abs(float(page.js("return document.getElementById('volume-slider').value")) - 0.3) < 0.01,
                      "the TV's volume slider does not show the new level")
        wait.until(lambda d: d.find_element(By.ID, "volume-level").text == "30%")
        phone.find_element(By.ID, "remote-mute").click()
        page.wait_for(lambda: page.video("muted") is True, "the TV did not mute")
        page.wait_for(lambda: page.js("return document.getElementById('mute-button').getAttribute('aria-pressed')") == "true",
                      "the TV's mute button does not show muted")
        wait.until(lambda d: d.find_element(By.ID, "remote-mute").get_attribute("aria-pressed") == "true")
        phone.save_screenshot(str(ARTIFACTS / "web-remote-tracks.png"))
        phone.find_element(By.ID, "remote-mute").click()
        page.wait_for(lambda: page.video("muted") is False and abs(page.video("volume") - 0.3) < 0.01, "the TV did not unmute at its level")

        # The viewer at the TV turns it up with the page's own control: the phone follows.
        page.js("document.getElementById('video').volume = 0.8")
        wait.until(lambda d: d.find_element(By.ID, "volume-level").text == "80%")
        assert abs(float(phone.find_element(By.ID, "remote-volume").get_attribute("value")) - 0.8) < 0.01

        choose(phone, "subtitles", "")
        page.wait_for(lambda: page.js("return document.getElementById('video').textTracks[0].mode") != "showing",
                      "the TV did not hide the subtitles")
        tv.save_screenshot(str(ARTIFACTS / "web-remote-tracks-tv.png"))
    finally:
        if paired_id:
            server.api("DELETE", f"/api/devices/{paired_id}")
        try:
            tv.execute_script("localStorage.removeItem('marquee.volume')")
        except Exception:
            pass


def test_the_web_remote_pickers_in_japanese(server, browser):
    phone = browser("ja-JP", width=390, height=844)
    phone.get(server.url + "/remote")
    # The controls are hidden until paired: read the labels' text directly.
    WebDriverWait(phone, 20).until(lambda d: d.find_element(By.ID, "audio-label").get_attribute("textContent") == "音声")
    assert phone.find_element(By.ID, "subtitles-label").get_attribute("textContent") == "字幕"
    assert phone.find_element(By.ID, "remote-volume").get_attribute("aria-label") == "音量"
