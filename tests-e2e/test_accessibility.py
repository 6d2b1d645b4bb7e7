"""Accessibility, measured (issue 29, item 4): axe-core (shipped by `axe-selenium-python`) runs
on every page — the library, the player paused and playing, in an ad break and with Live Text
on, downloads, nearby devices, the web remote, activities, the setup and sign-in forms of a
server that needs sign-in, and the account page — in English and in Japanese, in headless
Chromium. Any serious or critical violation fails, and every violation (with its nodes) is
printed. One browser does it all: the language is switched with DevTools
(`Emulation.setUserAgentOverride`'s `acceptLanguage`, which sets both the header the server
reads and `navigator.languages`, which the pages read)."""
import json
import re
import shutil
import subprocess
import tempfile
import time
import urllib.request

import pytest
from axe_selenium_python import Axe
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import ARTIFACTS, drain_console, make_driver, marquee_binary

TOUR = "Test Pattern Tour"
AD = "Sample Ad"
CODE = "Code Walkthrough"
LANGUAGES = {"en": "en-US,en", "ja": "ja-JP,ja"}
OWNER = ("owner", "owner password 1")
FAILING = ("serious", "critical")


def start_locked(prefix):
    """`marquee serve --host 0.0.0.0 --no-samples`: sign-in required; its URL on 127.0.0.1 and setup code."""
    data = tempfile.mkdtemp(prefix=prefix)
    process = subprocess.Popen([marquee_binary(), "serve", "--data", data, "--host", "0.0.0.0", "--port", "0", "--no-samples"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    port = code = None
    while not code:
        line = process.stdout.readline()
        assert line, "the locked server ended before printing its setup code"
        if m := re.search(r"ready at http://[^:/]+:(\d+)/", line):
            port = m.group(1)
        if m := re.search(r"setup code ([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})", line):
            code = m.group(1)
    drain_console(process, ARTIFACTS / f"{prefix}console.log")
    return type("Locked", (), {"url": f"http://127.0.0.1:{port}", "code": code, "process": process, "data": data})()


def stop_locked(locked):
    locked.process.terminate()
    locked.process.wait(timeout=10)
    shutil.rmtree(locked.data, ignore_errors=True)


@pytest.fixture(scope="module")
def locked():
    """A server that needs sign-in; its owner is created by the first page test that needs one."""
    running = start_locked("marquee-a11y-locked-")
    running.owner_made = False
    yield running
    stop_locked(running)


@pytest.fixture(scope="module")
def axe_driver():
    driver = make_driver("en-US")
    yield driver
    driver.quit()


def speak(driver, language):
    user_agent = driver.execute_script("return navigator.userAgent")
    driver.execute_cdp_cmd("Emulation.setUserAgentOverride", {"userAgent": user_agent, "acceptLanguage": LANGUAGES[language]})


def wait(driver, condition, message, timeout=20):
    WebDriverWait(driver, timeout, poll_frequency=0.1).until(lambda d: condition(d), message)


def js(driver, script, *args):
    return driver.execute_script(script, *args)


def open_player(driver, server, title, query=""):
    driver.get(f"{server.url}/watch/{server.asset(title)['id']}{query}")
    wait(driver, lambda d: js(d, "return window.marquee?.session?.duration > 0 && document.querySelector('#video').readyState >= 2"),
         "the player did not load")


def show_controls(driver):
    """Moves the pointer over the picture, so the controls are on screen while axe looks."""
    driver.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": 600, "y": 300})
    driver.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": 610, "y": 310})


# Each page: how to get there and into the state to check. `ctx` has the servers.

def library(driver, ctx):
    driver.get(ctx["server"].url + "/")
    wait(driver, lambda d: js(d, "return document.querySelectorAll('.asset-card').length > 0"), "no cards")
    # The home screen's rows above it (at least Recently added: the samples are new).
    wait(driver, lambda d: js(d, "return document.querySelectorAll('#home .home-card').length > 0"), "no home rows")


def player_paused(driver, ctx):
    open_player(driver, ctx["server"], TOUR, "?t=3")
    js(driver, "document.getElementById('video').muted = true")
    wait(driver, lambda d: js(d, "return document.getElementById('video').paused") or
         js(d, "document.getElementById('play-pause').click(); return false"), "not paused", timeout=10)
    show_controls(driver)


def player_playing(driver, ctx):
    open_player(driver, ctx["server"], TOUR)
    js(driver, "document.getElementById('video').muted = true")
    if js(driver, "return document.getElementById('video').paused"):
        js(driver, "document.getElementById('play-pause').click()")
    wait(driver, lambda d: js(d, "return document.getElementById('video').currentTime > 0.5"), "not playing")
    show_controls(driver)


def player_ad_break(driver, ctx):
    """A 4 s pre-roll with a skip button on the Tour, removed after the check."""
    server = ctx["server"]
    tour = server.asset(TOUR)["id"]
    status, event = server.api("POST", f"/api/assets/{tour}/interstitials",
                               {"cue": "pre", "playoutLimit": 4, "content": {"assetID": server.asset(AD)["id"]},
                                "skipControl": {"offset": 0, "labels": {"en": "Skip ad", "ja": "広告をスキップ"}}})
    assert status == 201, event
    ctx["after"].append(lambda: server.api("DELETE", f"/api/assets/{tour}/interstitials/{event['id']}"))
    driver.get(f"{ctx['server'].url}/watch/{ctx['server'].asset(TOUR)['id']}")
    wait(driver, lambda d: js(d, "return !!window.marquee?.session?.activeInterstitial"), "no ad break")
    show_controls(driver)


def player_live_text(driver, ctx):
    open_player(driver, ctx["server"], CODE, "?t=6")
    js(driver, "document.getElementById('video').muted = true")
    if not js(driver, "return document.getElementById('video').paused"):
        js(driver, "document.getElementById('play-pause').click()")
    wait(driver, lambda d: js(d, "return document.getElementById('player').dataset.liveText === 'true'"), "no Live Text", timeout=40)
    show_controls(driver)


def downloads(driver, ctx):
    # A failed download in the list, so its row and buttons are checked too.
    server = ctx["server"]
    if not ctx.get("download"):
        status, created = server.api("POST", "/api/downloads", {"url": "http://127.0.0.1:9/show/master.m3u8", "title": "Refused"})
        assert status == 202, created
        ctx["download"] = created["id"]
    driver.get(server.url + "/downloads")
    wait(driver, lambda d: js(d, "return document.querySelector('#downloads .download[data-state=failed]')"), "no failed row")


def devices(driver, ctx):
    driver.get(ctx["server"].url + "/devices")
    wait(driver, lambda d: js(d, "return document.readyState === 'complete'"), "not loaded")
    time.sleep(0.5)


def remote(driver, ctx):
    driver.get(ctx["server"].url + "/remote")
    wait(driver, lambda d: d.find_element(By.ID, "pair").is_displayed(), "no pair button")


def activities(driver, ctx):
    driver.get(ctx["server"].url + "/activities")
    wait(driver, lambda d: js(d, "return document.readyState === 'complete'"), "not loaded")
    time.sleep(0.5)


def setup_form(driver, ctx):
    fresh = start_locked("marquee-a11y-setup-")
    ctx["cleanup"].append(lambda: stop_locked(fresh))
    driver.get(fresh.url + "/signin")
    wait(driver, lambda d: d.find_element(By.ID, "code-field").is_displayed(), "no setup form")


def owner_of(locked):
    if not locked.owner_made:
        request = urllib.request.Request(locked.url + "/api/auth/setup", method="POST", headers={"content-type": "application/json"},
                                         data=json.dumps({"name": OWNER[0], "password": OWNER[1], "setupCode": locked.code}).encode())
        with urllib.request.urlopen(request, timeout=30) as response:
            assert response.status == 201
        locked.owner_made = True


def signin_form(driver, ctx):
    owner_of(ctx["locked"])
    driver.delete_all_cookies()
    driver.get(ctx["locked"].url + "/signin")
    wait(driver, lambda d: not d.find_element(By.ID, "form").get_attribute("hidden"), "no sign-in form")


def account(driver, ctx):
    owner_of(ctx["locked"])
    driver.get(ctx["locked"].url + "/signin")
    status = js(driver, """
        return fetch('/api/auth/signin', {method: 'POST', headers: {'content-type': 'application/json'},
                     body: JSON.stringify({name: arguments[0], password: arguments[1]})}).then((r) => r.status);""", *OWNER)
    assert status == 200
    driver.get(ctx["locked"].url + "/account")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#users li"), "no account list")


PAGES = {
    "library": library, "player-paused": player_paused, "player-playing": player_playing,
    "ad-break": player_ad_break, "live-text": player_live_text, "downloads": downloads, "devices": devices,
    "remote": remote, "activities": activities, "setup": setup_form, "signin": signin_form, "account": account,
}


def describe(violations):
    """Every violation with its nodes: rule, impact, help, and each node's target, HTML and summary."""
    lines = []
    for v in violations:
        lines.append(f"[{v['impact']}] {v['id']}: {v['help']} ({len(v['nodes'])} node{'s' if len(v['nodes']) != 1 else ''})")
        for node in v["nodes"]:
            lines.append(f"    {' '.join(node['target'])}  {node['html'][:160]}")
            summary = (node.get("failureSummary") or "").replace("\n", " ")
            if summary:
                lines.append(f"      {summary[:300]}")
    return "\n".join(lines)


@pytest.fixture(scope="module")
def context(server, locked):
    ctx = {"server": server, "locked": locked, "cleanup": [], "after": []}
    yield ctx
    for cleanup in ctx["cleanup"]:
        cleanup()
    if ctx.get("download"):
        server.api("DELETE", f"/api/downloads/{ctx['download']}")


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("page", list(PAGES))
def test_axe_finds_no_serious_or_critical_violation(axe_driver, context, page, language):
    driver = axe_driver
    speak(driver, language)
    try:
        check(driver, context, page, language)
    finally:
        while context["after"]:
            context["after"].pop()()


def check(driver, context, page, language):
    PAGES[page](driver, context)
    # The page speaks the language asked for, and says so (screen readers pick their voice by it).
    wait(driver, lambda d: js(d, "return document.documentElement.lang") == language,
         f"<html lang> is {js(driver, 'return document.documentElement.lang')!r}, not {language!r}", timeout=10)
    axe = Axe(driver)
    axe.inject()
    results = axe.run(options='{resultTypes: ["violations"]}')
    violations = results["violations"]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / f"axe-{page}-{language}.png"))
    report = describe(violations)
    if report:
        print(f"\naxe on {page} ({language}):\n{report}")
    failing = [v for v in violations if v["impact"] in FAILING]
    assert not failing, f"axe on {page} ({language}) found serious or critical violations:\n{describe(failing)}"
