"""The library and the player in headless Firefox ESR, driven over WebDriver BiDi
(firefox_bidi.py): the library lists the samples; a card opens the player, which under
Firefox's own autoplay policy waits for Play; a clip plays to its end and replays; arrow keys
and a click on the timeline seek; the speed menu sets 2×; and Firefox sends nothing to any
address but loopback while it does all that. One Firefox serves the whole module."""
import json
import shutil
import subprocess
import time

import pytest

from conftest import ARTIFACTS, marquee_binary

pytestmark = pytest.mark.skipif(shutil.which("firefox-esr") is None,
                                reason="firefox-esr is not installed (scripts/setup.sh --test installs it)")

TOUR = "Test Pattern Tour"          # 30 s, 720p and 360p, two audio languages, subtitles
PORTRAIT = "Portrait Clip"          # 15 s, 9:16
VIDEO_STATE = """(() => { const v = document.getElementById('video'), p = document.getElementById('player');
  return {time: v.currentTime, duration: v.duration, paused: v.paused, ended: v.ended, seeking: v.seeking,
          rate: v.playbackRate, readyState: v.readyState, status: p.dataset.status, error: v.error && v.error.message}; })()"""


@pytest.fixture(scope="module")
def firefox():
    from firefox_bidi import Firefox
    browser = Firefox.launch(width=1280, height=720)
    browser.subscribe("log.entryAdded")
    yield browser
    browser.quit()


@pytest.fixture
def tab(firefox, request):
    page = firefox.tab()
    page.set_viewport(1280, 720)
    seen = len(firefox.events)
    yield page
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    try:
        page.screenshot(ARTIFACTS / f"firefox-{request.node.name}.png")
    finally:
        # What the page logged, shown by pytest when the test failed.
        print("\n".join(line for line in firefox.console()[seen:]))
        page.navigate("about:blank")  # ends the player page and its session before the next test


def open_player(tab, server, title, query=""):
    tab.navigate(f"{server.url}/watch/{server.asset(title)['id']}{query}")
    tab.wait_for("window.marquee?.session?.duration > 0 && document.getElementById('video').readyState >= 2",
                 "the player did not load in Firefox")


def state(tab):
    return tab.evaluate(VIDEO_STATE)


def wait_until_seeked(tab, expected, tolerance=0.6, timeout=10):
    tab.wait_for(f"(() => {{ const v = document.getElementById('video');"
                 f" return !v.seeking && Math.abs(v.currentTime - {expected}) <= {tolerance}; }})()",
                 f"the playhead did not reach {expected} s (state {state(tab)})", timeout)


def test_library_lists_the_samples(server, tab):
    tab.navigate(server.url + "/")
    tab.wait_for("document.querySelectorAll('.asset-card').length === 3", "the library did not list three cards")
    cards = tab.evaluate("""[...document.querySelectorAll('.asset-card')].map((card) => ({
        title: card.querySelector('h2').textContent, duration: card.querySelector('.duration')?.textContent,
        artwork: getComputedStyle(card.querySelector('.artwork')).backgroundImage,
        link: card.querySelector('a').href}))""")
    assert sorted(c["title"] for c in cards) == ["Code Walkthrough", "Portrait Clip", TOUR]
    tour = next(c for c in cards if c["title"] == TOUR)
    assert tour["duration"] == "0:30"
    assert "/watch/" in tour["link"]
    # The artwork is a JPEG Firefox decodes.
    artwork_url = tour["artwork"].split('"')[1]
    width = tab.call("(url) => new Promise((done) => { const image = new Image();"
                     " image.onload = () => done(image.naturalWidth); image.onerror = () => done(0); image.src = url; })",
                     artwork_url)
    assert width >= 640


