"""Headless Firefox ESR driven over its built-in WebDriver BiDi remote agent (no geckodriver).

`Firefox.launch()` starts `firefox-esr --headless --remote-debugging-port 0` on a fresh profile
whose user.js turns off every background network call Firefox makes on its own (telemetry,
updates, studies, safe browsing, captive-portal and connectivity checks, remote settings,
Pocket, search suggestions, push, geolocation…), reads the "WebDriver BiDi listening on
ws://…" line it prints, and opens a BiDi session over that WebSocket. As a safety net every
proxied request goes to a loopback trap (`OutboundTrap`) that records it and answers nothing,
so a call the preferences missed shows up in `trap.requests` instead of leaving the machine.

`Tab` wraps one browsing context: navigate, evaluate script, keys and pointer input through
`input.performActions`, screenshots. Only the commands the tests need are wrapped; `send`
reaches any other BiDi command.
"""
import base64
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import websocket  # pip: websocket-client

FIREFOX = shutil.which("firefox-esr") or "/usr/bin/firefox-esr"

# WebDriver key codes (the WebDriver spec's "normalised key values").
KEYS = {"ArrowLeft": "\uE012", "ArrowUp": "\uE013", "ArrowRight": "\uE014", "ArrowDown": "\uE015",
        "Enter": "\uE007", "Escape": "\uE00C", "Space": " ", "Tab": "\uE004", "Home": "\uE011", "End": "\uE010"}


class BiDiError(RuntimeError):
    """A BiDi command answered with an error, or a script threw."""


