"""Ad breaks end to end (issue 13): authored over the API, played by the session's rules in
Chromium — a pre-roll, two mid-roll ads back to back ("Ad 1 of 2"), a post-roll, a skip
button at its offset, a jump-restricted break played before a seek's target, a `once` break
not replayed — with the timeline marks on screen. The events are added to the shared sample
library's Test Pattern Tour and removed again, so other tests find it as it was."""
import json
import time

import pytest

from ad_relay_server import AdRelayServer
from conftest import ARTIFACTS
from player_page import PlayerPage

TOUR = "Test Pattern Tour"  # 30 s, no breaks of its own
AD = "Sample Ad"            # 5 s


@pytest.fixture
def breaks(server):
    """Adds events to the Tour; yields a function that adds one; deletes them all afterwards."""
    tour = server.asset(TOUR)["id"]
    ad = server.asset(AD)["id"]
    added = []

    def add(**event):
        event.setdefault("content", {"assetID": ad})
        status, body = server.api("POST", f"/api/assets/{tour}/interstitials", event)
        assert status == 201, body
        added.append(body["id"])
        return body

    yield add
    for event_id in added:
        server.api("DELETE", f"/api/assets/{tour}/interstitials/{event_id}")
    status, body = server.api("GET", f"/api/assets/{tour}/interstitials")
    assert status == 200 and body["events"] == [], body


def active_id(page):
    return page.js("return window.marquee.session?.activeInterstitial?.id ?? null")


def watch_breaks(page, until, timeout):
    """The IDs of the breaks that play (in order) until `until()` is true."""
    seen = []
    deadline = time.time() + timeout
    while time.time() < deadline:
        current = active_id(page)
        if current and (not seen or seen[-1] != current):
            seen.append(current)
        if until():
            return seen
        time.sleep(0.05)
    raise AssertionError(f"timed out; breaks seen so far: {seen}")


def badge(page):
    """The ad badge's text (read from the DOM: the top bar fades while playing)."""
    return page.js("return document.getElementById('ad-badge').textContent")


def shot(driver, name):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / f"interstitials-{name}.png"))


def test_pre_roll_two_mid_rolls_a_skip_button_and_a_post_roll(server, driver, breaks):
    pre = breaks(cue="pre", playoutLimit=1.5)
    first = breaks(time=6, playoutLimit=2)
    second = breaks(time=6, playoutLimit=4, timelineOccupies="range",
                    skipControl={"offset": 1, "labels": {"en": "Skip this ad", "ja": "この広告をスキップ"}})
    post = breaks(cue="post", playoutLimit=1.5)

    page = PlayerPage(driver, server, TOUR)
    # The pre-roll plays before the first primary frame.
    page.wait_for(lambda: active_id(page) == pre["id"], "the pre-roll did not play first", timeout=10)
    assert page.video("currentTime") == 0
    page.wait_for(lambda: badge(page).startswith("Ad · "), "no ad badge")
    shot(driver, "pre-roll")
    page.wait_for(lambda: active_id(page) is None, "the pre-roll did not end", timeout=10)

    # Marks: pre-roll and post-roll points, a point for the first mid-roll, a shaded range for the second.
    marks = page.js("return [...document.querySelectorAll('#timeline .markers span')].map(m => [m.dataset.eventId, m.dataset.occupancy])")
    assert sorted(marks) == sorted([[pre["id"], "point"], [first["id"], "point"], [second["id"], "range"], [post["id"], "point"]]), marks
    shot(driver, "markers")

    # Two ads back to back at 6 s: "Ad 1 of 2", then "Ad 2 of 2" with its skip button.
    page.wait_for(lambda: active_id(page) == first["id"], "the first mid-roll did not play", timeout=15)
    page.wait_for(lambda: badge(page).startswith("Ad 1 of 2 · "), "no 'Ad 1 of 2' badge")
    position = page.js("return window.marquee.session.interstitialBreak")
    assert (position["position"], position["count"]) == (1, 2), position
    assert abs(position["resumeAt"] - 6) < 0.6, position  # inserted: the primary resumes where it stopped
    shot(driver, "ad-1-of-2")
    assert not page.element("skip-ad-button").is_displayed(), "the first ad has no skip button"
    page.wait_for(lambda: active_id(page) == second["id"], "the second mid-roll did not follow", timeout=10)
    page.wait_for(lambda: badge(page).startswith("Ad 2 of 2 · "), "no 'Ad 2 of 2' badge")
    assert not page.element("skip-ad-button").is_displayed(), "the skip button showed before its offset"
    page.wait_for(lambda: page.element("skip-ad-button").is_displayed(), "the skip button never appeared", timeout=5)
    assert page.element("skip-ad-button").text == "Skip this ad"
    clock = page.js("return document.getElementById('interstitial-video').currentTime")
    assert clock >= 0.75, f"the skip button appeared {clock:.2f} s into the ad, before its 1 s offset"
    shot(driver, "skip-button")
    page.element("skip-ad-button").click()
    page.wait_for(lambda: active_id(page) is None, "the skip button did not skip", timeout=5)
    # Both ads were inserted (resumption offset 0): the primary goes on from where it stopped.
    assert abs(page.js("return window.marquee.session.currentTime") - 6) < 0.6

    # The post-roll plays after the end, then the item ends.
    status, body = server.api("POST", f"/api/sessions/{page.js('return window.marquee.session.id')}/intents", {"intent": "seek", "time": 28})
    assert status == 200, body
    page.wait_for(lambda: active_id(page) == post["id"], "the post-roll did not play", timeout=15)
    shot(driver, "post-roll")
    page.wait_for_status("ended")
    assert active_id(page) is None


