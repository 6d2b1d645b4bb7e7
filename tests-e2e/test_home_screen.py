"""The home screen (issue 29, item 3), as a person uses it, on a server of its own with
generated media (`--no-samples`): a film whose first second is black, and three episodes of a
series named the way files are ("Saga S01E01.mp4").

In Chromium: play the film partway and go home → Continue watching shows it with a progress
bar ("… left"); watch the end of episode 1 → Next up offers episode 2; add a file from the
server → Recently added lists it; posters are not black; links keep `?lang=`. In Firefox the
rows render. Screenshots home-desktop.png and home-phone.png (and home-desktop-ja.png) in
artifacts/e2e. Also the small leftovers of issue 29: the loading spinner stands still under
`prefers-reduced-motion`, and "Play on TV" fits a 390 px phone."""
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
from selenium.webdriver.support.ui import WebDriverWait

from conftest import ARTIFACTS, Server, drain_console, marquee_binary

EPISODE_SECONDS = 12
FILM_SECONDS = 60


def ffmpeg(*arguments):
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", *arguments], check=True)


def make_media(folder):
    """A 60 s film opening on 1 s of black, and three 12 s episodes, each with a tone."""
    film = folder / "Harbour Lights.mp4"
    ffmpeg("-f", "lavfi", "-i", "color=c=black:s=640x360:r=25:d=1", "-f", "lavfi", "-i", f"testsrc2=s=640x360:r=25:d={FILM_SECONDS - 1}",
           "-f", "lavfi", "-i", f"sine=frequency=440:duration={FILM_SECONDS}",
           "-filter_complex", "[0:v][1:v]concat=n=2:v=1:a=0[v]", "-map", "[v]", "-map", "2:a",
           "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-g", "50", "-c:a", "aac", str(film))
    episodes = []
    for number in (1, 2, 3):
        path = folder / f"Saga S01E0{number}.mp4"
        ffmpeg("-f", "lavfi", "-i", f"smptebars=s=640x360:r=25:d={EPISODE_SECONDS}",
               "-f", "lavfi", "-i", f"sine=frequency={300 + 100 * number}:duration={EPISODE_SECONDS}",
               "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-g", "50", "-c:a", "aac", "-shortest", str(path))
        episodes.append(path)
    late = folder / "Late Arrival.mp4"
    ffmpeg("-f", "lavfi", "-i", "testsrc=s=640x360:r=25:d=6", "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", str(late))
    return film, episodes, late


def wait_ready(server, count, timeout=180):
    deadline = time.time() + timeout
    while time.time() < deadline:
        _, listing = server.api("GET", "/api/assets")
        assets = listing["assets"]
        assert not any(a["status"] == "failed" for a in assets), assets
        if len(assets) == count and all(a["status"] == "ready" for a in assets):
            return assets
        time.sleep(0.5)
    pytest.fail(f"{count} items were not ready in time")