def user_prefs(trap_port):
    """The test profile's preferences: quiet (nothing phones home), predictable, autoplay allowed."""
    off = False
    nothing = ""
    prefs = {
        # Telemetry, health report, Glean, crash reports, usage pings.
        "toolkit.telemetry.enabled": off, "toolkit.telemetry.unified": off, "toolkit.telemetry.archive.enabled": off,
        "toolkit.telemetry.server": "data:,", "toolkit.telemetry.newProfilePing.enabled": off,
        "toolkit.telemetry.shutdownPingSender.enabled": off, "toolkit.telemetry.firstShutdownPing.enabled": off,
        "toolkit.telemetry.updatePing.enabled": off, "toolkit.telemetry.bhrPing.enabled": off,
        "toolkit.telemetry.reportingpolicy.firstRun": off, "toolkit.telemetry.coverage.opt-out": True,
        "toolkit.coverage.opt-out": True, "toolkit.coverage.endpoint.base": nothing,
        "datareporting.healthreport.uploadEnabled": off, "datareporting.policy.dataSubmissionEnabled": off,
        "datareporting.usage.uploadEnabled": off, "datareporting.policy.dataSubmissionPolicyBypassNotification": True,
        "datareporting.policy.firstRunURL": nothing, "browser.ping-centre.telemetry": off,
        "browser.newtabpage.activity-stream.telemetry": off, "browser.newtabpage.activity-stream.feeds.telemetry": off,
        "browser.tabs.crashReporting.sendReport": off, "browser.crashReports.unsubmittedCheck.autoSubmit2": off,
        "breakpad.reportURL": nothing, "dom.private-attribution.submission.enabled": off,
        # Application, add-on, system add-on, search engine and GMP (OpenH264, Widevine) updates.
        "app.update.auto": off, "app.update.disabledForTesting": True, "app.update.checkInstallTime": off,
        "app.update.staging.enabled": off, "app.update.background.scheduling.enabled": off,
        "extensions.update.enabled": off, "extensions.update.autoUpdateDefault": off,
        "extensions.systemAddon.update.enabled": off, "extensions.systemAddon.update.url": nothing,
        "extensions.getAddons.cache.enabled": off, "extensions.getAddons.showPane": off,
        "extensions.htmlaboutaddons.recommendations.enabled": off, "extensions.webservice.discoverURL": nothing,
        "extensions.blocklist.enabled": off, "browser.search.update": off,
        "media.gmp-manager.url": "data:text/plain,", "media.gmp-manager.updateEnabled": off,
        "media.gmp-provider.enabled": off, "media.gmp-gmpopenh264.enabled": off, "media.gmp-widevinecdm.enabled": off,
        "media.eme.enabled": off,
        # Normandy / Shield studies and Nimbus experiments.
        "app.normandy.enabled": off, "app.normandy.api_url": nothing, "app.shield.optoutstudies.enabled": off,
        "messaging-system.rsexperimentloader.enabled": off, "nimbus.rollouts.enabled": off,
        # Safe Browsing and tracking-protection list downloads.
        "browser.safebrowsing.malware.enabled": off, "browser.safebrowsing.phishing.enabled": off,
        "browser.safebrowsing.downloads.enabled": off, "browser.safebrowsing.downloads.remote.enabled": off,
        "browser.safebrowsing.downloads.remote.url": nothing, "browser.safebrowsing.blockedURIs.enabled": off,
        "browser.safebrowsing.passwords.enabled": off,
        **{f"browser.safebrowsing.provider.{p}.{u}": nothing for p in ("google", "google4", "mozilla")
           for u in ("updateURL", "gethashURL")},
        "privacy.trackingprotection.enabled": off, "privacy.trackingprotection.pbmode.enabled": off,
        "privacy.trackingprotection.cryptomining.enabled": off, "privacy.trackingprotection.fingerprinting.enabled": off,
        "privacy.trackingprotection.socialtracking.enabled": off,
        # Captive-portal detection and connectivity checks.
        "network.captive-portal-service.enabled": off, "captivedetect.canonicalURL": nothing,
        "network.connectivity-service.enabled": off, "network.connectivity-service.IPv4.url": nothing,
        "network.connectivity-service.IPv6.url": nothing,
        # Remote settings (and what lives on it: CRLite, intermediates, breach alerts, translations, ML models).
        "services.settings.server": "data:,#remote-settings-disabled/v1",
        "security.remote_settings.crlite_filters.enabled": off, "security.remote_settings.intermediates.enabled": off,
        "security.OCSP.enabled": 0, "security.certerrors.mitm.priming.enabled": off,
        "signon.management.page.breach-alerts.enabled": off, "browser.translations.enable": off,
        "browser.ml.enable": off, "browser.ml.chat.enabled": off, "browser.ml.linkPreview.enabled": off,
        # Pocket, new-tab content, sponsored tiles, messaging, home page and first-run pages.
        "extensions.pocket.enabled": off, "browser.newtabpage.enabled": off, "browser.newtab.preload": off,
        "browser.newtabpage.activity-stream.feeds.section.topstories": off,
        "browser.newtabpage.activity-stream.feeds.topsites": off, "browser.newtabpage.activity-stream.showSponsored": off,
        "browser.newtabpage.activity-stream.showSponsoredTopSites": off, "browser.topsites.contile.enabled": off,
        "browser.newtabpage.activity-stream.discoverystream.enabled": off,
        "browser.newtabpage.activity-stream.asrouter.userprefs.cfr.addons": off,
        "browser.newtabpage.activity-stream.asrouter.userprefs.cfr.features": off,
        "browser.startup.page": 0, "browser.startup.homepage": "about:blank",
        "browser.startup.homepage_override.mstone": "ignore", "startup.homepage_welcome_url": nothing,
        "startup.homepage_welcome_url.additional": nothing, "browser.aboutwelcome.enabled": off,
        "browser.shell.checkDefaultBrowser": off, "browser.uitour.enabled": off, "browser.discovery.enabled": off,
        "browser.vpn_promo.enabled": off, "browser.contentblocking.report.show_mobile_app": off,
        "identity.fxaccounts.enabled": off,
        # Search suggestions, Firefox Suggest, region and geo-specific search defaults.
        "browser.search.suggest.enabled": off, "browser.urlbar.suggest.searches": off,
        "browser.urlbar.quicksuggest.enabled": off, "browser.urlbar.suggest.quicksuggest.sponsored": off,
        "browser.urlbar.suggest.quicksuggest.nonsponsored": off, "browser.urlbar.merino.endpointURL": nothing,
        "browser.search.geoSpecificDefaults": off, "browser.region.network.url": nothing,
        "browser.region.update.enabled": off, "browser.fixup.alternate.enabled": off,
        # Push and geolocation.
        "dom.push.enabled": off, "dom.push.connection.enabled": off, "dom.push.serverURL": nothing,
        "geo.enabled": off, "geo.provider.network.url": nothing, "geo.provider.use_gpsd": off,
        "geo.provider.use_geoclue": off,
        # Speculative connections, prefetching and DNS over HTTPS.
        "network.prefetch-next": off, "network.dns.disablePrefetch": True, "network.dns.disablePrefetchFromHTTPS": True,
        "network.predictor.enabled": off, "network.predictor.enable-prefetch": off,
        "network.http.speculative-parallel-limit": 0, "browser.places.speculativeConnect.enabled": off,
        "browser.urlbar.speculativeConnect.enabled": off, "network.trr.mode": 5, "doh-rollout.disable-heuristics": True,
        # Safety net: anything still sent to a host other than loopback goes to the trap, never out.
        "network.proxy.type": 1, "network.proxy.http": "127.0.0.1", "network.proxy.http_port": trap_port,
        "network.proxy.ssl": "127.0.0.1", "network.proxy.ssl_port": trap_port, "network.proxy.share_proxy_settings": off,
        "network.proxy.socks": nothing, "network.proxy.no_proxies_on": "127.0.0.1,localhost,[::1]",
        "network.proxy.allow_hijacking_localhost": off,
        # Behave like a desktop Firefox: its shipping autoplay policy (audible autoplay blocked until
        # the page gets a user gesture) and a mouse (headless has no pointer: `(hover: none)` would
        # match and the page would take it for a touch device). English; no restore prompts.
        "media.autoplay.default": 1, "media.autoplay.blocking_policy": 0,
        "ui.primaryPointerCapabilities": 6, "ui.allPointerCapabilities": 6,  # fine pointer | hover
        "intl.accept_languages": "en-US", "intl.locale.requested": "en-US",
        "browser.sessionstore.resume_from_crash": off, "toolkit.startup.max_resumed_crashes": -1,
        "browser.tabs.warnOnClose": off, "browser.warnOnQuit": off,
    }
    return prefs