def test_a_card_opens_the_player_which_waits_for_play(server, tab):
    """Unlike Chromium, Firefox blocks audible autoplay on the new page even after the click on
    the library's card: the player must come up paused with Play offered, not spin or fail."""
    tab.navigate(server.url + "/")
    tab.wait_for("document.querySelectorAll('.asset-card').length === 3", "the library did not list three cards")
    tab.click_element(f".asset-card[data-asset-id='{server.asset(PORTRAIT)['id']}'] a")
    tab.wait_for("document.getElementById('title')?.textContent === 'Portrait Clip'", "the card did not open the player")
    tab.wait_for("document.getElementById('video')?.readyState >= 2 && document.getElementById('player').dataset.status === 'paused'",
                 f"the blocked autoplay did not settle as paused ({state(tab)})")
    time.sleep(0.5)
    settled = state(tab)
    assert settled["paused"] is True and settled["time"] == 0 and settled["error"] is None
    assert tab.evaluate("document.getElementById('play-pause').getAttribute('aria-label')") == "Play"
    assert tab.evaluate("document.getElementById('loading').hidden"), "a spinner is left on screen"
    assert tab.evaluate("document.getElementById('error').hidden")
    tab.click_element("#play-pause")
    tab.wait_for("(() => { const v = document.getElementById('video'); return !v.paused && v.currentTime > 0.3; })()",
                 f"Play did not start playback ({state(tab)})")
    tab.wait_for("document.getElementById('play-pause').getAttribute('aria-label') === 'Pause'", "the button did not turn to Pause")


def test_a_clip_plays_to_its_end_and_replays(server, tab):
    open_player(tab, server, PORTRAIT)
    tab.press_key("k")  # a gesture: Firefox's autoplay policy lets the page play from here on
    tab.wait_for("document.getElementById('video').currentTime > 0.5", f"playback never started ({state(tab)})")
    tab.wait_for("document.getElementById('player').dataset.status === 'ended'",
                 f"the clip never reached its end ({state(tab)})", timeout=30)
    ended = state(tab)
    assert ended["ended"] is True and ended["error"] is None
    assert ended["time"] >= ended["duration"] - 0.1
    tab.wait_for("document.getElementById('play-pause').getAttribute('aria-label') === 'Replay'",
                 "the play button did not offer to play again")
    tab.press_key("k")
    tab.wait_for("(() => { const v = document.getElementById('video'); return !v.paused && v.currentTime > 0.2 && v.currentTime < 5; })()",
                 f"play after the end did not replay from the start ({state(tab)})")


def test_the_tour_plays_up_to_its_last_frame(server, tab):
    open_player(tab, server, TOUR)
    tab.press_key("k")
    tab.press_key("9")  # 90 %: 27 s
    wait_until_seeked(tab, 27, tolerance=1)
    tab.wait_for("(() => { const v = document.getElementById('video'); return v.currentTime >= v.duration - 0.1; })()",
                 f"playback stopped short of the end ({state(tab)})", timeout=15)


def test_the_tour_reaches_the_ended_state(server, tab):
    open_player(tab, server, TOUR)
    tab.press_key("k")
    tab.press_key("9")
    wait_until_seeked(tab, 27, tolerance=1)
    tab.wait_for("document.getElementById('player').dataset.status === 'ended' && document.getElementById('video').ended",
                 f"the tour never reached the ended state ({state(tab)})", timeout=10)


def test_arrow_keys_seek_ten_seconds(server, tab):
    open_player(tab, server, TOUR, "?autoplay=0")
    assert state(tab)["time"] == 0
    tab.press_key("ArrowRight")
    wait_until_seeked(tab, 10)
    tab.press_key("ArrowRight")
    wait_until_seeked(tab, 20)
    tab.press_key("ArrowLeft")
    wait_until_seeked(tab, 10)
    assert state(tab)["paused"] is True
    assert abs(float(tab.evaluate("document.getElementById('timeline').getAttribute('aria-valuenow')")) - 10) < 0.6


def test_clicking_the_timeline_seeks_there(server, tab):
    open_player(tab, server, TOUR, "?autoplay=0")
    bar = tab.rect("#timeline")
    y = bar["y"] + bar["h"] / 2
    tab.click(bar["x"] + bar["w"] * 0.5, y)
    wait_until_seeked(tab, 15)
    tab.click(bar["x"] + bar["w"] * 0.2, y)
    wait_until_seeked(tab, 6)
    assert state(tab)["paused"] is True, "a click on the timeline must not start playback"
    assert "scrubbing" not in tab.evaluate("document.getElementById('player').className")
    # The picture shows the new position once the seek is done.
    tab.wait_for("document.getElementById('video').readyState >= 2", "no frame at the new position")


