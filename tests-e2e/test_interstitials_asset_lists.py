"""Ad breaks of several ads in Chromium (issue 13): an asset list (`X-ASSET-LIST`) of two assets
plays both, "Ad 1 of 2" then "Ad 2 of 2", then the primary resumes at the event's resumption
offset; and the switch from one ad of a break to the next shows no gap a viewer could see (the
next ad is loaded in the break's other element while the current one plays). Frames are timed
with requestVideoFrameCallback (interstitial_frames.js). Short clips: each listed asset is the
Sample Ad's first two-second segment, served from another loopback server as HLS."""
from interstitial_frames import record_frames, transitions
from player_page import PlayerPage
from ad_relay_server import short_ad_server
from test_interstitials import AD, TOUR, active_id, badge, breaks, shot  # noqa: F401 (breaks is a fixture)

# The 100 ms target for a switch is measured by `make bench` (scripts/bench/interstitials.sh),
# not asserted here: these tests check what a viewer sees (no primary frame between two ads)
# and that no switch froze the picture for a visible while, which holds under any load.
FROZEN_MS = 1000


def position(page):
    found = page.js("return window.marquee.session?.interstitialBreak ?? null")
    return (found["position"], found["count"]) if found else None


def frames(page):
    return transitions(page.js("return window.__frames"))


def test_an_asset_list_of_two_plays_both_ads_then_resumes_the_primary_at_its_offset(server, browser, breaks):
    external = short_ad_server(server.url, server.asset(AD)["id"])
    try:
        listed = breaks(time=3, content={"assetList": f"{external.url}/list.json"}, duration=4, resumptionOffset=2)
        driver = browser()
        record_frames(driver)
        page = PlayerPage(driver, server, TOUR)

        page.wait_for(lambda: active_id(page) == listed["id"], "the asset-list break did not start", timeout=15)
        # Resolved as the break approached: both assets count from the first ad on.
        page.wait_for(lambda: badge(page).startswith("Ad 1 of 2 · "), f"no 'Ad 1 of 2' badge: {badge(page)!r}", timeout=5)
        assert position(page) == (1, 2)
        shot(driver, "asset-list-ad-1-of-2")
        page.wait_for(lambda: position(page) == (2, 2), f"the list's second asset did not play (at {position(page)})", timeout=10)
        page.wait_for(lambda: badge(page).startswith("Ad 2 of 2 · "), f"no 'Ad 2 of 2' badge: {badge(page)!r}", timeout=5)
        assert active_id(page) == listed["id"], "the second asset is the same event going on"
        page.wait_for(lambda: page.js("const ad = document.getElementById('interstitial-video'); return ad.currentTime > 0.3 && !ad.paused"),
                      "the second asset did not play", timeout=5)
        shot(driver, "asset-list-ad-2-of-2")
        page.wait_for(lambda: active_id(page) is None, "the break did not end", timeout=10)

        # The primary resumes where it stopped (3 s) plus the event's resumption offset (2 s), and plays on.
        assert abs(page.js("return window.marquee.session.currentTime") - 5) < 0.6, page.js("return window.marquee.session")
        page.wait_for(lambda: page.current_time > 5.3 and not page.video("paused"), "the primary did not resume at 5 s", timeout=10)
        assert page.current_time < 7, f"the primary resumed at {page.current_time}, not at 5 s"
        assert len([p for p in external.requests if p == "/list.json"]) == 1, external.requests

        seen = frames(page)
        assert len(seen["between"]) == 1, seen
        assert seen["flashes"] == 0, f"the primary showed between the two ads: {seen}"
        assert max(seen["between"]) < FROZEN_MS, f"ad → ad gap {seen['between']} ms"
    finally:
        external.close()


def test_the_next_ad_of_a_break_is_loaded_ahead_so_ad_to_ad_shows_no_gap(server, browser, breaks):
    for _ in range(3):
        breaks(time=3, playoutLimit=1.2)
    driver = browser()
    record_frames(driver)
    page = PlayerPage(driver, server, TOUR)
    page.wait_for(lambda: position(page) == (3, 3), "the break's third ad did not play", timeout=20)
    page.wait_for(lambda: active_id(page) is None and page.current_time > 3.5, "the primary did not resume", timeout=10)
    seen = frames(page)
    assert len(seen["between"]) == 2, seen
    assert seen["flashes"] == 0, f"the primary showed between two ads: {seen}"
    assert max(seen["between"]) < FROZEN_MS, f"ad → ad gaps {seen['between']} ms (the picture froze)"
    print(f"ad → ad gaps: {[round(gap) for gap in seen['between']]} ms; primary → break {[round(g) for g in seen['out']]} ms")