def write_user_js(profile, trap_port):
    lines = [f"user_pref({json.dumps(name)}, {json.dumps(value)});" for name, value in user_prefs(trap_port).items()]
    (Path(profile) / "user.js").write_text("\n".join(lines) + "\n")


class OutboundTrap:
    """A loopback listener set as Firefox's HTTP and HTTPS proxy: it records the first line of
    each request (e.g. `CONNECT example.org:443 HTTP/1.1`) and closes the connection."""

    def __init__(self):
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(16)
        self.port = self.listener.getsockname()[1]
        self.requests = []
        self.closed = False
        threading.Thread(target=self.serve, daemon=True, name="firefox-outbound-trap").start()

    def serve(self):
        while not self.closed:
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            with connection:
                connection.settimeout(2)
                try:
                    first = connection.recv(4096).split(b"\r\n", 1)[0].decode("latin-1")
                except OSError:
                    first = "(no request line)"
                self.requests.append(first)

    def close(self):
        self.closed = True
        self.listener.close()


def network_peers(pids):
    """Remote addresses of the TCP and UDP sockets these processes hold (from `ss -tunapH`)."""
    output = subprocess.run(["ss", "-tunapH"], capture_output=True, text=True).stdout
    peers = []
    for line in output.splitlines():
        owners = {int(p) for p in re.findall(r"pid=(\d+)", line)}
        if owners & pids:
            fields = line.split()
            peers.append((fields[0], fields[4], fields[5]))
    return peers


