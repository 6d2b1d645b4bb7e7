"""The /downloads page in Chromium against an FFmpeg-made HLS stream on a throttled loopback
server (hls_fixture.serve): inspect and pick a variant (badges, sizes, languages), a predicate
checked as it is typed, a download that shows progress, pauses, carries on by itself after
the marquee server is restarted (its journal skipping finished files), plays while it
downloads, and lands in the library playable with the origin gone; and the messages for a
bad address, a 404, a live playlist and a bad predicate.

These tests run their own `marquee serve --no-samples` (they restart it), not the session one."""
import math
import pathlib
import re
import socket
import sqlite3
import subprocess
import threading
import time
import urllib.request

import pytest
from selenium.webdriver.common.by import By
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

import hls_fixture
from conftest import ARTIFACTS, Server, marquee_binary

DURATION = 20
SEGMENT = 2


def make_long_stream(root: pathlib.Path) -> None:
    """`long/master.m3u8`: a real 20 s 640x360 fMP4 variant with English audio (also offered
    as Japanese) and English subtitles, plus declared variants that exercise every badge
    (4K Dolby Vision HDR with Atmos, spatial video, lossless audio). Only the real one is
    downloaded; the others are never fetched."""
    out = root / "long"
    for name in ("v360", "aud-en", "subs-en"):
        (out / name).mkdir(parents=True, exist_ok=True)
    hls = ["-f", "hls", "-hls_time", str(SEGMENT), "-hls_playlist_type", "vod", "-hls_segment_type", "fmp4",
           "-hls_fmp4_init_filename", "init.mp4"]
    hls_fixture._ffmpeg("-f", "lavfi", "-i", f"testsrc2=size=640x360:rate=25:duration={DURATION}", "-c:v", "libx264",
                        "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-b:v", "300k", "-g", "50", "-keyint_min", "50",
                        "-sc_threshold", "0", "-an", *hls, "-hls_segment_filename", str(out / "v360" / "seg%03d.m4s"),
                        str(out / "v360" / "index.m3u8"))
    hls_fixture._ffmpeg("-f", "lavfi", "-i", f"sine=frequency=440:duration={DURATION}", "-ac", "2", "-c:a", "aac", "-b:a", "96k",
                        *hls, "-hls_segment_filename", str(out / "aud-en" / "seg%03d.m4s"), str(out / "aud-en" / "index.m3u8"))
    (out / "subs-en" / "en.vtt").write_text("WEBVTT\n\n00:00:00.000 --> 00:00:05.000\nHello from the download\n")
    (out / "subs-en" / "index.m3u8").write_text(f"#EXTM3U\n#EXT-X-TARGETDURATION:{DURATION}\n#EXT-X-PLAYLIST-TYPE:VOD\n"
                                                f"#EXTINF:{DURATION}.0,\nen.vtt\n#EXT-X-ENDLIST\n")
    (out / "master.m3u8").write_text("\n".join([
        "#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-INDEPENDENT-SEGMENTS",
        '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,CHANNELS="2",URI="aud-en/index.m3u8"',
        '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="日本語",LANGUAGE="ja",AUTOSELECT=YES,CHANNELS="2",URI="aud-en/index.m3u8"',
        '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="atmos",NAME="English Atmos",LANGUAGE="en",DEFAULT=YES,CHANNELS="16/JOC",URI="atmos/index.m3u8"',
        '#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,URI="subs-en/index.m3u8"',
        '#EXT-X-STREAM-INF:BANDWIDTH=600000,AVERAGE-BANDWIDTH=450000,CODECS="avc1.640028,mp4a.40.2",RESOLUTION=640x360,'
        'FRAME-RATE=25.000,AUDIO="aud",SUBTITLES="subs"',
        "v360/index.m3u8",
        '#EXT-X-STREAM-INF:BANDWIDTH=25000000,CODECS="dvh1.08.06,ec-3",RESOLUTION=3840x2160,FRAME-RATE=24.000,VIDEO-RANGE=PQ,'
        'AUDIO="atmos",SUBTITLES="subs"',
        "uhd/index.m3u8",
        '#EXT-X-STREAM-INF:BANDWIDTH=12000000,CODECS="hvc1.2.20000000.H150.B0",RESOLUTION=1920x1080,REQ-VIDEO-LAYOUT="CH-STEREO",AUDIO="aud"',
        "spatial/index.m3u8",
        '#EXT-X-STREAM-INF:BANDWIDTH=1500000,CODECS="alac"',
        "lossless/index.m3u8",
    ]) + "\n")
    (root / "live.m3u8").write_text("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\nlong/v360/seg000.m4s\n")
    # At the root, with generic names: one names itself in its metadata, one does not.
    variant = '#EXT-X-STREAM-INF:BANDWIDTH=600000,CODECS="avc1.640028",RESOLUTION=640x360\nlong/v360/index.m3u8\n'
    (root / "master.m3u8").write_text("#EXTM3U\n" + variant)
    (root / "index.m3u8").write_text('#EXTM3U\n#EXT-X-SESSION-DATA:DATA-ID="com.apple.hls.title",VALUE="Night Flight",LANGUAGE="en"\n' + variant)


