"""Watching together (issue 28), end to end: three browsers — Chromium on a desktop, Chromium
emulating a phone, and Firefox ESR — watch one session. The desktop starts the group from the
player's "Watch together" panel; the others open its invitation link. Checked: everyone joins
in sync; drift stays small while playing (measured against the shared timeline, printed); a
seek and a speed change from a participant who did not start the group apply to all; a pause
from Firefox stops everyone on the same frame; a participant whose network crawls holds the
group ("Waiting for …") until it recovers; and the starter leaving does not end the group.

Drift: each page reads its element's time and, in the same script, where the group's timeline
says the item is (its measured clock offset to the server applied); the spread of those errors
across the three pages at one moment is the drift between participants."""
import os
import queue
import shutil
import statistics
import subprocess
import threading
import time
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

from conftest import ARTIFACTS, make_driver

pytestmark = pytest.mark.skipif(shutil.which("firefox-esr") is None, reason="firefox-esr is not installed")

FPS = 25
SAMPLE = """(() => { const v = document.getElementById('video'), g = window.marquee && window.marquee.groupSync;
  if (!g || !g.group) return null;
  const target = g.target();
  return {time: v.currentTime, target, error: v.currentTime - target, paused: v.paused, rate: v.playbackRate,
          groupRate: g.group.timeline.rate, waiting: g.group.waitingFor, watching: g.group.watching,
          offsetKnown: g.clock.known, rtt: g.clock.roundTrip, seeks: g.stats.seeks, readyState: v.readyState}; })()"""


def clip_seconds():
    """120 s; a long drift run (make bench) gets twice its length and a minute more, so that it
    plays forward the whole time and the stall check's seek still lands where nobody played
    (a browser's MSE buffer keeps whatever it played)."""
    run = float(os.environ.get("WATCH_TOGETHER_SECONDS", "25"))
    return 120 if run <= 60 else int(run * 2 + 60)


@pytest.fixture(scope="module")
def long_clip(server):
    """A 640×360 clip at 25 fps (120 s; longer for long runs) with the frame number burned in, and sound."""
    folder = Path(server.data) / "together"
    folder.mkdir(exist_ok=True)
    path = folder / "Together Clip.mp4"
    seconds = clip_seconds()
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", f"testsrc2=size=640x360:rate={FPS}:duration={seconds}",
                    "-f", "lavfi", "-i", f"sine=frequency=440:duration={seconds}", "-c:v", "libx264", "-preset", "veryfast",
                    "-g", str(FPS * 2), "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", str(path)], check=True)
    status, added = server.api("POST", "/api/assets", {"paths": [str(path)]})
    assert status == 202, added
    asset = added["assets"][0]
    deadline = time.time() + 180 + seconds
    while time.time() < deadline:
        _, asset = server.api("GET", f"/api/assets/{asset['id']}")
        if asset["status"] == "ready":
            break
        assert asset["status"] != "failed", asset
        time.sleep(0.5)
    yield asset
    server.api("DELETE", f"/api/assets/{asset['id']}?permanently=true")


