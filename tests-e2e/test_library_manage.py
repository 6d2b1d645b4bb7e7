"""Managing the library from the page: upload a file (chunked, resumable) and play it when
ready, live packaging progress pushed without reload or polling, delete with undo, edit
details, a series of three episodes grouped into one card whose "Up Next" plays the second,
and a 2 GB upload that keeps the server's resident memory under 150 MB."""
import http.client
import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

import pytest
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import ARTIFACTS, drain_console, marquee_binary

SHOW = "Manage Show"


@pytest.fixture(scope="module")
def clips():
    folder = Path(tempfile.mkdtemp(prefix="marquee-manage-"))

    def clip(name, colour, frequency, seconds=1):
        path = folder / name
        subprocess.run([
            "ffmpeg", "-hide_banner", "-loglevel", "error", "-y",
            "-f", "lavfi", "-i", f"color=c={colour}:size=320x180:rate=24:duration={seconds}",
            "-f", "lavfi", "-i", f"sine=frequency={frequency}:duration={seconds}",
            "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-g", "24",
            "-c:a", "aac", "-shortest", str(path)], check=True)
        return path

    made = {
        "upload": clip("Uploaded Clip.mp4", "teal", 500),
        "edit": clip("Editable Clip.mp4", "navy", 520),
        "undo": clip("Undo Me.mp4", "maroon", 540),
        "resume": clip("Resume Clip.mp4", "olive", 560, seconds=12),
        **{f"e{n}": clip(f"{SHOW} - S01E0{n}.mp4", c, 300 + 100 * n) for n, c in [(1, "red"), (2, "green"), (3, "blue")]},
    }
    yield made
    shutil.rmtree(folder, ignore_errors=True)


def upload_via_api(server, path, chunk=256 * 1024):
    """Uploads a file through the chunked API the way the page does, and returns the new asset."""
    url = urllib.parse.urlparse(server.url)
    size = path.stat().st_size
    status, created = server.api("POST", "/api/uploads", {"fileName": path.name, "length": size})
    assert status == 201, created
    with open(path, "rb") as handle:
        offset = 0
        while offset < size:
            data = handle.read(chunk)
            connection = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
            connection.request("PUT", f"/api/uploads/{created['id']}", body=data,
                               headers={"Content-Range": f"bytes {offset}-{offset + len(data) - 1}/{size}"})
            response = connection.getresponse()
            body = json.loads(response.read())
            assert response.status == 200, body
            offset = body["offset"]
            connection.close()
    status, asset = server.api("POST", f"/api/uploads/{created['id']}/complete")
    assert status == 202, asset
    return asset


def wait_ready(server, asset_id, timeout=60):
    deadline = time.time() + timeout
    while time.time() < deadline:
        status, asset = server.api("GET", f"/api/assets/{asset_id}")
        assert status == 200, asset
        assert asset["status"] != "failed", asset
        if asset["status"] == "ready":
            return asset
        time.sleep(0.2)
    pytest.fail(f"{asset_id} was not ready in time")


def remove_for_good(server, *ids):
    for asset_id in ids:
        server.api("DELETE", f"/api/assets/{asset_id}?permanently=true")


def card_for(driver, asset_id):
    found = driver.find_elements(By.CSS_SELECTOR, f'.asset-card[data-asset-id="{asset_id}"]')
    return found[0] if found else None


def card_click(driver, asset_id, selector):
    """Clicks `selector` inside the asset's card in one step: cards are redrawn as library
    events arrive, so an element found first could be replaced before a separate click."""
    WebDriverWait(driver, 5).until(lambda d: d.execute_script(
        "const el = document.querySelector(`.asset-card[data-asset-id=\"${arguments[0]}\"] ${arguments[1]}`);"
        "if (!el) return false; el.click(); return true;", asset_id, selector))


def card_title(driver, asset_id):
    return driver.execute_script(
        "return document.querySelector(`.asset-card[data-asset-id=\"${arguments[0]}\"] h2`)?.textContent ?? null", asset_id)


def open_library(driver, server):
    driver.get(server.url + "/")
    WebDriverWait(driver, 10).until(lambda d: d.execute_script(
        "return window.marqueeLibrary?.events?.readyState === 1 && document.querySelectorAll('.asset-card').length > 0"))