def is_loopback(address):
    host = address.rsplit(":", 1)[0].strip("[]")
    return host in ("*", "0.0.0.0", "::", "::1") or host.startswith("127.") or host.startswith("::ffff:127.")


class NetworkWatch:
    """Samples, every 100 ms, the sockets of Firefox's processes and keeps any whose peer is not
    loopback. A short-lived socket can fall between samples; the trap catches proxied requests."""

    def __init__(self, root_pid, interval=0.1):
        self.root_pid = root_pid
        self.interval = interval
        self.outside = []
        self.samples = 0
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True, name="firefox-network-watch")
        self.thread.start()

    def pids(self):
        found = {self.root_pid}
        frontier = [self.root_pid]
        while frontier:
            pid = frontier.pop()
            try:
                children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
            except OSError:
                continue
            for child in map(int, children):
                if child not in found:
                    found.add(child)
                    frontier.append(child)
        return found

    def run(self):
        while not self.stopped.wait(self.interval):
            self.samples += 1
            for proto, local, peer in network_peers(self.pids()):
                if not is_loopback(peer):
                    self.outside.append((proto, local, peer))

    def stop(self):
        self.stopped.set()
        self.thread.join(timeout=2)


class Firefox:
    """One headless firefox-esr process and its BiDi session."""

    def __init__(self, process, log, workdir, trap, connection, ws_url):
        self.process = process
        self.log = log
        self.workdir = workdir
        self.trap = trap
        self.ws = connection
        self.ws_url = ws_url
        self.next_id = 0
        self.events = []
        self.watch = NetworkWatch(process.pid)

    @classmethod
    def launch(cls, width=1280, height=720, timeout=60):
        workdir = Path(tempfile.mkdtemp(prefix="marquee-firefox-"))
        profile, home = workdir / "profile", workdir / "home"
        profile.mkdir()
        home.mkdir()
        trap = OutboundTrap()
        write_user_js(profile, trap.port)
        env = {**os.environ, "HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache"),
               "XDG_CONFIG_HOME": str(home / ".config"), "MOZ_HEADLESS": "1",
               "MOZ_CRASHREPORTER_DISABLE": "1",
               # Release builds ignore services.settings.server unless this is set.
               "MOZ_REMOTE_SETTINGS_DEVTOOLS": "1"}
        env.pop("DISPLAY", None)
        env.pop("WAYLAND_DISPLAY", None)
        log = open(workdir / "firefox.log", "w+")
        # MARQUEE_FIREFOX_STRACE=FILE records every connect/send of Firefox and its children, to
        # audit by hand that nothing but 127.0.0.1 is reached (see docs/server-and-player.md).
        audit = os.environ.get("MARQUEE_FIREFOX_STRACE")
        tracer = ["strace", "-f", "-qq", "-s", "128", "-e", "trace=connect,sendto,sendmsg,sendmmsg", "-o", audit] if audit else []
        process = subprocess.Popen(
            [*tracer, FIREFOX, "--headless", "--no-remote", "--profile", str(profile), "--remote-debugging-port", "0",
             "--remote-allow-hosts", "127.0.0.1", "--width", str(width), "--height", str(height), "about:blank"],
            stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        ws_url = None
        deadline = time.time() + timeout
        while ws_url is None and time.time() < deadline:
            if process.poll() is not None:
                break
            log.seek(0)
            match = re.search(r"WebDriver BiDi listening on (ws://\S+)", log.read())
            ws_url = match.group(1) if match else None
            if ws_url is None:
                time.sleep(0.1)
        if ws_url is None:
            log.seek(0)
            output = log.read()[-2000:]
            cls._kill(process)
            log.close()
            trap.close()
            shutil.rmtree(workdir, ignore_errors=True)
            raise RuntimeError(f"firefox-esr did not start its BiDi agent:\n{output}")
        try:
            connection = websocket.create_connection(ws_url.rstrip("/") + "/session", timeout=timeout,
                                                     suppress_origin=True)
        except Exception:
            cls._kill(process)
            log.close()
            trap.close()
            shutil.rmtree(workdir, ignore_errors=True)
            raise
        firefox = cls(process, log, workdir, trap, connection, ws_url)
        try:
            firefox.send("session.new", {"capabilities": {"alwaysMatch": {"acceptInsecureCerts": False}}})
        except Exception:
            firefox.quit()
            raise
        return firefox

    # Protocol

    def send(self, method, params=None, timeout=60):
        """Sends one command and returns its result; events arriving meanwhile are kept."""
        self.next_id += 1
        command_id = self.next_id
        self.ws.send(json.dumps({"id": command_id, "method": method, "params": params or {}}))
        deadline = time.time() + timeout
        while True:
            self.ws.settimeout(max(0.1, deadline - time.time()))
            try:
                message = json.loads(self.ws.recv())
            except websocket.WebSocketTimeoutException:
                raise TimeoutError(f"BiDi {method} got no answer in {timeout} s") from None
            if message.get("type") == "event":
                self.events.append(message)
                continue
            if message.get("id") != command_id:
                continue
            if message.get("type") == "error":
                raise BiDiError(f"{method}: {message.get('error')}: {message.get('message')}")
            return message["result"]

    def subscribe(self, *events):
        self.send("session.subscribe", {"events": list(events)})

    def console(self):
        """Console messages and uncaught errors logged so far (needs a `log.entryAdded` subscription)."""
        self.send("session.status")  # drains events already sent
        return [f"{e['params'].get('level')}: {e['params'].get('text')}" for e in self.events
                if e.get("method") == "log.entryAdded"]

    def tab(self):
        """The top-level browsing context Firefox opened at start."""
        contexts = self.send("browsingContext.getTree", {"maxDepth": 0})["contexts"]
        return Tab(self, contexts[0]["context"])

    # Shutting down

    def quit(self):
        self.watch.stop()
        try:
            self.send("session.end", timeout=5)
        except Exception:  # the session may already be gone; the process is ended below either way
            pass
        try:
            self.ws.close()
        except Exception:
            pass
        self._kill(self.process)
        self.log.close()
        self.trap.close()
        shutil.rmtree(self.workdir, ignore_errors=True)

    @staticmethod
    def _kill(process):
        """Ends Firefox by its own PID (SIGTERM, then SIGKILL), then its process group, which
        `start_new_session` made Firefox's own: its content processes and nothing else."""
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def deserialize(value):
    """A BiDi RemoteValue as plain Python (objects, arrays, maps, numbers, strings, null)."""
    kind = value.get("type")
    if kind in ("undefined", "null"):
        return None
    if kind == "number":
        special = {"NaN": float("nan"), "Infinity": float("inf"), "-Infinity": float("-inf"), "-0": -0.0}
        raw = value["value"]
        return special.get(raw, raw) if isinstance(raw, str) else raw
    if kind in ("string", "boolean", "bigint"):
        return value["value"]
    if kind in ("array", "set"):
        return [deserialize(v) for v in value.get("value", [])]
    if kind in ("object", "map"):
        return {k if isinstance(k, str) else str(deserialize(k)): deserialize(v) for k, v in value.get("value", [])}
    return {"type": kind, **({"value": value["value"]} if "value" in value else {})}


def serialize(value):
    """A plain Python value as a BiDi LocalValue, for `script.callFunction` arguments."""
    if value is None:
        return {"type": "null"}
    if isinstance(value, bool):
        return {"type": "boolean", "value": value}
    if isinstance(value, (int, float)):
        return {"type": "number", "value": value}
    if isinstance(value, str):
        return {"type": "string", "value": value}
    if isinstance(value, (list, tuple)):
        return {"type": "array", "value": [serialize(v) for v in value]}
    if isinstance(value, dict):
        return {"type": "object", "value": [[str(k), serialize(v)] for k, v in value.items()]}
    raise TypeError(f"cannot pass {type(value).__name__} to the page")


class Tab:
    """One browsing context: what a test does with a page."""

    def __init__(self, firefox, context):
        self.firefox = firefox
        self.context = context

    def navigate(self, url):
        self.firefox.send("browsingContext.navigate", {"context": self.context, "url": url, "wait": "complete"})

    def _result(self, answer):
        if answer.get("type") == "exception":
            details = answer["exceptionDetails"]
            raise BiDiError(f"script threw: {details.get('text')} ({deserialize(details.get('exception', {}))})")
        return deserialize(answer["result"])

    def evaluate(self, expression, await_promise=True):
        """The value of a JavaScript expression in the page."""
        return self._result(self.firefox.send("script.evaluate", {
            "expression": expression, "target": {"context": self.context},
            "awaitPromise": await_promise, "resultOwnership": "none", "userActivation": False}))

    def call(self, function, *args, await_promise=True):
        """Calls `function` (a JavaScript function declaration) with these arguments."""
        return self._result(self.firefox.send("script.callFunction", {
            "functionDeclaration": function, "arguments": [serialize(a) for a in args],
            "target": {"context": self.context}, "awaitPromise": await_promise,
            "resultOwnership": "none", "userActivation": False}))

    def wait_for(self, expression, message, timeout=15, interval=0.05):
        """Polls a JavaScript expression until it is truthy; returns its value."""
        deadline = time.time() + timeout
        last = None
        while time.time() < deadline:
            last = self.evaluate(expression)
            if last:
                return last
            time.sleep(interval)
        raise AssertionError(f"{message} (after {timeout} s; last value {last!r})")

    # Input, through Firefox's own event pipeline

    def perform(self, *sources):
        self.firefox.send("input.performActions", {"context": self.context, "actions": list(sources)})
        self.firefox.send("input.releaseActions", {"context": self.context})

    def press_key(self, key):
        """Presses and releases one key: a character, or a name from KEYS such as "ArrowRight"."""
        value = KEYS.get(key, key)
        self.perform({"type": "key", "id": "keyboard", "actions": [
            {"type": "keyDown", "value": value}, {"type": "keyUp", "value": value}]})

    def click(self, x, y, hover_ms=100):
        """Moves the mouse there, rests `hover_ms` as a person would (hidden controls come back
        on movement), then presses and releases the left button."""
        self.perform({"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"}, "actions": [
            {"type": "pointerMove", "x": round(x), "y": round(y), "duration": 0},
            {"type": "pause", "duration": hover_ms},
            {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0}]})

    def drag(self, start, end, steps=10, duration_ms=200):
        (x0, y0), (x1, y1) = start, end
        moves = [{"type": "pointerMove", "x": round(x0 + (x1 - x0) * i / steps), "y": round(y0 + (y1 - y0) * i / steps),
                  "duration": duration_ms // steps} for i in range(1, steps + 1)]
        self.perform({"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"}, "actions": [
            {"type": "pointerMove", "x": round(x0), "y": round(y0), "duration": 0},
            {"type": "pointerDown", "button": 0}, *moves, {"type": "pointerUp", "button": 0}]})

    def click_element(self, selector):
        """Clicks the centre of the element this CSS selector finds, scrolled into view first
        (as a person scrolls to what they want to press)."""
        self.call("(s) => document.querySelector(s)?.scrollIntoView({block: 'center', inline: 'center'})", selector)
        rect = self.rect(selector)
        self.click(rect["x"] + rect["w"] / 2, rect["y"] + rect["h"] / 2)

    def rect(self, selector):
        rect = self.call("(s) => { const e = document.querySelector(s); if (!e) return null;"
                         " const r = e.getBoundingClientRect(); return {x: r.left, y: r.top, w: r.width, h: r.height}; }",
                         selector)
        assert rect, f"no element matches {selector}"
        return rect

    def set_viewport(self, width, height):
        self.firefox.send("browsingContext.setViewport",
                          {"context": self.context, "viewport": {"width": width, "height": height}})

    def screenshot(self, path):
        data = self.firefox.send("browsingContext.captureScreenshot", {"context": self.context})["data"]
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_bytes(base64.b64decode(data))
