"""Gap between the primary's last frame and an ad break's first frame, and back, in headless
Chromium on loopback: every presented frame of both video elements is timed with
requestVideoFrameCallback while the Tour plays through BREAKS one-second breaks (frames the
viewer cannot see are left out: a break prepared ahead, the primary behind a break). Prints each
direction's median and worst, beside the peer: an ideal cut, where the next frame comes one
frame interval later as it does inside one element (the floor any renderer can reach)."""
import json
import os
import statistics
import urllib.request

os.environ["SE_AVOID_STATS"] = "true"
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

base, tour, ad = os.environ["BASE"], os.environ["TOUR"], os.environ["AD"]
breaks = int(os.environ.get("BREAKS", "10"))


def api(method, path, body=None):
    request = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode(),
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        text = response.read()
        return json.loads(text) if text else None


for n in range(breaks):
    api("POST", f"/api/assets/{tour}/interstitials", {"time": 2 + 2.5 * n, "content": {"assetID": ad}, "playoutLimit": 1})

options = webdriver.ChromeOptions()
options.binary_location = "/usr/bin/chromium"
for argument in ["--headless=new", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--autoplay-policy=no-user-gesture-required", "--window-size=1280,720"]:
    options.add_argument(argument)
if os.geteuid() == 0:
    options.add_argument("--no-sandbox")
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
# Every presented frame of both elements: [element, presentation time].
driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
  window.__frames = [];
  document.addEventListener('DOMContentLoaded', () => {
    const ad = document.getElementById('interstitial-video');
    // Whether a frame of `id` can be seen: the break's element when it is in front (not hidden,
    // not prepared ahead and invisible, not pending behind the primary's held frame), the
    // primary when the break's is not. A frame the break's element presents behind the primary,
    // or the paused primary presents behind a break (moved to where it resumes), is not seen.
    const adInFront = () => ad && !ad.hidden && !('preparing' in ad.dataset) && !('pending' in ad.dataset);
    const shown = (id) => (id === 'video' ? !adInFront() : adInFront());
    // An element brought to the front shows the frame it already decoded without presenting a
    // new one (the break's element coming forward, the primary when the break's goes): that
    // paint is its first seen frame, timed as a presented frame is (one 60 Hz vsync after the
    // animation frame that paints it).
    const primary = document.getElementById('video');
    let wasInFront = false;
    new MutationObserver(() => {
      const inFront = adInFront();
      const revealed = inFront ? (!wasInFront && ad.readyState >= 2 ? 'interstitial-video' : null)
        : (wasInFront && primary.readyState >= 2 ? 'video' : null);
      if (revealed) requestAnimationFrame((t) => window.__frames.push([revealed, t + 1000 / 60]));
      wasInFront = inFront;
    }).observe(ad, { attributes: true, attributeFilter: ['hidden', 'data-pending', 'data-preparing'] });
    for (const id of ['video', 'interstitial-video']) {
      const video = document.getElementById(id);
      if (!video || !video.requestVideoFrameCallback) continue;
      const each = (now, meta) => {
        // Judged once this rendering step's callbacks (and the page's reactions to the frame,
        // such as bringing the break to the front) have run: what the paint will show.
        setTimeout(() => { if (shown(id)) window.__frames.push([id, meta.expectedDisplayTime ?? now]); }, 0);
        video.requestVideoFrameCallback(each);
      };
      video.requestVideoFrameCallback(each);
    }
  });
"""})


def gaps(frames):
    """(primary→break gaps, break→primary gaps) in ms from a list of [element, time] frames."""
    out, back = [], []
    frames = sorted(frames, key=lambda frame: frame[1])
    for (a, ta), (b, tb) in zip(frames, frames[1:]):
        if a == "video" and b == "interstitial-video":
            out.append(tb - ta)
        elif a == "interstitial-video" and b == "video":
            back.append(tb - ta)
    return out, back


def summary(name, values):
    if not values:
        return f"{name}: no transitions seen"
    return f"{name}: median {statistics.median(values):.0f} ms, worst {max(values):.0f} ms over {len(values)}"


try:
    driver.get(f"{base}/watch/{tour}")
    total = 2 + 2.5 * breaks + breaks + 8
    WebDriverWait(driver, total + 30, poll_frequency=0.5).until(
        lambda d: d.execute_script("return window.marquee?.session?.status === 'ended' || document.getElementById('video').currentTime > arguments[0]",
                                   2 + 2.5 * (breaks - 1) + 1.5))
    frames = driver.execute_script("return window.__frames")
    out, back = gaps(frames)

    # The peer: an ideal cut, where the next frame follows as it does inside one element.
    steady = [tb - ta for (a, ta), (b, tb) in zip(frames, frames[1:]) if a == b == "video" and 0 < tb - ta < 200]
finally:
    driver.quit()

print(summary("primary → break", out))
print(summary("break → primary", back))
worst = max(out + back) if out + back else float("inf")
frame = statistics.median(steady) if steady else None
if frame:
    print(f"peer (a frame following a frame in one element): {frame:.0f} ms")
    print(f"worst gap: Marquee {worst:.0f} ms vs peer {frame:.0f} ms, ratio {worst / frame:.2f}")
print(f"worst transition {worst:.0f} ms (target < 100 ms) " + ("OK" if worst < 100 else "ABOVE TARGET"))
