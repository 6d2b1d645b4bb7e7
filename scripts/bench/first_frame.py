"""Time to first frame of the Marquee player in headless Chromium on loopback: from navigation
start to the first video frame presented (requestVideoFrameCallback), median of RUNS loads after
one that fills the browser's cache (the page's modules are then cached for good under the web
root's version, as for a person who has opened the player before)."""
import os
import statistics

os.environ["SE_AVOID_STATS"] = "true"
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

base, asset, runs = os.environ["BASE"], os.environ["ASSET"], int(os.environ.get("RUNS", "5"))
# "Name: value" sent with every request the page makes (a signed-in bench: the server bench runs
# with access control on, and an anonymous page would only get the sign-in screen).
auth = os.environ.get("AUTH_HEADER", "")
options = webdriver.ChromeOptions()
options.binary_location = "/usr/bin/chromium"
for argument in ["--headless=new", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--autoplay-policy=no-user-gesture-required", "--window-size=1280,720"]:
    options.add_argument(argument)
if os.geteuid() == 0:
    options.add_argument("--no-sandbox")
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
if auth:
    name, _, value = auth.partition(":")
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setExtraHTTPHeaders", {"headers": {name.strip(): value.strip()}})
# Arm the frame callback before any page script runs.
driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
  window.__firstFrame = null;
  document.addEventListener('DOMContentLoaded', () => {
    const video = document.getElementById('video');
    if (video && video.requestVideoFrameCallback)
      video.requestVideoFrameCallback((now) => { window.__firstFrame = now; });
  });
"""})
times, cold = [], []
try:
    driver.execute_cdp_cmd("Network.enable", {})
    driver.get(f"{base}/watch/{asset}")  # warm the browser's own caches of the page and modules
    WebDriverWait(driver, 20).until(lambda d: d.execute_script("return window.__firstFrame"))
    for _ in range(runs):
        driver.get(f"{base}/watch/{asset}?bench={_}")
        WebDriverWait(driver, 20, poll_frequency=0.02).until(lambda d: d.execute_script("return window.__firstFrame"))
        times.append(driver.execute_script("return window.__firstFrame"))
    # A first visit: the browser's cache emptied before each load.
    for _ in range(runs):
        driver.execute_cdp_cmd("Network.clearBrowserCache", {})
        driver.get(f"{base}/watch/{asset}?cold={_}")
        WebDriverWait(driver, 20, poll_frequency=0.02).until(lambda d: d.execute_script("return window.__firstFrame"))
        cold.append(driver.execute_script("return window.__firstFrame"))
finally:
    driver.quit()
median = statistics.median(times)
print("time to first frame, first visit (browser cache emptied; ms): " + ", ".join(f"{t:.0f}" for t in cold)
      + f"; median {statistics.median(cold):.0f} ms")
print("time to first frame (ms): " + ", ".join(f"{t:.0f}" for t in times))
load = open("/proc/loadavg").read().split()[0]
# Issue 30's goal is under 100 ms on a quiet machine; under load (a load average near the
# number of cores) the same page takes longer, so the load is printed beside the number.
print(f"time to first frame median: {median:.0f} ms (goal < 100 ms on a quiet machine; load average {load} "
      f"on {os.cpu_count()} CPUs) " + ("OK" if median < 100 else "ABOVE GOAL"))
