"""Access control off loopback (issue 10): a server bound to any address but loopback needs
sign-in for everything but the sign-in page; the first owner is made with the one-time setup
code printed in the console; sessions live in HttpOnly, SameSite=Strict cookies; scripts use
API tokens; a viewer can browse and play but cannot add server paths or see them in errors;
sign-in attempts are rate limited. The server listens on 0.0.0.0 but every request here goes
to 127.0.0.1: the mode depends on the bound address, never on the client's."""
import base64
import http.cookiejar
import json
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import ARTIFACTS, drain_console, marquee_binary

OWNER = ("ann", "owner password 1")
VIEWER = ("vic", "viewer password 1")


class Client:
    """An HTTP client with its own cookie jar (one browser, or one script)."""

    def __init__(self, base, token=None):
        self.base = base
        self.token = token
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), NoRedirect())

    def call(self, method, path, body=None, headers=None):
        merged = {"content-type": "application/json", **(headers or {})}
        if self.token:
            merged["authorization"] = f"Bearer {self.token}"
        request = urllib.request.Request(self.base + path, method=method, headers=merged,
                                         data=None if body is None else json.dumps(body).encode())
        try:
            with self.opener.open(request, timeout=30) as response:
                text = response.read()
                return response.status, dict(response.headers), (json.loads(text) if text and "json" in response.headers.get("content-type", "") else text)
        except urllib.error.HTTPError as error:
            text = error.read()
            try:
                parsed = json.loads(text)
            except ValueError:
                parsed = text
            return error.code, dict(error.headers), parsed


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


@pytest.fixture(scope="module")
def locked(tmp_path_factory):
    """`marquee serve --host 0.0.0.0` with an empty library; its setup code from the console."""
    data = tempfile.mkdtemp(prefix="marquee-locked-")
    process = subprocess.Popen([marquee_binary(), "serve", "--data", data, "--host", "0.0.0.0", "--port", "0", "--no-samples"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    console = []
    code = port = None
    deadline = time.time() + 60
    while time.time() < deadline and not (code and "marquee users add" in console[-1]):
        line = process.stdout.readline()
        if not line:
            break
        console.append(line)
        if m := re.search(r"Marquee is ready at http://[^:/]+:(\d+)/", line):
            port = int(m.group(1))
        if m := re.search(r"setup code ([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})", line):
            code = m.group(1)
    assert port and code, "".join(console)
    drain_console(process, ARTIFACTS / "locked-console.log")
    server = type("Locked", (), {})()
    server.url, server.code, server.data, server.console = f"http://127.0.0.1:{port}", code, data, "".join(console)
    yield server
    process.terminate()
    process.wait(timeout=10)
    shutil.rmtree(data, ignore_errors=True)


@pytest.fixture(scope="module")
def owner(locked):
    """The owner, created through the API with the setup code; and a clip, added by them."""
    client = Client(locked.url)
    status, _, body = client.call("POST", "/api/auth/setup", {"name": OWNER[0], "password": OWNER[1], "setupCode": "0000-0000-0000"})
    assert status == 403, body
    status, headers, body = client.call("POST", "/api/auth/setup", {"name": OWNER[0], "password": OWNER[1], "setupCode": locked.code.lower()})
    assert status == 201, body
    assert body["account"]["role"] == "owner"
    cookie = headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie
    # Over HTTPS (a TLS proxy in front) the cookie is also Secure.
    status, headers, body = Client(locked.url).call("POST", "/api/auth/signin", {"name": OWNER[0], "password": OWNER[1]},
                                                     headers={"X-Forwarded-Proto": "https"})
    assert status == 200 and "Secure" in headers["Set-Cookie"], body
    clip = os.path.join(locked.data, "clip.mp4")
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=24:duration=4",
                    "-f", "lavfi", "-i", "sine=frequency=440:duration=4", "-c:v", "libx264", "-pix_fmt", "yuv420p",
                    "-c:a", "aac", "-shortest", clip], check=True)
    status, _, body = client.call("POST", "/api/assets", {"paths": [clip]})
    assert status in (200, 201, 202), body
    deadline = time.time() + 120
    while time.time() < deadline:
        _, _, listing = client.call("GET", "/api/assets")
        if listing["assets"] and listing["assets"][0]["status"] == "ready":
            break
        time.sleep(0.5)
    client.asset = listing["assets"][0]
    assert client.asset["status"] == "ready", listing
    return client