@pytest.fixture(scope="module")
def home_server():
    data = Path(tempfile.mkdtemp(prefix="marquee-home-"))
    media = data.parent / (data.name + "-media")
    media.mkdir()
    film, episodes, late = make_media(media)
    process = subprocess.Popen([marquee_binary(), "serve", "--data", str(data), "--port", "0", "--no-samples"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    said = []
    while not (match := re.search(r"(http://127\.0\.0\.1:\d+)/", said[-1] if said else "")) and len(said) < 50:
        said.append(process.stdout.readline())
        if not said[-1]:
            break
    assert match, f"marquee serve did not print its URL: {''.join(said)!r}"
    drain_console(process, ARTIFACTS / "home-server-console.log")
    server = Server(match.group(1), process, str(data))
    server.console = ARTIFACTS / "home-server-console.log"
    status, body = server.api("POST", "/api/assets", {"paths": [str(film)] + [str(e) for e in episodes]})
    assert status in (200, 201, 202), body
    wait_ready(server, 4)
    server.late = late
    yield server
    process.terminate()
    process.wait(timeout=10)
    shutil.rmtree(data, ignore_errors=True)
    shutil.rmtree(media, ignore_errors=True)


def wait(driver, condition, message, timeout=15):
    return WebDriverWait(driver, timeout, poll_frequency=0.1).until(lambda d: condition(d), message)


def asset_id(server, title):
    return server.asset(title)["id"]


def row_ids(driver, row):
    return driver.execute_script(
        f"return [...document.querySelectorAll('#home-{row} .home-card')].map((c) => c.dataset.assetId)")


def home(driver, server, query=""):
    driver.get(f"{server.url}/{query}")
    wait(driver, lambda d: d.execute_script("return document.getElementById('assets').children.length > 0"), "the library did not load")


def play_until(driver, server, title, seconds, query=""):
    """Opens the player, lets it play past `seconds`, and pauses with the K key, as a person would."""
    driver.get(f"{server.url}/watch/{asset_id(server, title)}{query}")
    wait(driver, lambda d: d.execute_script("return window.marquee?.session?.duration > 0 && document.getElementById('video').readyState >= 2"),
         "the player did not load")
    wait(driver, lambda d: d.execute_script("return document.getElementById('video').currentTime") > seconds,
         f"playback did not pass {seconds} s", timeout=seconds + 20)
    driver.find_element(By.TAG_NAME, "body").send_keys("k")
    wait(driver, lambda d: d.execute_script("return document.getElementById('player').dataset.status") == "paused", "K did not pause")


def test_continue_watching_shows_a_film_played_partway_with_its_progress(home_server, browser):
    driver = browser()
    play_until(driver, home_server, "Harbour Lights", 8)
    film = asset_id(home_server, "Harbour Lights")
    home(driver, home_server)
    wait(driver, lambda d: film in row_ids(d, "continue-watching"), "Continue watching does not show the film")
    card = driver.find_element(By.CSS_SELECTOR, f"#home-continue-watching .home-card[data-asset-id='{film}']")
    bar = card.find_element(By.CSS_SELECTOR, "[role=progressbar]")
    percent = int(bar.get_attribute("aria-valuenow"))
    assert 10 <= percent <= 40, percent
    assert bar.get_attribute("aria-label") == "Progress in Harbour Lights"
    assert card.find_element(By.CSS_SELECTOR, ".time-left").text in {"1 min left", "Less than a minute left"}
    # The card resumes where the film stopped, and is reachable with the keyboard.
    link = card.find_element(By.CSS_SELECTOR, "a")
    assert "resume=1" in link.get_attribute("href")
    assert link.get_attribute("tabindex") in (None, "0")
    # The poster is a frame from the picture, not the black opening.
    poster = driver.execute_script(
        "return getComputedStyle(arguments[0].querySelector('.artwork')).backgroundImage", card)
    assert "poster.jpg" in poster
    brightness = driver.execute_async_script("""
      const done = arguments[arguments.length - 1];
      const image = new Image();
      image.onload = () => {
        const canvas = document.createElement('canvas');
        canvas.width = 32; canvas.height = 18;
        const context = canvas.getContext('2d');
        context.drawImage(image, 0, 0, 32, 18);
        const pixels = context.getImageData(0, 0, 32, 18).data;
        let sum = 0;
        for (let i = 0; i < pixels.length; i += 4) sum += pixels[i] + pixels[i + 1] + pixels[i + 2];
        done(sum / (pixels.length / 4) / 3);
      };
      image.onerror = () => done(-1);
      image.src = arguments[0];""", f"/media/{film}/poster.jpg")
    assert brightness > 40, f"the poster is dark ({brightness})"


def test_next_up_offers_episode_two_after_episode_one_was_watched_to_the_end(home_server, browser):
    driver = browser()
    first, second = asset_id(home_server, "Saga S01E01"), asset_id(home_server, "Saga S01E02")
    # Watch the end of episode 1 (from 8 s, to its end).
    driver.get(f"{home_server.url}/watch/{first}?t=8")
    wait(driver, lambda d: d.execute_script("return document.getElementById('player').dataset.status") == "ended",
         "episode 1 did not play to its end", timeout=40)
    home(driver, home_server)
    try:
        wait(driver, lambda d: second in row_ids(d, "next-up"), "Next up does not offer episode 2")
    except Exception as error:
        raise AssertionError(f"Next up does not offer episode 2; /api/home said {home_server.api('GET', '/api/home')[1]}") from error
    assert row_ids(driver, "next-up") == [second]
    assert first not in row_ids(driver, "continue-watching")
    card = driver.find_element(By.CSS_SELECTOR, f"#home-next-up .home-card[data-asset-id='{second}']")
    assert "S1 · E2" in card.text
    card.find_element(By.CSS_SELECTOR, "a").click()
    wait(driver, lambda d: f"/watch/{second}" in d.current_url, "the Next up card did not open episode 2")


def test_recently_added_lists_a_file_just_added_and_rows_hide_while_searching(home_server, browser):
    driver = browser()
    home(driver, home_server)
    driver.find_element(By.ID, "add-button").click()
    driver.find_element(By.ID, "server-path").send_keys(str(home_server.late))
    driver.find_element(By.ID, "server-path-add").click()
    wait_ready(home_server, 5)
    late = asset_id(home_server, "Late Arrival")
    wait(driver, lambda d: row_ids(d, "recently-added")[:1] == [late], "Recently added does not start with the new file", timeout=20)
    assert driver.find_element(By.ID, "home-recently-added-title").text == "Recently added"
    # Searching shows the whole library's matches only: the rows step aside.
    driver.find_element(By.ID, "search").send_keys("Late")
    wait(driver, lambda d: not d.find_element(By.ID, "home").is_displayed(), "the rows stayed while searching")


def test_library_links_keep_the_page_language(home_server, browser):
    driver = browser()
    home(driver, home_server, "?lang=ja")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#home-recently-added .home-card a"), "no rows in Japanese")
    assert driver.find_element(By.ID, "home-recently-added-title").text == "最近追加された項目"
    links = [a.get_attribute("href") for a in driver.find_elements(By.CSS_SELECTOR, ".asset-card a.card-link, .home-card a")]
    assert links and all("lang=ja" in link for link in links), links
    driver.find_element(By.CSS_SELECTOR, ".asset-card a.card-link").click()
    wait(driver, lambda d: d.execute_script("return document.documentElement.lang") == "ja" and "/watch/" in d.current_url,
         "the player did not open in Japanese")


def test_screenshots_of_the_home_screen_on_desktop_and_phone(home_server, browser):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    desktop = browser(width=1280, height=900)
    home(desktop, home_server)
    wait(desktop, lambda d: d.find_elements(By.CSS_SELECTOR, "#home .home-row"), "no rows")
    time.sleep(0.5)  # posters
    desktop.save_screenshot(str(ARTIFACTS / "home-desktop.png"))
    japanese = browser(width=1280, height=900)
    home(japanese, home_server, "?lang=ja")
    wait(japanese, lambda d: d.find_elements(By.CSS_SELECTOR, "#home .home-row"), "no rows in Japanese")
    time.sleep(0.5)
    japanese.save_screenshot(str(ARTIFACTS / "home-desktop-ja.png"))
    phone = browser(width=390, height=844)
    phone.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True})
    home(phone, home_server)
    wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, "#home .home-row"), "no rows on the phone")
    # The rows scroll sideways inside themselves; the page itself does not scroll sideways.
    assert phone.execute_script("return document.documentElement.scrollWidth <= window.innerWidth + 1")
    time.sleep(0.5)
    phone.save_screenshot(str(ARTIFACTS / "home-phone.png"))
    for name in ("home-desktop.png", "home-phone.png", "home-desktop-ja.png"):
        assert (ARTIFACTS / name).stat().st_size > 10_000