def test_a_seek_over_a_jump_restricted_break_plays_it_first_and_a_once_break_plays_once(server, driver, breaks):
    once = breaks(time=10, once=True, playoutLimit=2, restrictions={"jump": True})
    jump = breaks(time=20, playoutLimit=2, restrictions={"jump": True, "skip": True})

    page = PlayerPage(driver, server, TOUR, "?autoplay=0")
    session = page.js("return window.marquee.session.id")

    def intent(**body):
        status, answer = server.api("POST", f"/api/sessions/{session}/intents", body)
        assert status == 200, answer
        return answer

    # Playback reaches the once break at 10 s.
    intent(intent="seek", time=8.5)
    page.wait_until_seeked(8.5)
    intent(intent="play")
    seen = watch_breaks(page, lambda: active_id(page) is None and page.current_time > 10.5, timeout=15)
    assert seen == [once["id"]], seen

    # A seek from 11 s to 25 s crosses the jump-restricted break at 20 s: it plays first, then the seek lands.
    answer = intent(intent="seek", time=25)
    assert answer["commands"][0]["command"] == "play-interstitial" and answer["commands"][0]["interstitial"]["id"] == jump["id"], answer
    page.wait_for(lambda: active_id(page) == jump["id"], "the jump-restricted break did not play", timeout=5)
    assert page.element("skip-forward").is_enabled() is False, "seeking is refused inside a skip-restricted break"
    shot(driver, "jump-restricted")
    page.wait_for(lambda: active_id(page) is None, "the break did not end", timeout=10)
    page.wait_until_seeked(25, tolerance=0.8)

    # Back before the once break and through it again: it does not replay.
    intent(intent="seek", time=8)
    page.wait_until_seeked(8, tolerance=0.8)
    seen = watch_breaks(page, lambda: page.current_time > 11.5, timeout=15)
    assert seen == [], f"the once break played again: {seen}"


def test_served_playlists_pass_strict_inspection_and_play_in_ffmpeg(server, breaks):
    from conftest import marquee_binary
    import json
    import subprocess
    tour = server.asset(TOUR)["id"]
    breaks(cue="pre", playoutLimit=3, once=True)
    breaks(time=10, restrictions={"skip": True, "jump": True},
           skipControl={"offset": 2, "duration": 2, "labels": {"en": "Skip ad", "ja": "広告をスキップ"}})
    master_url = f"{server.url}/media/{tour}/master.m3u8"
    master = subprocess.run([marquee_binary(), "inspect", "--strict", "--json", master_url], capture_output=True, text=True, timeout=60)
    assert master.returncode == 0, master.stdout + master.stderr
    with urllib_open(master_url) as response:
        text = response.read().decode()
    assert 'EXT-X-SESSION-DATA:DATA-ID="skip-' in text and 'LANGUAGE="ja"' in text, text
    media_uri = next(line for line in text.splitlines() if line and not line.startswith("#"))
    media_url = f"{server.url}/media/{tour}/{media_uri}"
    inspected = subprocess.run([marquee_binary(), "inspect", "--strict", "--json", media_url], capture_output=True, text=True, timeout=60)
    assert inspected.returncode == 0, inspected.stdout + inspected.stderr
    document = json.loads(inspected.stdout)
    items = document["interstitials"]
    assert [i["cue"] for i in items] == [["PRE", "ONCE"], []], items
    assert items[1]["restrict"] == ["SKIP", "JUMP"] and items[1]["start"] == 10, items
    played = subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-i", master_url, "-t", "2", "-f", "null", "-"],
                            capture_output=True, text=True, timeout=120)
    assert played.returncode == 0, played.stderr