@pytest.fixture(scope="module")
def viewer(locked, owner):
    status, _, body = owner.call("POST", "/api/users", {"name": VIEWER[0], "password": VIEWER[1], "role": "viewer"})
    assert status == 201, body
    client = Client(locked.url)
    status, _, body = client.call("POST", "/api/auth/signin", {"name": VIEWER[0], "password": VIEWER[1]})
    assert status == 200 and body["account"]["role"] == "viewer", body
    return client


def test_the_console_says_how_to_create_the_owner(locked):
    assert "Sign-in is required on this address" in locked.console
    assert "marquee users add NAME --role owner" in locked.console
    assert "/signin" in locked.console


def test_nothing_works_without_signing_in(locked, owner):
    anonymous = Client(locked.url)
    for method, path in [("GET", "/api/assets"), ("GET", f"/api/assets/{owner.asset['id']}"), ("GET", "/api/library"),
                         ("GET", f"/media/{owner.asset['id']}/master.m3u8"), ("POST", "/api/sessions"),
                         ("GET", "/api/settings/player"), ("GET", "/api/events"), ("GET", "/api/openapi.json")]:
        status, headers, body = anonymous.call(method, path, {"assetID": owner.asset["id"]} if method == "POST" else None)
        assert status == 401, (method, path, status, body)
        assert headers.get("WWW-Authenticate", "").startswith("Bearer")
    # Pages send a browser to the sign-in page, and back afterwards.
    status, headers, _ = anonymous.call("GET", f"/watch/{owner.asset['id']}", headers={"accept": "text/html"})
    assert status == 303 and headers["Location"] == f"/signin?next=/watch/{owner.asset['id']}"
    # What the sign-in page needs is public.
    for path in ["/signin", "/ui/js/signin.js", "/ui/css/signin.css", "/api/auth/session", "/api/health"]:
        status, _, _ = anonymous.call("GET", path)
        assert status == 200, path


def test_a_websocket_without_a_session_is_refused(locked, owner):
    status, _, session = owner.call("POST", "/api/sessions", {"assetID": owner.asset["id"]})
    assert status in (200, 201), session
    url = urllib.parse.urlsplit(locked.url)

    def upgrade(extra=""):
        with socket.create_connection((url.hostname, url.port), timeout=10) as sock:
            key = base64.b64encode(os.urandom(16)).decode()
            sock.sendall((f"GET /api/sessions/{session['id']}/renderer HTTP/1.1\r\nHost: {url.netloc}\r\nConnection: Upgrade\r\n"
                          f"Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: {key}\r\n{extra}\r\n").encode())
            # Only the head: after a 101 the session's first frame (binary) can come in the same read.
            return sock.recv(4096).split(b"\r\n\r\n")[0].decode()

    # Hummingbird answers any refused upgrade with 400; the same request with the owner's cookie upgrades.
    head = upgrade()
    assert not head.startswith("HTTP/1.1 101") and head.startswith("HTTP/1.1 4"), head
    cookie = next(c for c in owner.jar if c.name == "marquee_session")
    head = upgrade(f"Cookie: marquee_session={cookie.value}\r\n")
    assert head.startswith("HTTP/1.1 101"), head