def test_the_loading_spinner_stands_still_when_less_motion_is_asked_for(home_server, browser):
    driver = browser()
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
    driver.get(f"{home_server.url}/watch/{asset_id(home_server, 'Saga S01E03')}?autoplay=0")
    wait(driver, lambda d: d.execute_script("return !!document.querySelector('#loading .spinner')"), "no spinner element")
    animation = driver.execute_script("""
      const loading = document.getElementById('loading'); loading.hidden = false;
      const style = getComputedStyle(loading.querySelector('.spinner'));
      return style.animationName + ' ' + style.animationPlayState;""")
    assert animation.startswith("none"), animation


def test_play_on_tv_fits_a_phone(home_server, browser):
    driver = browser(width=390, height=844)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True})
    driver.get(f"{home_server.url}/watch/{asset_id(home_server, 'Saga S01E03')}?autoplay=0")
    wait(driver, lambda d: d.find_elements(By.ID, "play-on-button"), "no Play on TV button")
    rect = driver.execute_script("""
      const r = document.getElementById('play-on-button').getBoundingClientRect();
      return {left: r.left, right: r.right, width: r.width, viewport: window.innerWidth};""")
    assert rect["width"] > 40 and rect["left"] >= 0 and rect["right"] <= rect["viewport"], rect
    # As with an item that has captions and several audio tracks: every button of the row showing.
    driver.execute_script("document.querySelectorAll('.button-row button').forEach((b) => { b.hidden = false; });")
    rect = driver.execute_script("""
      const r = document.getElementById('play-on-button').getBoundingClientRect();
      return {left: r.left, right: r.right, width: r.width, viewport: window.innerWidth};""")
    assert rect["width"] > 40 and rect["left"] >= 0 and rect["right"] <= rect["viewport"], rect
    others = driver.execute_script("""
      return [...document.querySelectorAll('.button-row button')].filter((b) => b.offsetParent)
        .map((b) => b.getBoundingClientRect()).filter((r) => r.left < 0 || r.right > window.innerWidth).length""")
    assert others == 0
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / "player-phone-play-on-tv.png"))


@pytest.mark.parametrize("language", ["en", "ja"])
def test_axe_finds_nothing_serious_on_the_home_rows(home_server, browser, language):
    from axe_selenium_python import Axe
    driver = browser()
    home(driver, home_server, f"?lang={language}")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#home-continue-watching [role=progressbar]"), "no Continue watching row")
    axe = Axe(driver)
    axe.inject()
    violations = axe.run(options='{resultTypes: ["violations"]}')["violations"]
    failing = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:5]) for v in violations if v["impact"] in ("serious", "critical")]
    assert not failing, failing


firefox_only = pytest.mark.skipif(shutil.which("firefox-esr") is None, reason="firefox-esr is not installed")


@firefox_only
def test_firefox_renders_the_home_rows(home_server):
    from firefox_bidi import Firefox
    browser = Firefox.launch(width=1280, height=900)
    try:
        tab = browser.tab()
        tab.set_viewport(1280, 900)
        tab.navigate(f"{home_server.url}/")
        tab.wait_for("document.querySelectorAll('#home .home-row').length >= 1", "no rows in Firefox")
        tab.wait_for("document.querySelectorAll('#home-recently-added .home-card a[href]').length >= 4", "Recently added is empty in Firefox")
        width = tab.evaluate("document.querySelector('#home-recently-added .home-card').getBoundingClientRect().width")
        assert width > 150, width
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        tab.screenshot(ARTIFACTS / "home-firefox.png")
    finally:
        browser.quit()