def urllib_open(url):
    import urllib.request
    return urllib.request.urlopen(url, timeout=10)


def test_the_break_editor_adds_a_break_at_the_current_time_and_the_marks_update(server, driver):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select
    tour = server.asset(TOUR)["id"]
    page = PlayerPage(driver, server, TOUR, "?autoplay=0")
    try:
        page.js("document.getElementById('video').currentTime = 12")
        page.wait_until_seeked(12)
        page.wait_for(lambda: page.element("ad-breaks-button").is_displayed(), "the owner was not offered the break editor")
        page.element("ad-breaks-button").click()
        page.wait_for(lambda: page.driver.find_elements(By.CSS_SELECTOR, "#ad-breaks form"), "the editor did not open")
        form = page.driver.find_element(By.CSS_SELECTOR, "#ad-breaks form")
        assert "0:12" in form.text
        Select(form.find_element(By.NAME, "ad")).select_by_visible_text(AD)
        form.find_element(By.NAME, "jump").click()
        form.find_element(By.NAME, "skipOffset").send_keys("2")
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        page.wait_for(lambda: page.js("return document.querySelectorAll('#timeline .markers .interstitial-point').length") == 1,
                      "the new break's mark did not appear")
        left = page.js("return parseFloat(document.querySelector('#timeline .markers .interstitial-point').style.left.replace('calc(', ''))")
        assert left is not None and abs(left - 40) < 1, left  # 12 s of 30 s
        status, body = server.api("GET", f"/api/assets/{tour}/interstitials")
        assert [(round(e["time"]), e["restrictions"]["jump"], e["skipControl"]["offset"]) for e in body["events"]] == [(12, True, 2)], body
        shot(driver, "editor")
        page.driver.find_element(By.CSS_SELECTOR, "#ad-breaks .delete-break").click()
        page.wait_for(lambda: page.js("return document.querySelectorAll('#timeline .markers span').length") == 0,
                      "the deleted break's mark stayed")
    finally:
        _, body = server.api("GET", f"/api/assets/{tour}/interstitials")
        for event in body["events"]:
            server.api("DELETE", f"/api/assets/{tour}/interstitials/{event['id']}")


def external_ad_server(marquee_url, ad_id):
    """Another HTTP server on loopback serving the Sample Ad as HLS on another origin, with
    `/list.json` an asset list naming it (five seconds)."""
    return AdRelayServer(marquee_url, ad_id, assets=lambda url: [{"URI": f"{url}/ad/master.m3u8", "DURATION": 5}])