def test_upload_a_file_through_the_page_watch_it_package_live_and_play_it(server, driver, clips):
    open_library(driver, server)
    # Remember this page: a reload would lose the marker, and count the list fetches (no polling).
    driver.execute_script("""
        window.__sameDocument = true; window.__seen = [];
        new MutationObserver(() => {
          for (const card of document.querySelectorAll('.asset-card')) {
            const line = card.querySelector('.job')?.textContent ?? '';
            window.__seen.push(`${card.querySelector('h2')?.textContent}|${card.dataset.status}|${line}`);
          }
        }).observe(document.getElementById('assets'), { subtree: true, childList: true, attributes: true, characterData: true });""")
    driver.find_element(By.ID, "file-input").send_keys(str(clips["upload"]))
    # The card is there at once, before the upload finishes.
    WebDriverWait(driver, 5).until(lambda d: any("Uploaded Clip" in s for s in d.execute_script("return window.__seen")))
    try:
        WebDriverWait(driver, 60, poll_frequency=0.1).until(
            lambda d: d.execute_script("return [...document.querySelectorAll('.asset-card[data-status=ready] h2')].some(h => h.textContent === 'Uploaded Clip')"))
    except TimeoutException:
        # Say where it stuck: what the page last showed, and what the server says.
        seen = [s for s in driver.execute_script("return window.__seen") if s.startswith("Uploaded Clip")]
        _, found = server.api("GET", "/api/assets?q=Uploaded%20Clip")
        _, jobs = server.api("GET", "/api/jobs")
        try:
            errors = [entry["message"] for entry in driver.get_log("browser")][-10:]
        except Exception as error:  # noqa: BLE001 - a diagnostic must not hide the failure
            errors = [f"(no browser log: {error})"]
        pytest.fail(f"the uploaded clip's card never showed ready; page saw {seen[-5:]}; page errors {errors}; "
                    f"server has {found}; jobs {jobs}; server said:\n{server.console_tail()}")
    seen = driver.execute_script("return window.__seen")
    statuses = {entry.split("|")[1] for entry in seen if entry.startswith("Uploaded Clip")}
    assert {"uploading", "ready"} <= statuses, statuses
    assert statuses & {"pending", "processing"}, f"no packaging progress was shown: {statuses}"
    assert driver.execute_script("return window.__sameDocument === true"), "the page reloaded"
    fetches = driver.execute_script("return performance.getEntriesByType('resource').filter(e => /\\/api\\/(library|assets)(\\?|$)/.test(e.name)).length")
    assert fetches <= 6, f"the page fetched the list {fetches} times: it should be pushed, not polled"

    # Cards are redrawn as events arrive, so find and follow the link in one step (an element
    # found first could be replaced before the click).
    asset_id = driver.execute_script(
        "const card = [...document.querySelectorAll('.asset-card')].find(c => c.querySelector('h2')?.textContent === 'Uploaded Clip');"
        "return card?.dataset.assetId")
    try:
        driver.execute_script(
            "const card = [...document.querySelectorAll('.asset-card')].find(c => c.dataset.assetId === arguments[0]);"
            "card.querySelector('a').click()", asset_id)
        WebDriverWait(driver, 15).until(lambda d: d.execute_script(
            "const v = document.getElementById('video'); return v.readyState >= 2 && v.currentTime > 0.3"))
        assert driver.find_element(By.ID, "title").text == "Uploaded Clip"
    finally:
        remove_for_good(server, asset_id)


def test_delete_hides_the_card_and_undo_brings_it_back(server, driver, clips):
    asset = upload_via_api(server, clips["undo"])
    try:
        wait_ready(server, asset["id"])
        open_library(driver, server)
        WebDriverWait(driver, 10).until(lambda d: card_for(d, asset["id"]))
        card_click(driver, asset["id"], ".card-actions .delete")
        WebDriverWait(driver, 3).until(lambda d: card_for(d, asset["id"]) is None)
        # The card goes at once; the toast with Undo comes when the server has answered the delete.
        toast = WebDriverWait(driver, 10).until(lambda d: next(iter(d.find_elements(By.CSS_SELECTOR, ".undo-toast")), None))
        WebDriverWait(driver, 5).until(lambda d: "Deleted" in toast.text)
        assert "Deleted" in toast.text and "Undo Me" in toast.text
        assert server.api("GET", f"/api/assets/{asset['id']}")[0] == 404
        toast.find_element(By.TAG_NAME, "button").click()
        WebDriverWait(driver, 5).until(lambda d: card_for(d, asset["id"]))
        assert server.api("GET", f"/api/assets/{asset['id']}")[0] == 200
        # Deleted again without undo, it stays gone after a reload.
        card_click(driver, asset["id"], ".card-actions .delete")
        WebDriverWait(driver, 3).until(lambda d: card_for(d, asset["id"]) is None)
        WebDriverWait(driver, 10).until(lambda d: not d.find_elements(By.CSS_SELECTOR, ".undo-toast"))
        open_library(driver, server)
        time.sleep(0.5)
        assert card_for(driver, asset["id"]) is None
    finally:
        remove_for_good(server, asset["id"])