def test_a_viewer_can_browse_and_play_but_not_manage(owner, viewer):
    asset_id = owner.asset["id"]
    status, _, listing = viewer.call("GET", "/api/assets")
    assert status == 200 and [a["id"] for a in listing["assets"]] == [asset_id]
    status, _, session = viewer.call("POST", "/api/sessions", {"assetID": asset_id})
    assert status in (200, 201), session
    status, _, _ = viewer.call("PUT", f"/api/assets/{asset_id}/position", {"position": 1.5})
    assert status == 200
    # Server paths: refused before the path is looked at, so existence is not revealed either.
    for path in ["/etc/passwd", "/definitely/not/here.mp4"]:
        status, _, body = viewer.call("POST", "/api/assets", {"paths": [path]})
        assert status == 403, body
        assert path not in json.dumps(body)
    for method, path, body in [("DELETE", f"/api/assets/{asset_id}", None), ("PUT", "/api/settings/player", {"speeds": [1]}),
                               ("PUT", f"/api/assets/{asset_id}/metadata", {"title": "x"}), ("GET", "/api/users", None),
                               ("POST", "/api/downloads", {"url": "http://127.0.0.1:1/x.m3u8"}), ("GET", "/api/downloads", None),
                               ("POST", "/api/uploads", {"name": "x.mp4", "length": 10})]:
        status, _, answer = viewer.call(method, path, body)
        assert status == 403, (method, path, answer)
    status, _, asset = owner.call("GET", f"/api/assets/{asset_id}")
    assert status == 200 and asset["title"] == owner.asset["title"]


def test_no_spelling_of_a_path_gets_past_its_permission(locked, owner, viewer):
    """Issue 24: `//api/users`, `/api/users/`, `/./api/users`, `%2F`, `%2e` and case changes are the
    route `/api/users`, with its permission, sent byte for byte as written (http.client, no normalising)."""
    import http.client
    url = urllib.parse.urlsplit(locked.url)
    cookie = next(c for c in viewer.jar if c.name == "marquee_session")

    def raw(method, target, extra=None):
        connection = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
        try:
            connection.putrequest(method, target, skip_accept_encoding=True)
            for name, value in {"Cookie": f"marquee_session={cookie.value}", "Content-Type": "application/json", **(extra or {})}.items():
                connection.putheader(name, value)
            connection.endheaders(b"{}" if method == "POST" else None)
            response = connection.getresponse()
            return response.status, response.read()
        finally:
            connection.close()

    for canonical in ["/api/users", "/api/devices", "/api/settings/interstitial-webhooks", "/api/downloads", "/downloads",
                      "/devices", "/api/devices/nearby"]:
        expected, _ = raw("GET", canonical)
        assert expected == 403, (canonical, expected)
        inner = canonical.replace("/", "//", 2).replace("///", "//")
        for spelling in ["/" + canonical, canonical + "/", "/." + canonical, "/x/.." + canonical, "/%2e" + canonical,
                         canonical.upper(), inner, canonical[:4] + "%2F" + canonical[5:] if canonical.count("/") > 1 else canonical + "//"]:
            status, body = raw("GET", spelling)
            assert status == 403, (spelling, status, body[:200])


def test_server_paths_in_errors_are_shown_to_the_owner_only(locked, owner, viewer):
    bad = os.path.join(locked.data, "not-really-video.mp4")
    with open(bad, "wb") as handle:
        handle.write(b"\x00\x01garbage" * 500)
    status, _, body = owner.call("POST", "/api/assets", {"paths": [bad]})
    assert status in (200, 201, 202), body
    deadline = time.time() + 60
    while time.time() < deadline:
        _, _, listing = owner.call("GET", "/api/assets")
        failed = [a for a in listing["assets"] if a["status"] == "failed"]
        if failed and failed[0].get("job", {}).get("message"):
            break
        time.sleep(0.5)
    assert failed, listing
    owner_message = failed[0]["job"]["message"]
    _, _, seen = viewer.call("GET", "/api/assets")
    viewer_message = next(a for a in seen["assets"] if a["id"] == failed[0]["id"])["job"]["message"]
    assert locked.data not in viewer_message, viewer_message
    if locked.data in owner_message:
        assert "not-really-video.mp4" in viewer_message
    status, _, jobs = viewer.call("GET", "/api/jobs")
    assert status == 200 and locked.data not in json.dumps(jobs)
    status, _, _ = owner.call("DELETE", f"/api/assets/{failed[0]['id']}?permanently=true")
    assert status in (200, 204)


