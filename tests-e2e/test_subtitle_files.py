"""Subtitle files added to an item (issue 29, item 2), as a person would add them: a sidecar
`clip.en.srt` next to the file is picked up when the file is added; in the edit sheet a
Japanese SubRip file with the label 日本語 is added, the player's subtitle menu offers it and
choosing it shows its cue on screen while its time runs; an ASS file keeps its italics; a file
dropped on the item's card is added to that item; a file that is no subtitles gets a sentence;
Firefox offers and shows the added rendition too. Screenshots subtitle-editor-desktop.png and
subtitle-editor-phone.png in artifacts/e2e.

The test runs its own `marquee serve` (an empty library and one clip it makes), so the shared
sample library keeps its renditions for the other tests."""
import json
import re
import shutil
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

from conftest import ARTIFACTS, Server, drain_console, marquee_binary
from player_page import PlayerPage

TITLE = "Subtitle Clip"
JAPANESE_SRT = "1\n00:00:01,000 --> 00:00:05,000\nこんにちは、字幕です\n"
ITALIC_ASS = """[Script Info]
ScriptType: v4.00+

[V4+ Styles]
Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
Style: Default,Arial,20,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,2,2,10,10,10,1

[Events]
Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
Dialogue: 0,0:00:01.00,0:00:05.00,Default,,0,0,0,,{\\i1}Slanted words{\\i0} and plain
"""


@pytest.fixture(scope="module")
def media_folder():
    folder = Path(tempfile.mkdtemp(prefix="marquee-subtitle-media-"))
    clip = folder / f"{TITLE}.mp4"
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=25:duration=8",
                    "-f", "lavfi", "-i", "sine=frequency=440:duration=8", "-c:v", "libx264", "-pix_fmt", "yuv420p",
                    "-c:a", "aac", "-shortest", str(clip)], check=True)
    (folder / f"{TITLE}.en.srt").write_text("1\n00:00:01,000 --> 00:00:05,000\nHello from the sidecar\n")
    (folder / "added.ja.srt").write_text(JAPANESE_SRT)
    (folder / "styled.ass").write_text(ITALIC_ASS)
    (folder / "not-subtitles.srt").write_bytes(b"%PDF-1.7\n\x00\x01\x02 binary junk")
    (folder / "dropped.ko.srt").write_text("1\n00:00:01,000 --> 00:00:05,000\n안녕하세요\n")
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def own_server(media_folder):
    data = tempfile.mkdtemp(prefix="marquee-e2e-subtitles-")
    process = subprocess.Popen([marquee_binary(), "serve", "--data", data, "--port", "0", "--no-samples"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    said = []
    while not (match := re.search(r"(http://127\.0\.0\.1:\d+)/", said[-1] if said else "")) and len(said) < 50:
        said.append(process.stdout.readline())
        if not said[-1]:
            break
    assert match, f"marquee serve did not print its URL: {''.join(said)!r}"
    drain_console(process, ARTIFACTS / "subtitle-files-server-console.log")
    server = Server(match.group(1), process, data)
    status, _ = server.api("POST", "/api/assets", {"paths": [str(media_folder / f"{TITLE}.mp4")]})
    assert status == 202
    deadline = time.time() + 120
    while server.asset(TITLE)["status"] != "ready":
        assert server.asset(TITLE)["status"] != "failed", server.asset(TITLE)
        assert time.time() < deadline, "the clip was not ready in time"
        time.sleep(0.5)
    yield server
    process.terminate()
    process.wait(timeout=10)
    shutil.rmtree(data, ignore_errors=True)


def subtitle_files(server):
    _, body = server.api("GET", f"/api/assets/{server.asset(TITLE)['id']}/subtitles")
    return body["subtitles"]


def open_edit_sheet(driver, server):
    driver.get(server.url + "/")
    asset_id = server.asset(TITLE)["id"]
    button = PlayerPage.__new__(PlayerPage)
    button.driver = driver
    button.wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, f".asset-card[data-asset-id='{asset_id}'] button.edit"),
                    "the library did not show the clip's card")
    driver.find_element(By.CSS_SELECTOR, f".asset-card[data-asset-id='{asset_id}'] button.edit").click()
    button.wait_for(lambda: driver.execute_script("return document.getElementById('edit-sheet').open"), "the edit sheet did not open")
    return button


