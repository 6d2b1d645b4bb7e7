"""Helpers that drive the player page the way a person would: pointer, touch, wheel and keys
through Chromium's input pipeline (DevTools Input domain), and reading what shows."""
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


class PlayerPage:
    def __init__(self, driver, server, title, query="", load_timeout=15):
        self.driver = driver
        asset = server.asset(title)
        driver.get(f"{server.url}/watch/{asset['id']}{query}")
        try:
            self.wait_for(lambda: self.js("return window.marquee?.session?.duration > 0 && document.querySelector('#video').readyState >= 2"),
                          "the player did not load", timeout=load_timeout)
        except Exception as error:
            raise AssertionError(f"the player did not load within {load_timeout} s: {self.load_state()}") from error

    def load_state(self):
        """What the page had got to, for a load that did not finish: the session, the video
        element, the engine, the error overlay and the page's console errors."""
        try:
            state = self.js("""
              const v = document.querySelector('#video'), m = window.marquee;
              return JSON.stringify({session: m?.session ? {status: m.session.status, duration: m.session.duration} : null,
                manifest: !!m?.manifest, engine: !!m?.engine, readyState: v?.readyState, networkState: v?.networkState,
                videoError: v?.error?.message ?? v?.error?.code ?? null, buffered: v?.buffered?.length ? v.buffered.end(0) : 0,
                error: document.querySelector('#error:not([hidden])')?.textContent?.trim() ?? null});""")
        except Exception as error:  # the page itself may be gone
            state = f"(could not read the page: {error})"
        try:
            logs = [entry["message"] for entry in self.driver.get_log("browser") if entry.get("level") == "SEVERE"][-5:]
        except Exception:
            logs = []
        return f"{state}; console errors: {logs}"

    # Reading

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def video(self, prop):
        return self.js(f"return document.getElementById('video').{prop}")

    @property
    def current_time(self):
        return self.video("currentTime")

    @property
    def timeline_time(self):
        return float(self.element("timeline").get_attribute("aria-valuenow"))

    def element(self, element_id):
        return self.driver.find_element(By.ID, element_id)

    def player_attr(self, name):
        return self.element("player").get_attribute(name)

    def controls_hidden(self):
        return "controls-hidden" in self.player_attr("class")

    def wait_for(self, condition, message, timeout=15):
        WebDriverWait(self.driver, timeout, poll_frequency=0.05).until(lambda _: condition(), message)

    def wait_until_seeked(self, expected, tolerance=0.6, timeout=10):
        self.wait_for(lambda: abs(self.current_time - expected) <= tolerance and not self.video("seeking"),
                      f"playhead did not reach {expected} (at {self.current_time})", timeout)

    def wait_for_status(self, status):
        self.wait_for(lambda: self.player_attr("data-status") == status, f"session never became {status}")

    # Geometry

    def rect(self, element_id):
        return self.js("const r = document.getElementById(arguments[0]).getBoundingClientRect();"
                       "return {x: r.left, y: r.top, w: r.width, h: r.height};", element_id)

    # Input through the browser's own pipeline

    def mouse(self, kind, x, y, buttons=0, button="none", modifiers=0, click_count=0, at=None):
        """Dispatches a mouse event through CDP; `at` (seconds since the epoch) is when the
        event happened, as the page's `event.timeStamp` sees it (default: when it arrives)."""
        event = {"type": kind, "x": x, "y": y, "buttons": buttons, "button": button,
                 "modifiers": modifiers, "clickCount": click_count, "pointerType": "mouse"}
        if at is not None:
            event["timestamp"] = at
        self.driver.execute_cdp_cmd("Input.dispatchMouseEvent", event)

    def drag(self, start, end, steps=12, step_delay=0.016):
        (x0, y0), (x1, y1) = start, end
        self.mouse("mouseMoved", x0, y0)
        self.mouse("mousePressed", x0, y0, buttons=1, button="left", click_count=1)
        for i in range(1, steps + 1):
            self.mouse("mouseMoved", x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps, buttons=1, button="left")
            time.sleep(step_delay)
        self.mouse("mouseReleased", x1, y1, button="left", click_count=1)

    def wheel(self, x, y, delta_y, ctrl=False):
        self.driver.execute_cdp_cmd("Input.dispatchMouseEvent", {
            "type": "mouseWheel", "x": x, "y": y, "deltaX": 0, "deltaY": delta_y, "modifiers": 2 if ctrl else 0})

    def touch(self, kind, points):
        self.driver.execute_cdp_cmd("Input.dispatchTouchEvent", {
            "type": kind, "touchPoints": [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)]})

    def tap(self, x, y):
        self.touch("touchStart", [(x, y)])
        self.touch("touchEnd", [])

    def key(self, key):
        from selenium.webdriver.common.action_chains import ActionChains
        ActionChains(self.driver).send_keys(key).perform()

    def open_overflow(self):
        self.element("overflow-button").click()
        self.wait_for(lambda: self.js("return !!document.getElementById('overflow-menu')"), "overflow menu did not open")
        return self.element("overflow-menu")