def test_api_tokens_work_for_scripts_until_revoked(locked, owner):
    status, headers, token = owner.call("POST", "/api/tokens", {"name": "backup script"})
    assert status == 201 and token["token"].startswith("mqt_")
    assert headers.get("Cache-Control") == "no-store"
    script = Client(locked.url, token=token["token"])
    status, _, listing = script.call("GET", "/api/assets")
    assert status == 200 and listing["assets"]
    status, _, tokens = owner.call("GET", "/api/tokens")
    assert [t["name"] for t in tokens["tokens"]] == ["backup script"] and all("token" not in t or t["token"] is None for t in tokens["tokens"])
    status, _, _ = owner.call("DELETE", f"/api/tokens/{token['id']}")
    assert status == 204
    status, _, body = script.call("GET", "/api/assets")
    assert status == 401 and "not valid" in body["error"]["message"]


def test_the_owner_signs_in_in_a_browser_and_plays(locked, owner, browser):
    driver = browser()
    driver.get(f"{locked.url}/watch/{owner.asset['id']}")
    WebDriverWait(driver, 10).until(lambda d: "/signin" in d.current_url)
    name = WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "name") if not d.find_element(By.ID, "form").get_attribute("hidden") else None)
    assert not driver.find_element(By.ID, "code-field").is_displayed()  # an owner exists: plain sign-in
    name.send_keys(OWNER[0])
    driver.find_element(By.ID, "password").send_keys("wrong password")
    driver.find_element(By.ID, "submit").click()
    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "error").is_displayed())
    assert "Wrong name or password" in driver.find_element(By.ID, "error").text
    driver.find_element(By.ID, "password").clear()
    driver.find_element(By.ID, "password").send_keys(OWNER[1])
    driver.find_element(By.ID, "submit").click()
    WebDriverWait(driver, 15).until(lambda d: urllib.parse.urlsplit(d.current_url).path == f"/watch/{owner.asset['id']}")
    # The cookie is out of scripts' reach and never sent cross-site.
    assert "marquee_session" not in driver.execute_script("return document.cookie")
    cookies = driver.execute_cdp_cmd("Network.getAllCookies", {})["cookies"]
    session = next(c for c in cookies if c["name"] == "marquee_session")
    assert session["httpOnly"] and session["sameSite"] == "Strict"
    # The player loads its media and socket with the cookie: playback advances.
    driver.execute_script("document.querySelector('video').muted = true; document.querySelector('video').play()")
    WebDriverWait(driver, 30).until(lambda d: d.execute_script("return document.querySelector('video').currentTime") > 1)