def subtitle_rows(driver):
    """(label, details) of each file the sheet lists, read in one go (the list is re-rendered)."""
    return [tuple(row) for row in driver.execute_script(
        "return [...document.querySelectorAll('#subtitle-list .subtitle-file')].map((row) =>"
        " [row.querySelector('.subtitle-name').textContent, row.querySelector('.subtitle-details').textContent]);")]


def choose_subtitles(page, label):
    page.element("renditions-button").click()
    page.wait_for(lambda: page.driver.find_elements(By.CSS_SELECTOR, "#renditions-menu [data-section='subtitles'] button"),
                  "the audio and subtitles menu did not open")
    buttons = page.driver.find_elements(By.CSS_SELECTOR, "#renditions-menu [data-section='subtitles'] button")
    labels = [b.text for b in buttons]
    next(b for b in buttons if b.text == label).click()
    return labels


def shown_cue(page, label):
    return page.js("""const track = [...document.getElementById('video').textTracks].find((t) => t.label === arguments[0]);
      if (!track || track.mode !== 'showing' || !track.activeCues || !track.activeCues.length) return null;
      return {text: track.activeCues[0].text, html: track.activeCues[0].getCueAsHTML().firstChild?.nodeName ?? '',
              time: document.getElementById('video').currentTime};""", label)


def test_a_sidecar_next_to_the_file_is_added_with_its_language(own_server):
    files = subtitle_files(own_server)
    assert [(f["label"], f.get("language"), f["format"]) for f in files] == [("English", "en", "srt")], files
    _, master = None, urllib.request.urlopen(f"{own_server.url}/media/{own_server.asset(TITLE)['id']}/master.m3u8").read().decode()
    assert re.search(r'#EXT-X-MEDIA:TYPE=SUBTITLES,[^\n]*NAME="English"', master), master


def test_japanese_srt_added_in_the_edit_sheet_plays_in_the_player(own_server, driver, media_folder):
    sheet = open_edit_sheet(driver, own_server)
    assert subtitle_rows(driver) == [("English", "en · SRT · 1 cue")]
    driver.find_element(By.ID, "subtitle-language").send_keys("ja")
    driver.find_element(By.ID, "subtitle-label").send_keys("日本語")
    driver.find_element(By.ID, "subtitle-file").send_keys(str(media_folder / "added.ja.srt"))
    sheet.wait_for(lambda: len(subtitle_rows(driver)) == 2, "the added file did not show in the sheet")
    assert subtitle_rows(driver)[1] == ("日本語", "ja · SRT · 1 cue")
    assert driver.find_element(By.ID, "subtitle-status").text == "Added subtitles “日本語”"
    # The sheet's Remove buttons say what they remove.
    assert [b.get_attribute("aria-label") for b in driver.find_elements(By.CSS_SELECTOR, "#subtitle-list button")] == [
        "Remove subtitles “English”", "Remove subtitles “日本語”"]

    page = PlayerPage(driver, own_server, TITLE, "?autoplay=0")
    labels = choose_subtitles(page, "日本語")
    assert "English" in labels and "日本語" in labels, labels
    page.key("k")
    page.wait_for(lambda: shown_cue(page, "日本語"), "the Japanese cue never showed", timeout=15)
    cue = shown_cue(page, "日本語")
    assert cue["text"] == "こんにちは、字幕です"
    assert 0.9 <= cue["time"] <= 5.2, f"the cue showed at {cue['time']} s, outside 1–5 s"