@pytest.fixture(scope="module")
def stream(tmp_path_factory):
    root = tmp_path_factory.mktemp("dl-stream")
    make_long_stream(root)
    return root


@pytest.fixture
def origin(stream):
    faults = hls_fixture.Faults()
    httpd = hls_fixture.serve(stream, faults)
    yield f"http://127.0.0.1:{httpd.server_address[1]}", faults, httpd
    httpd.shutdown()


class Marquee:
    """`marquee serve --data DIR --port 0 --no-samples`, restartable on the same data."""

    def __init__(self, data: pathlib.Path):
        self.data = data
        self.server = None

    def start(self):
        process = subprocess.Popen([marquee_binary(), "serve", "--data", str(self.data), "--port", "0", "--no-samples"],
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        line = process.stdout.readline()
        match = re.search(r"(http://127\.0\.0\.1:\d+)/", line)
        assert match, f"marquee serve did not print its URL: {line!r}"
        threading.Thread(target=lambda: [None for _ in process.stdout], daemon=True).start()  # keep the pipe drained
        self.server = Server(match.group(1), process, str(self.data))
        return self.server

    def stop(self):
        if self.server:
            self.server.process.terminate()
            self.server.process.wait(timeout=20)
            self.server = None


@pytest.fixture
def marquee(tmp_path):
    running = Marquee(tmp_path / "data")
    running.start()
    yield running
    running.stop()


def shot(driver, name, show_list=False):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    if show_list:
        driver.execute_script("document.getElementById('downloads').scrollIntoView({block: 'center'})")
    driver.save_screenshot(str(ARTIFACTS / f"downloads-{name}.png"))


def wait(driver, condition, timeout=30, message=""):
    return WebDriverWait(driver, timeout, poll_frequency=0.1).until(lambda d: condition(d), message)


def item(driver):
    found = driver.find_elements(By.CSS_SELECTOR, "#downloads .download")
    return found[0] if found else None


def first_download(driver, expression):
    """`expression` about the newest download's element `e` (re-rendered often, so read in one go)."""
    return driver.execute_script(f"const e = document.querySelector('#downloads .download'); return e ? {expression} : null")


def item_state(driver):
    return first_download(driver, "e.dataset.state")


def completed_files(driver):
    return int(first_download(driver, "e.dataset.completedFiles") or 0)


def item_text(driver, selector):
    return first_download(driver, f"e.querySelector('{selector}')?.textContent ?? ''")


def click(driver, selector):
    """Clicks the element, looking it up again if a re-render replaced it."""
    for _ in range(10):
        try:
            driver.find_element(By.CSS_SELECTOR, selector).click()
            return
        except StaleElementReferenceException:
            time.sleep(0.05)
    raise AssertionError(f"could not click {selector}")


def inspect(driver, url):
    field = driver.find_element(By.ID, "url")
    field.clear()
    field.send_keys(url)
    driver.find_element(By.ID, "inspect").click()


def media_requests(faults):
    return [path for path, _ in faults.requests(r"\.(m4s|mp4|vtt)$")]


def source_path(local: pathlib.Path) -> str:
    """The origin path a bundle file was downloaded from (seg-00003.m4s ← seg002.m4s)."""
    folder = "v360" if local.parent.name.startswith("video-") else "aud-en" if local.parent.name.startswith("audio-") else "subs-en"
    if local.name.startswith("init-"):
        return f"/long/{folder}/init.mp4"
    if local.suffix == ".vtt":
        return f"/long/{folder}/en.vtt"
    number = int(re.search(r"(\d+)", local.name).group(1)) - 1
    return f"/long/{folder}/seg{number:03d}.m4s"


def test_download_pause_restart_play_while_downloading_and_library(browser, marquee, origin, stream):
    base, faults, httpd = origin
    # 2 init sections, the video and audio segments, 1 subtitle file
    total = 3 + sum((stream / "long" / f / "index.m3u8").read_text().count("#EXTINF") for f in ("v360", "aud-en"))
    server = marquee.server
    driver = browser()
    driver.get(server.url + "/")
    link = wait(driver, lambda d: d.find_element(By.ID, "downloads-link"))
    assert link.text == "Downloads"
    link.click()
    wait(driver, lambda d: d.find_element(By.ID, "list-status").get_attribute("data-live") == "true", message="event stream")

    # The picker: every variant with its badges, picture, bit rate, languages and size.
    inspect(driver, f"{base}/long/master.m3u8")
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#variants .variant")) == 4, message="variants")
    variants = driver.find_elements(By.CSS_SELECTOR, "#variants .variant")
    badges = [[b.get_attribute("data-badge") for b in v.find_elements(By.CSS_SELECTOR, ".badge")] for v in variants]
    assert badges == [[], ["4K", "HDR", "Dolby Vision", "Dolby Atmos", "Spatial"], ["HD", "Spatial"], ["Lossless"]]
    first = variants[0].text
    assert "640×360" in first and "25 fps" in first and "450 kb/s" in first, first
    assert "English (2 ch)" in first and "Japanese (2 ch)" in first and "Subtitles: English" in first, first
    assert "≈ 1.1 MB" in first, first  # 450 kb/s × 20 s
    assert "English (16 ch)" in variants[1].text
    assert driver.find_element(By.ID, "title").get_attribute("value") == "long"
    shot(driver, "picker")

    # Download the 360p variant with English audio and subtitles, throttled to take a while.
    faults.delay = 1.2
    title = driver.find_element(By.ID, "title")
    title.clear()
    title.send_keys("Loopback Flight")
    variants[0].find_element(By.CSS_SELECTOR, "input[type=radio]").click()
    driver.find_element(By.ID, "start").click()
    wait(driver, lambda d: item_state(d) == "downloading" and completed_files(d) >= 2, message="progress")
    line = item_text(driver, ".line")
    # The percentage and "N of M files" measure the same thing: files done over files in all.
    match = re.search(r"Downloading · (\d+)% · (\d+) of (\d+) files · .* · .*/s", line)
    assert match, line
    percent, done, of = (int(g) for g in match.groups())
    assert of == total and percent == math.floor(100 * done / of + 0.5), line
    assert float(first_download(driver, "e.dataset.progress")) > 0
    shot(driver, "progress", show_list=True)

    # Pause: "Pausing…" while the files in flight finish, then "Paused", and from then on the
    # numbers stand still and nothing more is fetched.
    driver.execute_script("""
        window.__states = [];
        new MutationObserver(() => {
          const s = document.querySelector('#downloads .download')?.dataset.state;
          if (s && window.__states.at(-1) !== s) window.__states.push(s);
        }).observe(document.getElementById('downloads'), {subtree: true, childList: true, attributes: true});""")
    click(driver, "#downloads .download button[data-action=pause]")
    wait(driver, lambda d: item_state(d) == "paused", message="paused")
    states = driver.execute_script("return window.__states.filter((s, i, all) => all.slice(0, i + 1).some((x) => x !== 'downloading'))")
    assert states[:2] == ["pausing", "paused"], states
    held_files, held_requests, held_line = completed_files(driver), len(media_requests(faults)), item_text(driver, ".line")
    time.sleep(faults.delay + 1.0)
    assert completed_files(driver) == held_files and len(media_requests(faults)) == held_requests
    assert item_text(driver, ".line") == held_line
    assert held_files < total
    assert held_line.startswith("Paused · "), held_line
    shot(driver, "paused", show_list=True)

    # Resume, then restart the server while it runs: it carries on by itself.
    click(driver, "#downloads .download button[data-action=resume]")
    wait(driver, lambda d: item_state(d) == "downloading" and completed_files(d) > held_files, message="resumed")
    marquee.stop()
    bundle = next((pathlib.Path(marquee.data) / "downloads").glob("*/bundle"))
    with sqlite3.connect(bundle / ".marquee-download" / "journal.sqlite") as journal:
        on_disk = {bundle / path for (path,) in journal.execute("SELECT path FROM file")}  # finished, by the journal
    assert all(p.is_file() for p in on_disk)
    assert 0 < len(on_disk) < total
    requests_before_restart = len(faults.log)
    faults.delay = 2.5
    server = marquee.start()
    driver.get(server.url + "/downloads")
    wait(driver, lambda d: item_state(d) == "downloading", message="downloading again after the restart")
    wait(driver, lambda d: completed_files(d) > len(on_disk), message="progress after the restart")
    refetched = {path for path, _ in faults.log[requests_before_restart:]} & {source_path(p) for p in on_disk}
    assert not refetched, f"files finished before the restart were fetched again: {refetched}"
    shot(driver, "after-restart", show_list=True)

    # Play while downloading: the player starts on the part on disk and keeps going as the rest arrives.
    video_on_disk = len([p for p in bundle.glob("video-*/seg-*.m4s")])
    assert video_on_disk < DURATION // SEGMENT
    assert item_state(driver) == "downloading"
    assert item_text(driver, "a.play") == "Play while downloading"
    click(driver, "#downloads .download a.play")
    wait(driver, lambda d: d.execute_script("return document.getElementById('video').currentTime") > 1, timeout=30,
         message="playback started")
    shot(driver, "playing-while-downloading")
    beyond = video_on_disk * SEGMENT + 1
    wait(driver, lambda d: d.execute_script("return document.getElementById('video').currentTime") > beyond, timeout=60,
         message=f"playback went past the {video_on_disk * SEGMENT} s on disk when it started")

    # Finished: in the library, playable with the origin server gone.
    deadline = time.time() + 90
    while time.time() < deadline:
        status, listing = server.api("GET", "/api/downloads")
        if listing["downloads"][0]["state"] == "finished":
            break
        assert listing["downloads"][0]["state"] not in ("failed", "cancelled"), listing
        time.sleep(0.5)
    finished = listing["downloads"][0]
    assert finished["state"] == "finished", finished
    assert finished["playerURL"] == f"/watch/{finished['assetID']}"
    assert listing["diskUsage"] > 100_000
    asset = server.asset("Loopback Flight")
    assert asset["status"] == "ready" and asset["id"] == finished["assetID"]
    assert abs(asset["duration"] - DURATION) < 0.5
    deadline = time.time() + 10
    while bundle.exists() and time.time() < deadline:
        time.sleep(0.2)
    assert not bundle.exists()  # the library has its own copy
    httpd.shutdown()
    driver.get(server.url + "/")
    # Library cards are redrawn as events arrive: read and follow the card's link in one step.
    selector = f'.asset-card[data-asset-id="{asset["id"]}"][data-status=ready] a'
    text = wait(driver, lambda d: d.execute_script("return document.querySelector(arguments[0])?.textContent", selector))
    assert "Loopback Flight" in text
    driver.execute_script("document.querySelector(arguments[0]).click()", selector)
    wait(driver, lambda d: d.execute_script("return document.getElementById('video').currentTime") > 1, timeout=30,
         message="the library copy plays offline")
    shot(driver, "library-playback")


def test_clear_messages_for_bad_address_404_live_and_bad_predicate(browser, marquee, origin):
    base, faults, _ = origin
    driver = browser()
    driver.get(marquee.server.url + "/downloads")

    def error_after(url):
        inspect(driver, url)
        return wait(driver, lambda d: d.find_element(By.ID, "inspect-error").is_displayed()
                    and d.find_element(By.ID, "inspect-error").text, message=url)

    assert error_after("not a url") == "“not a url” is not an http:// or https:// address."
    assert error_after(f"{base}/nope.m3u8") == f"The server answered HTTP 404 (Not Found) for {base}/nope.m3u8."
    # A port nobody listens on: refused at once, said in plain words (no 20 s of "Reading the stream…").
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))  # bound and never listening: connections to it are refused
        closed = f"http://127.0.0.1:{holder.getsockname()[1]}/show/master.m3u8"
        message = error_after(closed)
    assert message.startswith(f"Could not fetch {closed}: connection refused by 127.0.0.1"), message
    assert not driver.find_element(By.ID, "inspect-status").text, "still says it is reading the stream"
    message = error_after(f"{base}/live.m3u8")
    assert message == f"{base}/live.m3u8 is a live stream (its playlist has no end). Only on-demand streams can be downloaded."
    shot(driver, "live-error")

    # A predicate is checked as it is typed; the error is underlined at its column.
    inspect(driver, f"{base}/long/master.m3u8")
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#variants .variant")) == 4)
    assert not driver.find_element(By.ID, "inspect-error").is_displayed()
    field = driver.find_element(By.ID, "predicate")
    field.send_keys("peakBitRate < 5000000 AND videoAttributes.colour == 1")
    error = wait(driver, lambda d: d.find_element(By.ID, "predicate-error").is_displayed() and d.find_element(By.ID, "predicate-error"))
    assert error.text.startswith("Column 27: unknown key path 'videoAttributes.colour'"), error.text
    mark = driver.find_element(By.CSS_SELECTOR, "#predicate-mirror mark.error-at")
    assert mark.get_attribute("data-column") == "27" and mark.get_attribute("textContent") == "videoAttributes.colour"
    assert driver.find_element(By.ID, "use-predicate").is_selected()
    # The underline sits under the bad word in the field.
    field_box = field.rect
    mark_box = mark.rect
    assert field_box["x"] < mark_box["x"] < field_box["x"] + field_box["width"]
    shot(driver, "bad-predicate")
    driver.find_element(By.ID, "start").click()
    assert wait(driver, lambda d: d.find_element(By.ID, "start-error").text) == "Fix the predicate first."
    for _ in range(len("colour == 1")):
        field.send_keys(Keys.BACKSPACE)
    field.send_keys("presentationSize.height <= 360")
    wait(driver, lambda d: not d.find_element(By.ID, "predicate-error").is_displayed(), message="error cleared")
    assert not driver.find_elements(By.CSS_SELECTOR, "#predicate-mirror mark")
    # A valid predicate says which variant it picks.
    assert wait(driver, lambda d: d.find_element(By.ID, "predicate-hint").text.startswith("Picks")) and \
        driver.find_element(By.ID, "predicate-hint").text == "Picks 640×360 · 450 kb/s"
    assert driver.find_element(By.CSS_SELECTOR, "#variants .variant.predicate-pick").get_attribute("data-uri").endswith("/long/v360/index.m3u8")
    valid = field.get_attribute("value")
    field.clear()
    field.send_keys("peakBitRate > 99000000")
    wait(driver, lambda d: d.find_element(By.ID, "predicate-hint").text == "No variant matches this predicate.", message="no match")
    field.clear()
    field.send_keys(valid)
    wait(driver, lambda d: d.find_element(By.ID, "predicate-hint").text.startswith("Picks"))
    # A valid predicate downloads what it matches (the 360p variant).
    driver.find_element(By.ID, "start").click()
    wait(driver, lambda d: item_state(d) in ("downloading", "importing", "finished"))
    _, listing = marquee.server.api("GET", "/api/downloads")
    assert listing["downloads"][0]["request"]["predicate"] == "peakBitRate < 5000000 AND videoAttributes.presentationSize.height <= 360"
    # A failed download says why in plain words, and can be retried.
    status, created = marquee.server.api("POST", "/api/downloads", {"url": f"{base}/nope.m3u8", "title": "Missing"})
    assert status == 202
    selector = f'.download[data-id="{created["id"]}"]'
    failed = wait(driver, lambda d: d.execute_script(f"return document.querySelector('{selector}[data-state=failed] .message')?.textContent"))
    assert failed == f"The server answered HTTP 404 (Not Found) for {base}/nope.m3u8."
    # Retry asks again (and fails again, saying so); Delete removes it from the list and the server.
    requests = len(faults.requests(r"^/nope.m3u8"))
    click(driver, f"{selector} button[data-action=retry]")
    wait(driver, lambda d: len(faults.requests(r"^/nope.m3u8")) > requests, message="retried")
    wait(driver, lambda d: marquee.server.api("GET", f"/api/downloads/{created['id']}")[1]["state"] == "failed",
         message="the retry failed again on the server")
    # The answer to Retry and the pushed "failed" can cross; the page keeps the newer (revision).
    wait(driver, lambda d: d.execute_script(f"return document.querySelector('{selector}')?.dataset.state") == "failed")
    click(driver, f"{selector} button[data-action=delete]")
    wait(driver, lambda d: not d.execute_script(f"return document.querySelector('{selector}')"), message="deleted")
    assert marquee.server.api("GET", f"/api/downloads/{created['id']}")[0] == 404


def test_the_title_offered_is_the_streams_name_not_the_host(browser, marquee, origin):
    base, _, _ = origin
    driver = browser()
    driver.get(marquee.server.url + "/downloads")

    def offered(url):
        driver.execute_script("document.getElementById('title').value = ''")
        inspect(driver, url)
        return wait(driver, lambda d: d.find_element(By.ID, "choose-form").is_displayed() and d.find_element(By.ID, "title").get_attribute("value"),
                    message=url)

    assert offered(f"{base}/index.m3u8") == "Night Flight"  # the playlist's own title
    assert offered(f"{base}/long/master.m3u8") == "long"    # the folder of a generic file name
    assert offered(f"{base}/master.m3u8") == "master"       # nothing better: the file, never "127.0.0.1"


def test_page_speaks_japanese(browser, marquee):
    driver = browser("ja-JP")
    driver.get(marquee.server.url + "/downloads")
    wait(driver, lambda d: d.find_element(By.ID, "downloads-title").text == "ダウンロード")
    assert driver.find_element(By.ID, "inspect").text == "調べる"
    wait(driver, lambda d: "ダウンロードはまだありません" in d.find_element(By.ID, "list-status").text)