def test_the_speed_menu_plays_at_two_x(server, tab):
    open_player(tab, server, TOUR)
    tab.press_key("k")
    tab.wait_for("!document.getElementById('video').paused && document.getElementById('video').currentTime > 0.3",
                 f"playback never started ({state(tab)})")
    tab.click_element("#overflow-button")
    tab.wait_for("document.querySelectorAll('#overflow-menu [data-section=speed] [role=menuitemradio]').length > 0", "the speed menu did not open")
    labels = tab.evaluate("[...document.querySelectorAll('#overflow-menu [data-section=speed] [role=menuitemradio]')].map((b) => b.textContent)")
    assert "2×" in labels
    tab.click_element('#overflow-menu [data-section=speed] [role=menuitemradio][data-value="2"]')
    tab.wait_for("document.getElementById('video').playbackRate === 2", f"playbackRate never became 2 ({state(tab)})")
    assert tab.evaluate("document.getElementById('overflow-menu')") is None, "choosing a speed closes the menu"
    # The rate command and the session's new state arrive as two messages: wait for the second.
    tab.wait_for("document.getElementById('player').dataset.selectedSpeed === '2'", f"the menu's speed never became 2 ({state(tab)})")
    # Time really runs twice as fast: about 3 s of media in 1.5 s.
    start, started = state(tab)["time"], time.monotonic()
    time.sleep(1.5)
    advanced = (state(tab)["time"] - start) / (time.monotonic() - started)
    assert 1.4 < advanced < 2.5, f"media advanced {advanced:.2f} s per second at 2×"
    tab.click_element("#overflow-button")
    tab.wait_for("document.querySelector('#overflow-menu [aria-checked=true]')?.dataset.value === '2'",
                 "the menu does not show 2× as chosen")
    tab.press_key("Escape")


def test_music_plays_on_a_machine_without_sound_output(server, tab, tmp_path):
    """With no audio device (this machine, CI) Firefox reports a decode error on audio-only media
    and plays on without sound; the player must play on too, not show a failure. (With a sound
    device there is no error and this passes either way.)"""
    song = tmp_path / "song.mp3"
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=6",
                    "-c:a", "libmp3lame", "-metadata", "title=Firefox Tone", str(song)], check=True)
    added = subprocess.run([marquee_binary(), "add", "--data", server.data, "--queue-only", str(song)],
                           capture_output=True, text=True, timeout=60)
    assert added.returncode == 0, added.stderr
    asset_id = json.loads(added.stdout.splitlines()[0])["id"]  # piped: JSON lines, {"event": "queued", …}
    try:
        deadline = time.time() + 60
        while server.api("GET", f"/api/assets/{asset_id}")[1]["status"] not in ("ready", "failed") and time.time() < deadline:
            time.sleep(0.5)
        assert server.api("GET", f"/api/assets/{asset_id}")[1]["status"] == "ready"
        open_player(tab, server, "Firefox Tone")
        assert tab.evaluate("document.getElementById('player').dataset.audioOnly") == "true"
        tab.press_key("k")
        tab.wait_for("document.getElementById('video').currentTime > 2", f"the music did not play ({state(tab)})")
        time.sleep(1.2)  # past the player's check of a decode error
        failure = tab.evaluate("document.getElementById('error').hidden ? null : document.getElementById('error-message').textContent")
        assert failure is None, f"the player shows a failure: {failure}"
        assert tab.evaluate("document.getElementById('player').dataset.status") in ("playing", "ended")
    finally:
        server.api("DELETE", f"/api/assets/{asset_id}")


def test_firefox_sent_nothing_off_the_machine(firefox):
    """Runs last: everything above happened with the quiet profile; no request went to the trap
    proxy and no socket of Firefox's had a peer other than loopback."""
    time.sleep(0.3)
    assert firefox.watch.samples > 10, "the socket watch did not run"
    assert firefox.trap.requests == [], f"Firefox tried to reach the outside: {firefox.trap.requests}"
    assert firefox.watch.outside == [], f"Firefox had sockets to other hosts: {firefox.watch.outside}"