def test_edit_details_shows_in_the_card_and_the_info_panel(server, driver, clips):
    asset = upload_via_api(server, clips["edit"])
    try:
        wait_ready(server, asset["id"])
        open_library(driver, server)
        WebDriverWait(driver, 10).until(lambda d: card_for(d, asset["id"]))
        card_click(driver, asset["id"], ".card-actions .edit")
        form = driver.find_element(By.ID, "edit-form")
        title = form.find_element(By.NAME, "title")
        title.clear()
        title.send_keys("Evening Concert")
        form.find_element(By.NAME, "description").send_keys("Recorded live in the garden.")
        driver.execute_script("""
            const f = document.getElementById('edit-form').elements;
            f.liveStartDate.value = '2026-11-20T19:00:00'; f.liveEndDate.value = '2026-11-20T21:30:00';""")
        # A release date the server cannot read is refused with its sentence, and the form stays open…
        release = form.find_element(By.NAME, "releaseDate")
        release.clear()
        release.send_keys("May 2024")
        driver.find_element(By.ID, "edit-save").click()
        error = driver.find_element(By.ID, "edit-error")
        WebDriverWait(driver, 5).until(lambda d: "releaseDate" in error.text)
        assert "2024-05-01" in error.text, error.text
        assert driver.find_element(By.ID, "edit-form").is_displayed()
        # …and spaces typed around a year are not part of it (the server reads exactly what the
        # document says; the page trims what a person types).
        release.clear()
        release.send_keys(" 2024 ")
        driver.find_element(By.ID, "edit-save").click()
        WebDriverWait(driver, 5).until(lambda d: card_title(d, asset["id"]) == "Evening Concert")
        _, shown = server.api("GET", f"/api/assets/{asset['id']}")
        assert shown["description"] == "Recorded live in the garden." and shown["liveStartDate"] and shown["liveEndDate"]
        assert shown["releaseDate"] == "2024", shown["releaseDate"]

        card_click(driver, asset["id"], "a")
        WebDriverWait(driver, 15).until(lambda d: d.execute_script("return window.marquee?.session?.metadata?.title === 'Evening Concert'"))
        driver.find_element(By.ID, "info-button").click()
        WebDriverWait(driver, 3).until(lambda d: d.find_element(By.ID, "info-panel").is_displayed())
        assert driver.find_element(By.ID, "info-title").text == "Evening Concert"
        assert driver.find_element(By.ID, "info-description").text == "Recorded live in the garden."
        dates = driver.find_element(By.ID, "info-dates").text
        assert dates.startswith("Live") and "2026" in dates, dates
    finally:
        remove_for_good(server, asset["id"])


