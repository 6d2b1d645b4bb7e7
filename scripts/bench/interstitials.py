"""Gaps between the frames a viewer sees around ad breaks, in headless Chromium on loopback:
every presented frame of the primary and of the breaks' elements is timed with
requestVideoFrameCallback (tests-e2e/interstitial_frames.js; frames the viewer cannot see are
left out: an ad prepared ahead, the primary behind a break) while the Tour plays through
BREAKS breaks of three ads each: a one-second library ad, then an asset list of two
two-second HLS ads on another loopback server. Prints each transition's median and worst —
primary → break, ad → ad inside a break (the next event, and the next asset of the list), break
→ primary — beside the peer: an ideal cut, where the next frame comes one frame interval later
as it does inside one element (the floor any renderer can reach)."""
import json
import os
import statistics
import sys
import urllib.request
from pathlib import Path

os.environ["SE_AVOID_STATS"] = "true"
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests-e2e"))
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402
from interstitial_frames import record_frames, transitions  # noqa: E402
from ad_relay_server import short_ad_server  # noqa: E402

base, tour, ad = os.environ["BASE"], os.environ["TOUR"], os.environ["AD"]
breaks = int(os.environ.get("BREAKS", "10"))


def api(method, path, body=None):
    request = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode(),
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        text = response.read()
        return json.loads(text) if text else None


external = short_ad_server(base, ad)
for n in range(breaks):
    api("POST", f"/api/assets/{tour}/interstitials", {"time": 2 + 2.5 * n, "content": {"assetID": ad}, "playoutLimit": 1})
    api("POST", f"/api/assets/{tour}/interstitials", {"time": 2 + 2.5 * n, "content": {"assetList": f"{external.url}/list.json"},
                                                      "duration": 4})

options = webdriver.ChromeOptions()
options.binary_location = "/usr/bin/chromium"
for argument in ["--headless=new", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--autoplay-policy=no-user-gesture-required", "--window-size=1280,720"]:
    options.add_argument(argument)
if os.geteuid() == 0:
    options.add_argument("--no-sandbox")
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
record_frames(driver)


def summary(name, values):
    if not values:
        return f"{name}: no transitions seen"
    return f"{name}: median {statistics.median(values):.0f} ms, worst {max(values):.0f} ms over {len(values)}"


try:
    driver.get(f"{base}/watch/{tour}")
    total = 2 + 2.5 * breaks + 5 * breaks + 8
    WebDriverWait(driver, total + 30, poll_frequency=0.5).until(
        lambda d: d.execute_script("return window.marquee?.session?.status === 'ended' || document.getElementById('video').currentTime > arguments[0]",
                                   2 + 2.5 * (breaks - 1) + 1.5))
    frames = sorted(driver.execute_script("return window.__frames"), key=lambda frame: frame[2])
    seen = transitions(frames)
    # The peer: an ideal cut, where the next frame follows as it does inside one element.
    steady = [b[2] - a[2] for a, b in zip(frames, frames[1:]) if a[0] == b[0] == "video" and 0 < b[2] - a[2] < 200]
finally:
    driver.quit()
    external.close()

print(summary("primary → break", seen["out"]))
print(summary("ad → ad (in a break)", seen["between"]) + f"; the primary showed between ads {seen['flashes']} times")
print(summary("break → primary", seen["back"]))
everything = seen["out"] + seen["between"] + seen["back"]
worst = max(everything) if everything else float("inf")
frame = statistics.median(steady) if steady else None
if frame:
    print(f"peer (a frame following a frame in one element): {frame:.0f} ms")
    print(f"worst gap: Marquee {worst:.0f} ms vs peer {frame:.0f} ms, ratio {worst / frame:.2f}")
print(f"worst transition {worst:.0f} ms (target < 100 ms) " + ("OK" if worst < 100 else "ABOVE TARGET"))