def test_a_guest_watches_together_by_the_link_and_nothing_else(locked, owner, browser):
    """Off loopback, an invitation is its own credential (issue 28): a person without an account
    opens the link and watches that group, can reach nothing else, and is shown why the player
    stopped when the owner withdraws the link."""
    host = browser()
    client = Client(locked.url)
    status, headers, _ = client.call("POST", "/api/auth/signin", {"name": OWNER[0], "password": OWNER[1]})
    assert status == 200
    host.get(f"{locked.url}/signin")
    host.add_cookie({"name": "marquee_session", "value": headers["Set-Cookie"].split(";")[0].split("=", 1)[1], "path": "/"})
    host.get(f"{locked.url}/watch/{owner.asset['id']}")
    WebDriverWait(host, 30).until(lambda d: d.execute_script("return window.marquee?.session?.status === 'playing'"))
    # Paused 1 s in (the clip lasts 4 s): the guest loads the group's frame.
    host.execute_script("document.getElementById('play-pause').click()")
    WebDriverWait(host, 10).until(lambda d: d.execute_script("return window.marquee.session.status === 'paused'"))
    host.execute_script("document.getElementById('together-button').click()")
    link = WebDriverWait(host, 10).until(lambda d: d.execute_script("return document.getElementById('together-link')?.value"))
    session_id = host.execute_script("return window.marquee.session.id")

    guest = browser()
    guest.get(link + "?name=Bea")
    WebDriverWait(guest, 20).until(lambda d: urllib.parse.urlsplit(d.current_url).path == f"/watch/{owner.asset['id']}")
    WebDriverWait(guest, 30).until(lambda d: d.execute_script("return window.marquee?.groupSync?.group?.participants?.length") == 2)
    names = host.execute_script("return window.marquee.groupSync.group.participants.map((p) => p.name)")
    assert "Bea" in names, names
    cookie = next(c for c in guest.execute_cdp_cmd("Network.getAllCookies", {})["cookies"] if c["name"] == "marquee_guest")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Lax", cookie
    assert not any(c["name"] == "marquee_session" for c in guest.execute_cdp_cmd("Network.getAllCookies", {})["cookies"])
    # The guest's player reads its media: it shows the group's paused frame.
    WebDriverWait(guest, 20).until(lambda d: d.execute_script("return document.getElementById('video').readyState") >= 2)
    time_host, time_guest = (d.execute_script("return document.getElementById('video').currentTime") for d in (host, guest))
    assert abs(time_host - time_guest) < 0.05, (time_host, time_guest)
    # The ad-break editor is the owner's: offered to the host, not to the guest (the server says so).
    WebDriverWait(host, 10).until(lambda d: d.find_element(By.ID, "ad-breaks-button").is_displayed())
    may_edit = guest.execute_script(f"return fetch('/api/assets/{owner.asset['id']}/interstitials').then((r) => r.json()).then((b) => b.mayEdit)")
    assert may_edit is False
    assert not guest.find_element(By.ID, "ad-breaks-button").is_displayed()
    # Nothing else on the server: the library's API says why; other sessions and new groups are refused.
    answers = guest.execute_script("""return Promise.all(['/api/library', '/api/assets', '/api/users', '/api/sessions'].map((path, i) =>
        fetch(path, i === 3 ? {method: 'POST', headers: {'content-type': 'application/json'}, body: '{}'} : {})
          .then(async (r) => [path, r.status, (await r.json()).error.message])))""")
    for path, status, message in answers:
        assert status == 403 and "watch that group only" in message, (path, status, message)

    # The owner withdraws the links: the guest's player stops and says why.
    status, _, body = client.call("DELETE", f"/api/sessions/{session_id}/group/invitations")
    assert status == 200 and body["revoked"] >= 1, body
    WebDriverWait(guest, 15).until(lambda d: not d.find_element(By.ID, "error").get_attribute("hidden"))
    message = guest.find_element(By.ID, "error-message").text
    assert "has ended" in message and "new link" in message, message
    # The link no longer lets anyone in; the library sends the former guest to sign in.
    guest.get(link)
    assert "expired or was withdrawn" in guest.page_source
    guest.get(f"{locked.url}/")
    WebDriverWait(guest, 10).until(lambda d: "/signin" in d.current_url)