def test_external_hls_ads_and_asset_lists_play_in_the_break_element_and_a_failed_one_is_skipped(server, browser, breaks):
    ad_id = server.asset(AD)["id"]
    external = external_ad_server(server.url, ad_id)
    try:
        hls = breaks(time=4, content={"uri": f"{external.url}/ad/master.m3u8"}, duration=5, playoutLimit=2, resumptionOffset=0)
        listed = breaks(time=10, content={"assetList": f"{external.url}/list.json"}, duration=5, playoutLimit=2, resumptionOffset=0)
        missing = breaks(time=14, content={"uri": f"{external.url}/missing/master.m3u8"}, duration=5, resumptionOffset=0)

        driver = browser()
        # The page's will-present / did-finish notifications, from the first moment.
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
          window.__notes = [];
          window.addEventListener('marquee:interstitial', (e) => window.__notes.push([e.detail.kind, e.detail.event.id, e.detail.reason ?? null, e.detail.message ?? null]));
        """})
        page = PlayerPage(driver, server, TOUR, "?autoplay=0")
        session = page.js("return window.marquee.session.id")

        # The proxy fetches only from the origins a break names.
        status, body = server.api("GET", f"/api/sessions/{session}/interstitials/{hls['id']}/external?url=http%3A%2F%2F127.0.0.1%3A9%2Fx")
        assert status == 403, body
        status, body = server.api("GET", f"/api/sessions/{session}/interstitials/nope/external?url=http%3A%2F%2F127.0.0.1%3A9%2Fx")
        assert status == 404, body

        # Nothing of the asset-list break is fetched at load time (it is 10 s away).
        time.sleep(1.5)
        assert external.asked("/list.json") == [], external.requests

        status, body = server.api("POST", f"/api/sessions/{session}/intents", {"intent": "play"})
        assert status == 200, body

        def ad_plays(event_id):
            """The break's element is in front and its clock moves past half a second."""
            page.wait_for(lambda: active_id(page) == event_id, f"{event_id} did not start", timeout=15)
            page.wait_for(lambda: page.js("""
                const ad = document.getElementById('interstitial-video');
                return !ad.hidden && !('pending' in ad.dataset) && ad.currentTime > 0.5""") or active_id(page) != event_id,
                f"{event_id} did not play", timeout=10)
            assert active_id(page) == event_id, f"{event_id} ended before it played: {page.js('return window.marquee.session.interstitialFailure')}"

        # The external HLS URL plays in the break's element (its segments came from the other server).
        ad_plays(hls["id"])
        shot(driver, "external-hls")
        assert any(path.endswith(".m4s") or path.endswith(".mp4") for _, path in external.asked("/ad/")), external.requests
        page.wait_for(lambda: active_id(page) is None, "the external ad did not end", timeout=10)

        # The asset list is fetched as its break approaches (before it starts, after the page loaded), then its asset plays.
        page.wait_for(lambda: external.asked("/list.json"), "the asset list was not fetched ahead of its break", timeout=15)
        assert active_id(page) is None, "the asset list was fetched only when its break started"
        ad_plays(listed["id"])
        page.wait_for(lambda: active_id(page) is None, "the listed ad did not end", timeout=10)

        # The missing one fails: skipped, the failure reported, the primary goes on past it.
        page.wait_for(lambda: page.current_time > 15, "the primary did not go on past the failed break", timeout=20)
        failure = page.js("return window.marquee.session.interstitialFailure")
        assert failure and "404" in failure, failure
        notes = page.js("return window.__notes")
        assert [n[:3] for n in notes] == [
            ["will-present", hls["id"], None], ["did-finish", hls["id"], "playout-limit"],
            ["will-present", listed["id"], None], ["did-finish", listed["id"], "playout-limit"],
            ["will-present", missing["id"], None], ["did-finish", missing["id"], "failed"],
        ], notes
        assert "404" in (notes[-1][3] or ""), notes
    finally:
        external.close()


def test_snap_out_moves_the_break_to_the_primarys_nearest_segment_boundary_in_the_page(server, driver, breaks):
    snapped = breaks(time=7.3, snap={"out": True, "in": True}, playoutLimit=1, resumptionOffset=0)
    page = PlayerPage(driver, server, TOUR, "?autoplay=0")
    # The primary's segment boundaries: its first video variant's segment starts and its end.
    boundaries = page.js("""return (async () => {
        const manifest = await fetch(window.marquee.session.manifestURL).then((r) => r.json());
        const segments = manifest.video[0].segments;
        return segments.map((s) => s.start).concat([segments.at(-1).start + segments.at(-1).duration]);
    })()""")
    nearest = min(boundaries, key=lambda b: (abs(b - 7.3), b))
    assert nearest != 7.3, boundaries
    # The session holds the primary there and marks it there; the authored time is unchanged.
    assert abs(page.js("return window.marquee.session.boundary") - nearest) < 1e-6, (boundaries, page.js("return window.marquee.session"))
    marks = page.js("return window.marquee.session.interstitials")
    assert [(m["eventID"], round(m["start"], 6)) for m in marks] == [(snapped["id"], round(nearest, 6))], marks
    status, body = server.api("GET", f"/api/assets/{server.asset(TOUR)['id']}/interstitials")
    assert [e["time"] for e in body["events"]] == [7.3], body