def test_a_series_groups_into_one_card_and_up_next_plays_the_second_episode(server, driver, clips):
    # Added out of order: the page must still list them E1, E2, E3.
    assets = {key: upload_via_api(server, clips[key]) for key in ["e3", "e1", "e2"]}
    try:
        for asset in assets.values():
            wait_ready(server, asset["id"])
        open_library(driver, server)
        WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".series-card"))
        series_cards = [c for c in driver.find_elements(By.CSS_SELECTOR, ".series-card") if c.find_element(By.TAG_NAME, "h2").text == SHOW]
        assert len(series_cards) == 1
        assert "3 episodes" in series_cards[0].text
        for asset in assets.values():
            assert card_for(driver, asset["id"]) is None, "an episode also showed as a card of its own"
        series_cards[0].find_element(By.CSS_SELECTOR, ".card-link").click()
        WebDriverWait(driver, 3).until(lambda d: d.find_element(By.ID, "series-sheet").is_displayed())
        rows = driver.find_elements(By.CSS_SELECTOR, "#series-seasons .episode")
        assert [r.get_attribute("data-asset-id") for r in rows] == [assets[k]["id"] for k in ["e1", "e2", "e3"]]
        assert "Season 1" in driver.find_element(By.ID, "series-seasons").text
        rows[0].find_element(By.TAG_NAME, "a").click()

        WebDriverWait(driver, 15).until(lambda d: d.execute_script("return window.marquee?.session?.metadata?.subtitle === 'S1 · E1'"))
        assert driver.find_element(By.ID, "title").text == SHOW
        # The browser's now-playing controls name the episode once its picture shows.
        WebDriverWait(driver, 15).until(lambda d: d.execute_script("return navigator.mediaSession.metadata?.artist") == "S1 · E1")
        # Play to the end: Up Next offers the second episode.
        WebDriverWait(driver, 20).until(lambda d: d.find_elements(By.ID, "up-next"), "no Up Next card at the end")
        up_next = driver.find_element(By.ID, "up-next")
        assert "S1 · E2" in up_next.text
        # The offer is the session's: the REST API (what a remote uses) sees it, and dismisses it.
        session_id = driver.execute_script("return window.marquee.session.id")
        status, snapshot = server.api("GET", f"/api/sessions/{session_id}")
        assert status == 200 and snapshot["upNext"]["state"] == "offered", snapshot
        assert snapshot["upNext"]["assetID"] == assets["e2"]["id"] and 0 < snapshot["upNext"]["secondsLeft"] <= 8, snapshot["upNext"]
        status, answer = server.api("POST", f"/api/sessions/{session_id}/intents", {"intent": "up-next", "choice": "dismiss"})
        assert status == 200 and answer["state"]["upNext"]["state"] == "dismissed", answer
        WebDriverWait(driver, 5).until(lambda d: not d.find_elements(By.ID, "up-next"), "a remote's dismissal did not hide the card")
        time.sleep(9)  # past the countdown: a dismissed offer must not play
        assert driver.current_url.endswith(f"/watch/{assets['e1']['id']}"), driver.current_url
        # Played again to the end, it is offered again; left alone, the server's countdown plays it.
        driver.execute_script("document.getElementById('play-pause').click()")
        WebDriverWait(driver, 20).until(lambda d: d.find_elements(By.ID, "up-next"), "no Up Next card at the second end")
        WebDriverWait(driver, 15).until(lambda d: d.current_url.endswith(f"/watch/{assets['e2']['id']}"), "the countdown did not play the next episode")
        driver.back()
        WebDriverWait(driver, 20).until(lambda d: d.find_elements(By.ID, "up-next"), "no Up Next card after coming back")
        driver.find_element(By.ID, "up-next-play").click()
        WebDriverWait(driver, 10).until(lambda d: d.current_url.endswith(f"/watch/{assets['e2']['id']}"))
        WebDriverWait(driver, 15).until(lambda d: d.execute_script(
            "const v = document.getElementById('video'); return window.marquee?.session?.metadata?.subtitle === 'S1 · E2' && v.currentTime > 0.2"))
        assert driver.execute_script("return navigator.mediaSession.metadata?.artist") == "S1 · E2"
        assert driver.execute_script("return navigator.mediaSession.metadata?.album") == SHOW
    finally:
        remove_for_good(server, *[a["id"] for a in assets.values()])


def test_the_card_shows_how_far_you_got_and_the_player_resumes_there(server, driver, clips):
    asset = upload_via_api(server, clips["resume"])
    try:
        wait_ready(server, asset["id"])
        status, stored = server.api("PUT", f"/api/assets/{asset['id']}/position", {"position": 6.5})
        assert status == 200 and stored["resumeTime"] == 6.5, stored
        open_library(driver, server)
        WebDriverWait(driver, 10).until(lambda d: card_for(d, asset["id"]))
        width = driver.execute_script(
            "return document.querySelector(`.asset-card[data-asset-id=\"${arguments[0]}\"] .artwork .watched span`).style.width", asset["id"])
        assert width == f"{round(6.5 / stored['duration'] * 100)}%", width
        card_click(driver, asset["id"], "a")
        WebDriverWait(driver, 15).until(lambda d: d.execute_script(
            "const v = document.getElementById('video'); return v.readyState >= 2 && !v.seeking && v.currentTime >= 6.4"))
        # Played on and paused, the session's reports store where it stopped.
        WebDriverWait(driver, 10).until(lambda d: d.execute_script("return document.getElementById('video').currentTime > 7.5"))
        driver.execute_script("document.getElementById('play-pause').click()")
        WebDriverWait(driver, 5).until(lambda d: d.execute_script("return document.getElementById('video').paused"))
        paused_at = driver.execute_script("return document.getElementById('video').currentTime")
        deadline = time.time() + 5
        while time.time() < deadline:
            _, now = server.api("GET", f"/api/assets/{asset['id']}/position")
            if abs(now["position"] - paused_at) < 0.6:
                break
            time.sleep(0.2)
        assert abs(now["position"] - paused_at) < 0.6, (now, paused_at)
    finally:
        remove_for_good(server, asset["id"])