def test_first_run_setup_in_a_browser(tmp_path, browser):
    """A fresh locked server: the browser is sent to the setup form, which needs the code."""
    process = subprocess.Popen([marquee_binary(), "serve", "--data", str(tmp_path), "--host", "0.0.0.0", "--port", "0", "--no-samples"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        port = code = None
        while not code:
            line = process.stdout.readline()
            assert line, "server ended"
            if m := re.search(r"ready at http://[^:/]+:(\d+)/", line):
                port = m.group(1)
            if m := re.search(r"setup code ([0-9A-Z-]{14})", line):
                code = m.group(1)
        driver = browser("ja-JP")
        driver.get(f"http://127.0.0.1:{port}/")
        WebDriverWait(driver, 10).until(lambda d: "/signin" in d.current_url and d.find_element(By.ID, "code-field").is_displayed())
        assert driver.find_element(By.ID, "heading").text == "オーナーアカウントを作成"
        driver.find_element(By.ID, "setup-code").send_keys(code)
        driver.find_element(By.ID, "name").send_keys("owner")
        driver.find_element(By.ID, "password").send_keys("a long password")
        driver.find_element(By.ID, "confirm").send_keys("a long password")
        driver.find_element(By.ID, "submit").click()
        WebDriverWait(driver, 15).until(lambda d: d.current_url.rstrip("/") == f"http://127.0.0.1:{port}")
        WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "account-link").text == "owner")
        # The account page lists tokens and people for the owner.
        driver.get(f"http://127.0.0.1:{port}/account")
        WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "users").find_elements(By.TAG_NAME, "li"))
        assert "owner" in driver.find_element(By.ID, "users").text
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_each_signed_in_person_sees_and_resumes_their_own_progress(locked, owner, viewer, browser):
    """Per-viewer progress as people see it: two accounts watch one film to different points; each
    one's library card shows their own share watched, and opening the card resumes where they
    stopped, never where the other did."""
    film = os.path.join(locked.data, "Long Walk.mp4")
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=24:duration=30",
                    "-f", "lavfi", "-i", "sine=frequency=330:duration=30", "-c:v", "libx264", "-preset", "ultrafast",
                    "-pix_fmt", "yuv420p", "-g", "48", "-c:a", "aac", "-shortest", film], check=True)
    status, _, body = owner.call("POST", "/api/assets", {"paths": [film]})
    assert status in (200, 201, 202), body
    deadline = time.time() + 120
    asset = None
    while time.time() < deadline and not (asset and asset["status"] == "ready"):
        time.sleep(0.5)
        asset = next((a for a in owner.call("GET", "/api/assets")[2]["assets"] if a["title"] == "Long Walk"), None)
    assert asset and asset["status"] == "ready", asset
    for person, position in ((owner, 9), (viewer, 21)):
        status, _, body = person.call("PUT", f"/api/assets/{asset['id']}/position", {"position": position, "duration": 30})
        assert status == 200, body

    def signed_in_browser(client):
        driver = browser()
        driver.get(f"{locked.url}/signin")
        session = next(c.value for c in client.jar if c.name == "marquee_session")
        driver.add_cookie({"name": "marquee_session", "value": session, "path": "/"})
        return driver

    for person, watched, resumed in ((viewer, 70, 21), (owner, 30, 9)):
        driver = signed_in_browser(person)
        driver.get(f"{locked.url}/")
        # Continue watching: the film, with this person's share watched.
        card = WebDriverWait(driver, 20).until(lambda d: next(iter(d.find_elements(
            By.CSS_SELECTOR, f"section.home-row li.home-card[data-asset-id='{asset['id']}']")), None))
        bar = card.find_element(By.CSS_SELECTOR, ".home-progress")
        assert bar.get_attribute("aria-valuenow") == str(watched), (person.jar, bar.get_attribute("aria-valuenow"))
        # The library's own card says the same.
        shown = driver.execute_script("return fetch('/api/assets').then((r) => r.json())")
        film = next(a for a in shown["assets"] if a["id"] == asset["id"])
        assert round(film["playback"]["fraction"] * 100) == watched and film["playback"]["resumeTime"] == resumed, film["playback"]
        link = card.find_element(By.CSS_SELECTOR, "a.home-link")
        assert "resume=1" in link.get_attribute("href"), link.get_attribute("href")
        link.click()
        WebDriverWait(driver, 30).until(lambda d: d.execute_script("return window.marquee?.session?.assetID") == asset["id"])
        WebDriverWait(driver, 20).until(lambda d: d.execute_script("return document.getElementById('video').readyState") >= 2)
        started = driver.execute_script("return window.marquee.session.currentTime")
        assert abs(started - resumed) < 1.5, (person, started, resumed)


def test_loopback_stays_open_for_the_local_user(server):
    status, listing = server.api("GET", "/api/assets")
    assert status == 200 and listing["assets"]
    status, session = server.api("GET", "/api/auth/session")
    assert status == 200 and session["mode"] == "open" and session["account"]["role"] == "owner" and not session["signedIn"]


def test_sign_in_attempts_are_rate_limited(locked, owner):
    """Last in this file: it empties the sign-in allowance of 127.0.0.1 for the other tests."""
    attacker = Client(locked.url)
    statuses = []
    for _ in range(14):
        status, headers, body = attacker.call("POST", "/api/auth/signin", {"name": "nobody-here", "password": "wrong password"})
        statuses.append(status)
        if status == 429:
            assert int(headers["Retry-After"]) >= 1
            break
    assert statuses[0] == 401 and statuses[-1] == 429, statuses