def phone_driver():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                     "--disable-sync", "--disable-default-apps", "--autoplay-policy=no-user-gesture-required",
                     "--disable-features=Translate,MediaRouter,OptimizationHints"]:
        options.add_argument(argument)
    if os.geteuid() == 0:
        options.add_argument("--no-sandbox")
    options.add_experimental_option("mobileEmulation", {
        "deviceMetrics": {"width": 393, "height": 852, "pixelRatio": 2.75, "touch": True},
        "userAgent": "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36"})
    options.set_capability("goog:loggingPrefs", {"browser": "WARNING"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


class Participants:
    """The three pages, sampled the same way (a Chromium driver or a Firefox tab)."""

    def __init__(self, desktop, phone, firefox):
        self.pages = {name: page for name, page in {"desktop": desktop, "phone": phone, "firefox": firefox}.items() if page is not None}

    def run(self, name, script):
        page = self.pages[name]
        return page.evaluate(script) if hasattr(page, "evaluate") else page.execute_script("return " + script)

    def samples(self, names=None):
        return {name: self.run(name, SAMPLE) for name in (names or self.pages)}

    def wait(self, condition, message, timeout=20, names=None):
        deadline = time.time() + timeout
        last = None
        while time.time() < deadline:
            last = self.samples(names)
            if all(last.values()) and condition(last):
                return last
            time.sleep(0.1)
        raise AssertionError(f"{message}; last samples {last}")

    def spread(self, names=None):
        """Drift between participants now: the spread of their errors against the timeline (s)."""
        samples = self.samples(names)
        errors = [s["error"] for s in samples.values() if s]
        return max(errors) - min(errors), samples


def press_play(tab):
    """Cy clicks Play in Firefox: a real click is the gesture autoplay rules ask for, which a
    script's click is not."""
    tab.click_element("#play-pause")


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def test_three_browsers_watch_one_session_in_sync(server, browser, long_clip):
    from firefox_bidi import Firefox
    desktop = browser()
    phone = phone_driver()
    firefox = Firefox.launch(width=1280, height=720)
    tab = firefox.tab()
    report = []
    try:
        # The desktop plays and starts the group from the player's panel.
        desktop.get(f"{server.url}/watch/{long_clip['id']}")
        WebDriverWait(desktop, 30).until(lambda d: d.execute_script(
            "return window.marquee?.session?.status === 'playing' && document.getElementById('video').currentTime > 0.5"))
        desktop.execute_script("document.getElementById('together-button').click()")
        WebDriverWait(desktop, 10).until(lambda d: d.execute_script("return document.getElementById('together-link')?.value"))
        link = desktop.execute_script("return document.getElementById('together-link').value")
        assert "/together/" in link, link
        assert desktop.execute_script("return document.querySelector('.together-qr svg') !== null"), "no QR code for the link"

        # The phone and Firefox open the link; each is in sync within a second of its page joining.
        joins = {}
        page = Participants(desktop, phone, tab)
        for name, open_link in [("phone", lambda: phone.get(link + "?name=Bea")), ("firefox", lambda: tab.navigate(link + "?name=Cy"))]:
            started = time.time()
            open_link()
            page.wait(lambda s: s[name]["readyState"] >= 2 and (s[name]["offsetKnown"]), f"{name} did not load the group's item", timeout=30, names=[name])
            # Either it plays along, or its browser refused to play without a press (Firefox does).
            page.wait(lambda s: not s[name]["paused"] or page.run(name, "window.marquee.groupSync.blocked"), f"{name} neither played nor asked for a press",
                      timeout=30, names=[name])
            if page.run(name, "window.marquee.groupSync.blocked"):
                # Firefox's autoplay policy wants a press: the group waits for Cy, who presses play.
                try:
                    page.wait(lambda s: "Cy" in s["desktop"]["waiting"] and s["desktop"]["groupRate"] == 0, "the group did not wait for Cy", names=["desktop"])
                except AssertionError:
                    print("diagnostics:", page.run("desktop", "JSON.stringify(window.marquee.session.group)"), page.run("firefox", "JSON.stringify({b: window.marquee.groupSync.blocked, p: document.getElementById('video').paused})"))
                    raise
                report.append(f"{name} refused to play without a press: the group waited for Cy")
                press_play(tab)
                started = time.time()
            try:
                page.wait(lambda s: abs(s[name]["error"]) < 0.1 and not s[name]["paused"], f"{name} did not come into sync", timeout=30, names=[name])
            except AssertionError:
                for _ in range(10):
                    print("diagnostics:", page.run(name, "JSON.stringify((() => { const v = document.getElementById('video'); const b = []; for (let i = 0; i < v.buffered.length; i++) b.push([v.buffered.start(i), v.buffered.end(i)]); return {t: v.currentTime, seeking: v.seeking, rs: v.readyState, paused: v.paused, b, stats: window.marquee.groupSync.stats, lat: window.marquee.groupSync.seekLatency, blocked: window.marquee.groupSync.blocked, hold: Boolean(window.marquee.groupSync.holdTimer), err: v.error && v.error.message}; })())"))
                    time.sleep(0.5)
                raise
            joins[name] = time.time() - started
        group = Participants(desktop, phone, tab)
        state = group.wait(lambda s: all(x["watching"] == 3 and x["groupRate"] > 0 and not x["waiting"] for x in s.values()),
                           "three participants did not settle into playing together", timeout=30)
        report.append(f"join to sync: phone {joins['phone']:.2f} s, firefox {joins['firefox']:.2f} s (page load, media and sync)")
        names = desktop.execute_script("return [...document.querySelectorAll('#together-people li')].map((li) => li.textContent)")
        assert any("Bea" in n for n in names) and any("Cy" in n for n in names), names

        # Drift while playing: sampled only while the group plays (a group paused at the end of
        # the clip has no drift to measure). Longer runs (make bench: 5 minutes, on a clip twice
        # as long) seek 20 s ahead once a minute (back towards the start if the end is near).
        drifts, settled, seeks, last_seek = [], [], 0, 0.0
        session_id = desktop.execute_script("return window.marquee.session.id")
        duration = float(long_clip.get("duration") or 120)
        deadline = time.time() + float(os.environ.get("WATCH_TOGETHER_SECONDS", "25"))
        next_seek = time.time() + 60
        while time.time() < deadline:
            spread, samples = group.spread()
            if all(x and x["groupRate"] > 0 and not x["waiting"] and not x["paused"] for x in samples.values()):
                drifts.append(spread)
                if time.time() - last_seek > 3:
                    settled.append(spread)
            target = (samples.get("desktop") or {}).get("target", 0)
            if time.time() >= next_seek or target > duration - 15:
                to = 10 if target > duration - 40 else target + 20
                status, answer = server.api("POST", f"/api/sessions/{session_id}/intents", {"intent": "seek", "time": to})
                assert 200 <= status < 300, answer
                seeks += 1
                last_seek = time.time()
                next_seek = time.time() + 60
            time.sleep(0.25)
        assert len(drifts) >= 20, f"the group played for too few samples: {len(drifts)}"
        p50, p95 = statistics.median(drifts), percentile(drifts, 95)
        report.append(f"drift between 3 participants while playing: p50 {p50 * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, "
                      f"max {max(drifts) * 1000:.0f} ms over {len(drifts)} samples, {seeks} seeks")
        if seeks:
            report.append(f"drift leaving out the 3 s after each seek: p50 {statistics.median(settled) * 1000:.0f} ms, "
                          f"p95 {percentile(settled, 95) * 1000:.0f} ms over {len(settled)} samples")
        assert p95 < 0.25, report  # loose: the goal (40 ms) is measured and printed, a loaded CI machine is not the goal's machine
        if seeks:
            # A long run ends wherever its last seek left it: the checks below start, as a short
            # run's do, early in the clip (the stall below seeks far ahead and needs room to).
            status, answer = server.api("POST", f"/api/sessions/{session_id}/intents", {"intent": "seek", "time": 10})
            assert 200 <= status < 300, answer
            group.wait(lambda s: all(x["target"] < 30 and abs(x["error"]) < 0.1 and not x["paused"] for x in s.values()),
                       "the group did not come back to the start of the clip", timeout=30)

        # A seek and a speed change from the phone (who did not start the group) apply to all.
        before = group.samples(["desktop"])["desktop"]["target"]
        phone.execute_script("document.getElementById('skip-forward').click()")
        group.wait(lambda s: all(x["target"] > before + 8 and abs(x["error"]) < 0.3 for x in s.values()), "the phone's skip did not move everyone")
        phone.execute_script("document.dispatchEvent(new KeyboardEvent('keydown', {key: '>', bubbles: true}))")
        rate = group.wait(lambda s: len({x["groupRate"] for x in s.values()}) == 1 and s["desktop"]["groupRate"] > 1, "the phone's speed change did not reach all")
        report.append(f"speed from the phone: group rate {rate['desktop']['groupRate']}")
        time.sleep(3)
        spread, _ = group.spread()
        report.append(f"drift 3 s after the speed change: {spread * 1000:.0f} ms")

        # A pause from Firefox: everyone on the same frame.
        tab.evaluate("document.getElementById('play-pause').click()")
        paused = group.wait(lambda s: all(x["paused"] and x["groupRate"] == 0 and not x["readyState"] < 2 for x in s.values())
                            and max(x["time"] for x in s.values()) - min(x["time"] for x in s.values()) < 0.002,
                            "a pause from Firefox did not stop everyone on one frame (the same time, well within a frame)")
        frames = {name: int(s["time"] * FPS + 1e-3) for name, s in paused.items()}
        report.append(f"paused on frame {frames}")

        # The phone's network crawls and the desktop seeks far ahead: the group waits for Bea.
        phone.execute_cdp_cmd("Network.enable", {})
        # Not from the browser's cache: after a long run (make bench) it holds every segment.
        phone.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
        phone.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": False, "latency": 3000, "downloadThroughput": 30000, "uploadThroughput": 30000})
        desktop.execute_script("document.getElementById('play-pause').click()")
        group.wait(lambda s: s["desktop"]["groupRate"] > 0, "play did not resume", names=["desktop"])
        desktop.execute_script("window.marquee.groupSync && document.dispatchEvent(new KeyboardEvent('keydown', {key: '8', bubbles: true}))")
        try:
            waiting = group.wait(lambda s: "Bea" in (s["desktop"]["waiting"] or []), "the group did not wait for the phone", timeout=20, names=["desktop"])
        except AssertionError:
            for _ in range(3):
                print("diagnostics:", phone.execute_script("const v = document.getElementById('video'); const b = []; for (let i = 0; i < v.buffered.length; i++) b.push([v.buffered.start(i), v.buffered.end(i)]); return JSON.stringify({t: v.currentTime, rs: v.readyState, p: v.paused, s: v.seeking, b, g: window.marquee.session.group.participants})"))
                time.sleep(1)
            raise
        banner = desktop.execute_script("return document.getElementById('together-banner').textContent")
        assert "Bea" in banner, banner
        # Everyone holds: Firefox hears of the wait a moment after the desktop (its own socket).
        group.wait(lambda s: all(x["groupRate"] == 0 and "Bea" in x["waiting"] for x in s.values()), "the others did not hold for Bea",
                   timeout=5, names=["desktop", "firefox"])
        phone.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        phone.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": False})
        group.wait(lambda s: all(not x["waiting"] and x["groupRate"] > 0 for x in s.values()), "the group did not go on once the phone recovered", timeout=30)
        report.append(f"suspended for Bea while her network crawled: {waiting['desktop']['waiting']}, then resumed")

        # Back to the middle (Cy presses 2: 20 %), then the starter leaves: the group goes on for the others.
        session_id = desktop.execute_script("return window.marquee.session.id")
        tab.press_key("2")
        fifth = 0.2 * duration
        group.wait(lambda s: all(fifth - 2 < x["target"] < fifth + 16 and x["groupRate"] > 0 for x in s.values()), "Cy's jump to 20 % did not reach everyone")
        desktop.get("about:blank")
        rest = Participants(desktop, phone, tab)
        try:
            after = rest.wait(lambda s: all(x["watching"] == 2 and x["groupRate"] > 0 for x in s.values()), "the group ended with its starter",
                              timeout=20, names=["phone", "firefox"])
        except AssertionError:
            print("diagnostics:", server.api("GET", f"/api/sessions/{session_id}"))
            raise
        time.sleep(2)
        spread, _ = rest.spread(["phone", "firefox"])
        report.append(f"after the starter left: {after['phone']['watching']} watching, drift {spread * 1000:.0f} ms")
    finally:
        print("\n".join(report))
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        (ARTIFACTS / "watch-together.txt").write_text("\n".join(report) + "\n")
        try:
            phone.save_screenshot(str(ARTIFACTS / "watch-together-phone.png"))
            tab.screenshot(ARTIFACTS / "watch-together-firefox.png")
        finally:
            phone.quit()
            firefox.quit()


def test_an_ad_break_plays_for_everyone_at_once_its_skip_applies_to_all_and_all_return_together(server, browser, long_clip):
    """Two Chromium participants (a desktop and a phone): an ad break the owner adds a few seconds
    ahead plays on both at once; the phone's press on the break's skip button (allowed after 1 s
    by the break's rule) ends it for both; both go back to the same point and play on in sync."""
    ad = server.asset("Sample Ad")["id"]
    desktop = browser()
    phone = phone_driver()
    added = []
    report = []
    try:
        desktop.get(f"{server.url}/watch/{long_clip['id']}")
        WebDriverWait(desktop, 30).until(lambda d: d.execute_script(
            "return window.marquee?.session?.status === 'playing' && document.getElementById('video').currentTime > 0.5"))
        desktop.execute_script("document.getElementById('together-button').click()")
        WebDriverWait(desktop, 10).until(lambda d: d.execute_script("return document.getElementById('together-link')?.value"))
        phone.get(desktop.execute_script("return document.getElementById('together-link').value") + "?name=Bea")
        group = Participants(desktop, phone, None)
        names = ["desktop", "phone"]
        group.wait(lambda s: all(x["watching"] == 2 and x["groupRate"] > 0 and not x["waiting"] and abs(x["error"]) < 0.1 for x in s.values()),
                   "the two did not settle into playing together", timeout=30, names=names)
        at = group.samples(["desktop"])["desktop"]["target"] + 6
        status, event = server.api("POST", f"/api/assets/{long_clip['id']}/interstitials",
                                   {"time": round(at, 1), "playoutLimit": 4, "content": {"assetID": ad}, "skipControl": {"offset": 1}})
        assert status == 201, event
        added.append(event["id"])
        active = "return window.marquee.session?.activeInterstitial?.id ?? null"
        started = {}
        deadline = time.time() + 20
        while time.time() < deadline and len(started) < 2:
            for name, page in [("desktop", desktop), ("phone", phone)]:
                if name not in started and page.execute_script(active) == event["id"]:
                    started[name] = time.time()
            time.sleep(0.02)
        assert len(started) == 2, f"the break did not play for both: {started}"
        report.append(f"ad break began {abs(started['desktop'] - started['phone']) * 1000:.0f} ms apart (as seen by polling)")
        assert abs(started["desktop"] - started["phone"]) < 1.0, report
        # The break's own element plays on both.
        for page in (desktop, phone):
            WebDriverWait(page, 10).until(lambda d: d.execute_script(
                "const v = document.getElementById('interstitial-video'); return !v.hidden && v.currentTime > 0.3"))
        # After its offset the phone skips: the break ends for both.
        WebDriverWait(phone, 10).until(lambda d: d.execute_script("return document.getElementById('skip-ad-button')?.offsetParent !== null"))
        phone.execute_script("document.getElementById('skip-ad-button').click()")
        for page in (desktop, phone):
            WebDriverWait(page, 10).until(lambda d: d.execute_script(active) is None, "the skip did not end the break for everyone")
        back = group.wait(lambda s: all(x["groupRate"] > 0 and abs(x["error"]) < 0.15 and not x["paused"] for x in s.values()),
                          "the two did not play on together after the break", timeout=20, names=names)
        report.append(f"back together at {back['desktop']['target']:.2f} s (break at {at:.1f} s); drift {abs(back['desktop']['error'] - back['phone']['error']) * 1000:.0f} ms")
        assert abs(back["desktop"]["target"] - at) < 5, back
    finally:
        print("\n".join(report))
        for event_id in added:
            server.api("DELETE", f"/api/assets/{long_clip['id']}/interstitials/{event_id}")
        phone.quit()


def test_the_tv_screen_is_invited_from_the_panel_and_joins_the_group(server, browser, long_clip):
    """"Invite the TV" in the together panel: this server's TV screen (a browser marked as the TV)
    opens a new link and joins the group under the TV's name, on the group's frame."""
    tv = browser()
    tv.get(server.url + "/devices?screen=1")
    WebDriverWait(tv, 15).until(lambda d: d.execute_script("return document.documentElement.dataset.screen") == "listening")
    host = browser()
    host.get(f"{server.url}/watch/{long_clip['id']}?t=30")
    WebDriverWait(host, 30).until(lambda d: d.execute_script(
        "return window.marquee?.session?.status === 'playing' && document.getElementById('video').currentTime > 30.5"))
    host.execute_script("document.getElementById('play-pause').click()")
    WebDriverWait(host, 10).until(lambda d: d.execute_script("return window.marquee.session.status === 'paused'"))
    host.execute_script("document.getElementById('together-button').click()")
    invite = WebDriverWait(host, 10).until(lambda d: d.execute_script("return document.getElementById('together-invite-tv')"))
    invite.click()
    WebDriverWait(tv, 20).until(lambda d: "together=" in d.current_url and f"/watch/{long_clip['id']}" in d.current_url)
    WebDriverWait(host, 30).until(lambda d: d.execute_script(
        "return window.marquee.groupSync.group.participants.filter((p) => p.state === 'watching').length") == 2)
    names = host.execute_script("return window.marquee.groupSync.group.participants.map((p) => p.name)")
    tv_name = tv.execute_script("return new URLSearchParams(location.search).get('name')")
    assert tv_name and tv_name in names, (tv_name, names)
    WebDriverWait(tv, 20).until(lambda d: d.execute_script("return document.getElementById('video').readyState") >= 2)
    times = [d.execute_script("return document.getElementById('video').currentTime") for d in (host, tv)]
    assert abs(times[0] - times[1]) < 0.05, times


# MARK: marquee remote --together (its output is read by a thread into a queue, so a line that
# never comes fails after its timeout with everything the command said, instead of blocking)

def test_marquee_remote_joins_a_group_by_its_link_and_controls_it(server, browser, long_clip):
    """`marquee remote --together LINK`: the terminal joins the group by the link, says who is
    watching, and its pause and speed apply to the people watching in browsers."""
    from conftest import marquee_binary
    host = browser()
    host.get(f"{server.url}/watch/{long_clip['id']}?t=20")
    WebDriverWait(host, 30).until(lambda d: d.execute_script(
        "return window.marquee?.session?.status === 'playing' && document.getElementById('video').currentTime > 20.5"))
    host.execute_script("document.getElementById('together-button').click()")
    link = WebDriverWait(host, 10).until(lambda d: d.execute_script("return document.getElementById('together-link')?.value"))

    bad = subprocess.run([marquee_binary(), "remote", "--together", server.url + "/watch/x"], capture_output=True, text=True, timeout=30)
    assert bad.returncode != 0 and "/together/TOKEN" in bad.stderr, (bad.returncode, bad.stderr)

    remote = subprocess.Popen([marquee_binary(), "remote", "--together", link, "--name", "Dee's terminal"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
    lines = []
    said = queue.Queue()

    def pump():
        for line in remote.stdout:
            said.put(line.rstrip())
        said.put(None)

    threading.Thread(target=pump, daemon=True).start()

    def read_until(needle, timeout=20):
        deadline = time.time() + timeout
        while (left := deadline - time.time()) > 0:
            try:
                line = said.get(timeout=left)
            except queue.Empty:
                break
            if line is None:
                break
            lines.append(line)
            if needle in line:
                return line
        raise AssertionError(f"no line with {needle!r} within {timeout} s: {lines}")

    try:
        read_until("Joined the group as “Dee's terminal”")
        assert "Watching together" in read_until("Watching together"), lines
        remote.stdin.write("pause\n")
        read_until("OK:")
        WebDriverWait(host, 10).until(lambda d: d.execute_script("return window.marquee.session.status === 'paused' && document.getElementById('video').paused"))
        remote.stdin.write("speed 1.5\n")
        read_until("1.5×")
        WebDriverWait(host, 10).until(lambda d: d.execute_script("return window.marquee.session.selectedSpeed?.rate") == 1.5)
        remote.stdin.write("seek 1:30\n")
        read_until("1:30")
        WebDriverWait(host, 10).until(lambda d: abs(d.execute_script("return document.getElementById('video').currentTime") - 90) < 0.5)
        remote.stdin.write("volume abc\n")
        read_until("volume needs a level")
        remote.stdin.write("quit\n")
        assert remote.wait(timeout=10) == 0, lines
        # The terminal renders nothing: the browsers never wait for it.
        assert not host.execute_script("return window.marquee.groupSync.group.waitingFor.length"), lines
    finally:
        if remote.poll() is None:
            remote.kill()
        print("\n".join(lines))