def rss_kb(pid, field):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise AssertionError(f"no {field} for {pid}")


def test_a_two_gigabyte_upload_keeps_resident_memory_under_150_mb():
    data = tempfile.mkdtemp(prefix="marquee-big-upload-")
    process = subprocess.Popen([marquee_binary(), "serve", "--data", data, "--port", "0", "--no-samples"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", process.stdout.readline())
        assert match
        drain_console(process, ARTIFACTS / "big-upload-console.log")
        port = int(match.group(1))
        size = 2 * 1024 ** 3
        block = os.urandom(1024 * 1024)

        def call(method, path, body=None, headers=None):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
            connection.request(method, path, body=body, headers=headers or {})
            response = connection.getresponse()
            text = response.read()
            connection.close()
            return response.status, (json.loads(text) if text else None)

        status, upload = call("POST", "/api/uploads", json.dumps({"fileName": "big.mp4", "length": size}), {"content-type": "application/json"})
        assert status == 201, upload
        # Reset the peak so VmHWM measures the upload alone.
        with open(f"/proc/{process.pid}/clear_refs", "w") as clear:
            clear.write("5")
        baseline = rss_kb(process.pid, "VmRSS")
        samples = []
        done = threading.Event()

        def sample():
            while not done.is_set():
                samples.append(rss_kb(process.pid, "VmRSS"))
                time.sleep(0.1)

        sampler = threading.Thread(target=sample)
        sampler.start()
        chunk = 512 * 1024 ** 2  # four PUTs of 512 MB, each streamed from 1 MB blocks generated here
        started = time.time()
        try:
            for start in range(0, size, chunk):
                end = min(start + chunk, size)
                body = (block for _ in range((end - start) // len(block)))
                status, result = call("PUT", f"/api/uploads/{upload['id']}", body,
                                      {"Content-Range": f"bytes {start}-{end - 1}/{size}", "Content-Length": str(end - start)})
                assert status == 200, result
                assert result["offset"] == end
        finally:
            done.set()
            sampler.join()
        elapsed = time.time() - started
        peak = rss_kb(process.pid, "VmHWM")
        part = Path(data) / "uploads" / f"{upload['id']}.part"
        assert part.stat().st_size == size, "the bytes were not all stored on disk"
        print(f"\n2 GB upload: {elapsed:.1f} s ({size / elapsed / 1e6:.0f} MB/s), RSS baseline {baseline / 1024:.1f} MB, "
              f"max sampled {max(samples) / 1024:.1f} MB, VmHWM {peak / 1024:.1f} MB over {len(samples)} samples")
        assert max(samples) < 150 * 1024, f"resident memory reached {max(samples) / 1024:.1f} MB"
        assert peak < 150 * 1024, f"peak resident memory (VmHWM) reached {peak / 1024:.1f} MB"

        # Finishing adds it to the library; random bytes are no media, and say so in plain words.
        status, asset = call("POST", f"/api/uploads/{upload['id']}/complete")
        assert status == 202, asset
        deadline = time.time() + 60
        while time.time() < deadline:
            _, asset = call("GET", f"/api/assets/{asset['id']}")
            if asset["status"] == "failed":
                break
            time.sleep(0.3)
        assert asset["status"] == "failed", asset
        assert asset["job"]["reason"] == "notMedia", asset["job"]
        assert "/" not in asset["job"]["message"], asset["job"]["message"]
        assert rss_kb(process.pid, "VmRSS") < 150 * 1024
        # Removing the failed item deletes the 2 GB file.
        status, _ = call("DELETE", f"/api/assets/{asset['id']}?permanently=true")
        assert status == 204
        assert not list((Path(data) / "uploaded").rglob("*.mp4"))
        assert not list((Path(data) / "uploads").iterdir())
    finally:
        process.terminate()
        process.wait(timeout=10)
        shutil.rmtree(data, ignore_errors=True)