def test_an_ass_file_keeps_its_italics(own_server, driver, media_folder):
    sheet = open_edit_sheet(driver, own_server)
    driver.find_element(By.ID, "subtitle-label").send_keys("Styled")
    driver.find_element(By.ID, "subtitle-file").send_keys(str(media_folder / "styled.ass"))
    sheet.wait_for(lambda: any(name == "Styled" for name, _ in subtitle_rows(driver)), "the ASS file did not show in the sheet")
    assert ("Styled", "no language · ASS · 1 cue") in subtitle_rows(driver)
    page = PlayerPage(driver, own_server, TITLE, "?autoplay=0")
    choose_subtitles(page, "Styled")
    page.key("k")
    page.wait_for(lambda: shown_cue(page, "Styled"), "the ASS cue never showed", timeout=15)
    cue = shown_cue(page, "Styled")
    assert cue["text"] == "<i>Slanted words</i> and plain"
    assert cue["html"].lower() == "i", cue


def test_a_file_that_is_no_subtitles_gets_a_sentence(own_server, driver, media_folder):
    sheet = open_edit_sheet(driver, own_server)
    before = len(subtitle_rows(driver))
    driver.find_element(By.ID, "subtitle-file").send_keys(str(media_folder / "not-subtitles.srt"))
    sheet.wait_for(lambda: driver.find_element(By.ID, "subtitle-error").text, "no error showed")
    assert driver.find_element(By.ID, "subtitle-error").text == (
        "This is not a subtitle file Marquee can read: use a SubRip (.srt), WebVTT (.vtt) or ASS/SSA (.ass, .ssa) text file")
    assert len(subtitle_rows(driver)) == before


def test_remove_in_the_sheet_takes_the_file_off_the_item_and_its_menu(own_server, driver):
    sheet = open_edit_sheet(driver, own_server)
    sheet.wait_for(lambda: any(name == "Styled" for name, _ in subtitle_rows(driver)), "the sheet did not list the ASS file")
    driver.find_element(By.CSS_SELECTOR, "#subtitle-list button[aria-label='Remove subtitles “Styled”']").click()
    sheet.wait_for(lambda: all(name != "Styled" for name, _ in subtitle_rows(driver)), "Remove did not take the row away")
    assert driver.find_element(By.ID, "subtitle-status").text == "Removed subtitles “Styled”"
    # Focus stays in the list (on the next Remove button), not lost to the page.
    assert driver.execute_script("return document.activeElement.closest('#subtitle-files') !== null")
    assert all(f["label"] != "Styled" for f in subtitle_files(own_server))
    _, manifest = own_server.api("GET", f"/api/assets/{own_server.asset(TITLE)['id']}/manifest.json")
    assert "Styled" not in [s["name"] for s in manifest["subtitles"]], manifest["subtitles"]


def test_a_subtitle_file_dropped_on_the_card_is_added_to_that_item(own_server, driver):
    driver.get(own_server.url + "/")
    asset_id = own_server.asset(TITLE)["id"]
    page = PlayerPage.__new__(PlayerPage)
    page.driver = driver
    page.wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, f".asset-card[data-asset-id='{asset_id}']"), "no card")
    driver.execute_script("""
      const card = document.querySelector(`.asset-card[data-asset-id='${arguments[0]}'] h2`);
      const data = new DataTransfer();
      data.items.add(new File([arguments[1]], 'dropped.ko.srt', {type: ''}));
      for (const type of ['dragenter', 'dragover', 'drop']) card.dispatchEvent(new DragEvent(type, {dataTransfer: data, bubbles: true, cancelable: true}));
    """, asset_id, "1\n00:00:01,000 --> 00:00:05,000\n안녕하세요\n")
    page.wait_for(lambda: any(f.get("language") == "ko" for f in subtitle_files(own_server)), "the dropped file was not added")
    page.wait_for(lambda: "한국어" in driver.find_element(By.ID, "toasts").text, "no toast said it was added")
    assert driver.execute_script("return document.getElementById('drop-overlay').hidden")
    # No upload of it as media started.
    assert len(own_server.api("GET", "/api/assets")[1]["assets"]) == 1


def screenshot_editor(driver, server, name):
    sheet = open_edit_sheet(driver, server)
    sheet.wait_for(lambda: len(subtitle_rows(driver)) >= 2, "the sheet did not list the files")
    driver.execute_script("document.getElementById('subtitle-files').scrollIntoView({block: 'center'})")
    driver.find_element(By.ID, "subtitle-language").click()
    time.sleep(0.3)
    # The section fits the sheet's width (nothing in it scrolls sideways).
    assert driver.execute_script(
        "const s = document.getElementById('subtitle-files'); return s.scrollWidth <= s.clientWidth + 1"), "the Subtitles section overflows"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / name))


