"""End-to-end fixtures: one `marquee serve` on loopback with its sample library, and headless
Debian Chromium driven by pip's selenium through Debian's chromedriver. Nothing leaves the
machine: the browser runs with background networking, component updates and sync off, and
selenium's usage statistics are disabled."""
import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import pytest

os.environ["SE_AVOID_STATS"] = "true"
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "artifacts" / "e2e"


def marquee_binary():
    if os.environ.get("MARQUEE_BIN"):
        return os.environ["MARQUEE_BIN"]
    bin_dir = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
    return str(Path(bin_dir) / "marquee")


class Server:
    def __init__(self, url, process, data):
        self.url = url.rstrip("/")
        self.process = process
        self.data = data
        self.console = None

    def console_tail(self, lines=40):
        """The end of the server's console, to say in a failure what the server said."""
        if not self.console or not self.console.exists():
            return ""
        return "\n".join(self.console.read_text(errors="replace").splitlines()[-lines:])

    def api(self, method, path, body=None):
        request = urllib.request.Request(self.url + path, method=method,
                                         data=None if body is None else json.dumps(body).encode(),
                                         headers={"content-type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                text = response.read()
                return response.status, (json.loads(text) if text else None)
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")

    def asset(self, title):
        _, listing = self.api("GET", "/api/assets")
        return next(a for a in listing["assets"] if a["title"] == title)


def drain_console(process, log_path):
    """Keeps reading a server's console for the rest of its life, into `log_path`: a pipe nobody
    reads fills up (64 KiB) and the server's next write to it blocks, with the thread that
    wrote, until the test run ends."""
    log_path.parent.mkdir(parents=True, exist_ok=True)

    def copy():
        with open(log_path, "w") as log:
            for text in process.stdout:
                log.write(text)
                log.flush()

    threading.Thread(target=copy, daemon=True).start()


@pytest.fixture(scope="session")
def server():
    data = tempfile.mkdtemp(prefix="marquee-e2e-")
    process = subprocess.Popen([marquee_binary(), "serve", "--data", data, "--port", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    # The ready line; log lines (standard error, merged here) may come before it, such as a
    # sample clip's job starting.
    said = []
    while not (match := re.search(r"(http://127\.0\.0\.1:\d+)/", said[-1] if said else "")) and len(said) < 50:
        said.append(process.stdout.readline())
        if not said[-1]:
            break
    assert match, f"marquee serve did not print its URL: {''.join(said)!r}"
    drain_console(process, ARTIFACTS / "server-console.log")
    running = Server(match.group(1), process, data)
    running.console = ARTIFACTS / "server-console.log"
    deadline = time.time() + 300
    while time.time() < deadline:
        _, listing = running.api("GET", "/api/assets")
        assets = listing["assets"]
        if len(assets) == 4 and all(a["status"] == "ready" for a in assets):
            break
        assert not any(a["status"] == "failed" for a in assets), assets
        time.sleep(1)
    else:
        pytest.fail("sample library was not ready in time")
    yield running
    process.terminate()
    process.wait(timeout=10)
    shutil.rmtree(data, ignore_errors=True)


def make_driver(language="en-US", width=1280, height=720, network_log=False):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-first-run", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync", "--disable-default-apps",
                     "--autoplay-policy=no-user-gesture-required", f"--window-size={width},{height}",
                     f"--lang={language}", "--disable-features=Translate,MediaRouter,OptimizationHints"]:
        options.add_argument(argument)
    if os.geteuid() == 0:
        options.add_argument("--no-sandbox")
    options.add_experimental_option("prefs", {"intl.accept_languages": language})
    # The page's console errors, for failure messages (driver.get_log("browser")).
    # With network_log, every request's events too (driver.get_log("performance")), to explain a
    # page that waits for something.
    options.set_capability("goog:loggingPrefs", {"browser": "WARNING", **({"performance": "ALL"} if network_log else {})})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


@pytest.fixture
def browser(request):
    drivers = []

    def open_browser(language="en-US", **size):
        driver = make_driver(language, **size)
        drivers.append(driver)
        return driver

    yield open_browser
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for index, driver in enumerate(drivers):
        name = request.node.name.replace("/", "_") + (f"-{index}" if index else "")
        try:
            driver.save_screenshot(str(ARTIFACTS / f"{name}.png"))
        finally:
            driver.quit()


@pytest.fixture
def driver(browser):
    return browser()