def test_subtitle_editor_screenshots_on_desktop_and_phone(own_server, browser):
    screenshot_editor(browser(), own_server, "subtitle-editor-desktop.png")
    screenshot_editor(browser(width=390, height=844), own_server, "subtitle-editor-phone.png")
    japanese = browser("ja-JP")
    sheet = open_edit_sheet(japanese, own_server)
    sheet.wait_for(lambda: japanese.find_element(By.ID, "subtitle-legend").text == "字幕", "the section is not in Japanese")
    assert japanese.find_element(By.ID, "subtitle-file-label").text == "字幕ファイルを追加…"


# MARK: Firefox

@pytest.mark.skipif(shutil.which("firefox-esr") is None, reason="firefox-esr is not installed")
def test_firefox_offers_and_shows_the_added_rendition(own_server):
    from firefox_bidi import Firefox
    if not any(f["label"] == "日本語" for f in subtitle_files(own_server)):
        request = urllib.request.Request(
            f"{own_server.url}/api/assets/{own_server.asset(TITLE)['id']}/subtitles?language=ja&label=%E6%97%A5%E6%9C%AC%E8%AA%9E",
            data=JAPANESE_SRT.encode(), method="POST")
        urllib.request.urlopen(request, timeout=10).read()
    firefox = Firefox.launch(width=1280, height=720)
    try:
        tab = firefox.tab()
        tab.set_viewport(1280, 720)
        tab.navigate(f"{own_server.url}/watch/{own_server.asset(TITLE)['id']}?autoplay=0")
        tab.wait_for("window.marquee?.session?.duration > 0 && document.getElementById('video').readyState >= 2", "the player did not load")
        tab.click_element("#renditions-button")
        tab.wait_for("document.querySelectorAll(\"#renditions-menu [data-section='subtitles'] button\").length > 0", "no subtitles menu")
        labels = tab.evaluate("[...document.querySelectorAll(\"#renditions-menu [data-section='subtitles'] button\")].map((b) => b.textContent)")
        assert "日本語" in labels and "English" in labels, labels
        tab.evaluate("[...document.querySelectorAll(\"#renditions-menu [data-section='subtitles'] button\")].find((b) => b.textContent === '日本語').click()")
        tab.press_key("k")
        tab.wait_for("(() => { const t = [...document.getElementById('video').textTracks].find((t) => t.label === '日本語');"
                     " return t && t.mode === 'showing' && t.activeCues && t.activeCues.length > 0"
                     " && t.activeCues[0].text === 'こんにちは、字幕です'; })()", "Firefox did not show the Japanese cue", timeout=20)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        tab.screenshot(ARTIFACTS / "firefox-subtitle-files.png")
    finally:
        firefox.quit()


@pytest.mark.parametrize("language", ["en-US", "ja-JP"])
def test_axe_finds_no_serious_or_critical_violation_in_the_open_subtitle_editor(own_server, browser, language):
    from axe_selenium_python import Axe
    driver = browser(language)
    sheet = open_edit_sheet(driver, own_server)
    sheet.wait_for(lambda: len(subtitle_rows(driver)) >= 1, "the sheet did not list the files")
    axe = Axe(driver)
    axe.inject()
    violations = axe.run(context="#edit-sheet", options='{resultTypes: ["violations"]}')["violations"]
    failing = [f"[{v['impact']}] {v['id']}: {v['help']} {[n['target'] for n in v['nodes']]}" for v in violations
               if v["impact"] in ("serious", "critical")]
    assert not failing, "\n".join(failing)
    # Every control of the section has a name.
    unnamed = driver.execute_script("""return [...document.querySelectorAll('#subtitle-files input, #subtitle-files button')]
      .filter((c) => !(c.labels?.length && c.labels[0].textContent.trim()) && !c.getAttribute('aria-label')).map((c) => c.outerHTML);""")
    assert not unnamed, unnamed
