"""Live Text in the player: pause on the Code Walkthrough's code, wait, and the frame's text can
be selected and copied; Ctrl+A selects it all; nothing is analysed while playing or
scrubbing, nor with allowsVideoFrameAnalysis=false; and a library search for a word that only
appears inside the frames finds the clip and opens it there, paused."""
import time

from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By

from conftest import ARTIFACTS
from player_page import PlayerPage

CODE = "Code Walkthrough"
LINE = "session.handle(.selectSpeed(rate: 1.5))"
SNIPPET = [
    "import Playback",
    'var session = PlaybackSession(id: "demo")',
    "session.handle(.selectSpeed(rate: 1.5))",
    "let commands = session.handle(.play)",
    "// commands == [.play(rate: 1.5)]",
]


COUNT_REQUESTS = """
    performance.setResourceTimingBufferSize(100000);
    window.__frameTextRequests = 0;
    const originalFetch = window.fetch;
    window.fetch = function (input, init) {
      if (String(typeof input === 'string' ? input : input?.url).includes('/frame-text')) window.__frameTextRequests += 1;
      return originalFetch.apply(this, arguments);
    };
"""


def open_player(driver, server, query=""):
    """The player, with every frame-text request the page makes counted from before its scripts run."""
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": COUNT_REQUESTS})
    return PlayerPage(driver, server, CODE, query)


def frame_text_requests(page):
    """How many frame-text requests the page has sent: its fetch calls, and the browser's own
    resource log (whichever saw more)."""
    return page.js("return Math.max(window.__frameTextRequests ?? 0, "
                   "performance.getEntriesByType('resource').filter((e) => e.name.includes('/frame-text')).length)")


def wait_for_live_text(page, timeout=30):
    page.wait_for(lambda: page.js("return document.getElementById('player').dataset.liveText === 'true'"),
                  "no Live Text appeared on the paused frame", timeout)


def key_with_modifier(page, key, code, virtual_key):
    """Ctrl+<key> through the browser's input pipeline (CDP), as a person presses it."""
    for kind in ("rawKeyDown", "keyUp"):
        page.driver.execute_cdp_cmd("Input.dispatchKeyEvent", {
            "type": kind, "modifiers": 2, "key": key, "code": code, "windowsVirtualKeyCode": virtual_key,
            "commands": ["selectAll"] if key == "a" and kind == "rawKeyDown" else
            (["copy"] if key == "c" and kind == "rawKeyDown" else [])})


def word_rects(page, line_text):
    """The on-screen boxes of the words of the Live Text line reading `line_text`."""
    return page.js("""
        const lines = [...document.querySelectorAll('.live-text-line')];
        const line = lines.find((l) => l.textContent.trim() === arguments[0]);
        if (!line) return null;
        return [...line.children].map((s) => { const r = s.getBoundingClientRect();
          return {x: r.left, y: r.top, w: r.width, h: r.height}; });
    """, line_text)


def test_pause_on_code_then_select_a_line_copy_it_and_select_all(server, driver):
    page = open_player(driver, server)
    page.wait_for(lambda: page.current_time > 1.0 and not page.video("paused"), "the clip did not play")
    assert frame_text_requests(page) == 0, "a frame was analysed while playing"
    page.key("k")
    page.wait_for(lambda: page.video("paused"), "k did not pause")
    wait_for_live_text(page)
    paused_at = page.current_time
    assert frame_text_requests(page) == 1
    lines = page.js("return [...document.querySelectorAll('.live-text-line')].map((l) => l.textContent.trim())")
    for line in SNIPPET:
        assert line in lines, f"{line!r} not in {lines!r}"
    assert page.js("return document.querySelector('.live-text-layer').getAttribute('role')") == "region"
    assert page.element("player").find_element(By.CSS_SELECTOR, ".live-text-button").is_displayed()

    # The words lie over the drawn code: the line starts near x = 80 of the 1280-wide frame.
    words = word_rects(page, LINE)
    assert words, "the line is not in the layer"
    video = page.rect("video")
    scale = min(video["w"] / 1280, video["h"] / 720)
    left = video["x"] + (video["w"] - 1280 * scale) / 2
    assert abs(words[0]["x"] - (left + 80 * scale)) < 8 * scale + 2, (words[0], video)

    # The I-beam over text.
    first, last = words[0], words[-1]
    assert page.js("return getComputedStyle(document.querySelector('.live-text-line')).cursor") == "text"

    # Drag across the line: it is selected, playback is not toggled and nothing is scrubbed.
    y = first["y"] + first["h"] / 2
    page.drag((first["x"] + 1, y), (last["x"] + last["w"] - 1, y), steps=20)
    selected = page.js("return window.marquee.liveText.selectedText()")
    assert selected == LINE, selected
    assert page.js("return getSelection().toString()").strip() == LINE
    assert page.video("paused")
    assert abs(page.current_time - paused_at) < 0.01

    # Copy: Ctrl+C puts the line on the clipboard.
    driver.execute_cdp_cmd("Browser.grantPermissions", {
        "origin": server.url, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
    key_with_modifier(page, "c", "KeyC", 67)
    clipboard = driver.execute_async_script(
        "const done = arguments[0]; navigator.clipboard.readText().then(done, (e) => done('ERROR ' + e.message));")
    assert clipboard == LINE, clipboard

    # Double-click a word selects that word.
    word = words[0]
    x, yy = word["x"] + word["w"] / 2, word["y"] + word["h"] / 2
    page.mouse("mousePressed", x, yy, buttons=1, button="left", click_count=1)
    page.mouse("mouseReleased", x, yy, button="left", click_count=1)
    page.mouse("mousePressed", x, yy, buttons=1, button="left", click_count=2)
    page.mouse("mouseReleased", x, yy, button="left", click_count=2)
    assert page.js("return window.marquee.liveText.selectedText()") == "session.handle(.selectSpeed(rate:"
    assert page.video("paused")

    # Ctrl+A selects all of the frame's text.
    key_with_modifier(page, "a", "KeyA", 65)
    everything = page.js("return window.marquee.liveText.selectedText()")
    assert everything.split("\n")[:5] == SNIPPET, everything
    assert page.video("paused")

    # The Live Text button highlights the text regions.
    page.element("player").find_element(By.CSS_SELECTOR, ".live-text-button").click()
    assert page.js("return document.querySelector('.live-text-layer').classList.contains('highlighted')")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / "live-text-highlighted.png"))

    # Playing again clears the layer.
    page.key("k")
    page.wait_for(lambda: page.js("return document.getElementById('player').dataset.liveText !== 'true'"),
                  "playing did not clear Live Text")
    assert page.js("return document.querySelector('.live-text-layer').hidden")


def test_the_layer_follows_the_picture_in_fill_and_full_screen(server, browser):
    driver = browser(width=900, height=900)
    page = PlayerPage(driver, server, CODE, "?autoplay=0&t=2")
    wait_for_live_text(page)
    video = page.rect("video")
    fit = word_rects(page, LINE)[0]
    scale = min(video["w"] / 1280, video["h"] / 720)
    assert abs(fit["x"] - (video["x"] + (video["w"] - 1280 * scale) / 2 + 80 * scale)) < 8
    page.js("document.getElementById('player').dataset.gravity = 'fill'")
    page.wait_for(lambda: abs(word_rects(page, LINE)[0]["x"] - fit["x"]) > 20, "the layer did not follow fill")
    filled = word_rects(page, LINE)[0]
    scale = max(video["w"] / 1280, video["h"] / 720)
    expected = video["x"] + (video["w"] - 1280 * scale) / 2 + 80 * scale
    assert abs(filled["x"] - expected) < 8, (filled, expected)
    assert filled["h"] > fit["h"] * 1.3


def test_no_analysis_while_scrubbing_or_playing(server, driver):
    page = open_player(driver, server, "?autoplay=0&t=1")
    wait_for_live_text(page)
    before = frame_text_requests(page)
    # Hold a scrub on the timeline well past the delay: nothing is analysed meanwhile.
    bar = page.rect("timeline")
    y = bar["y"] + bar["h"] / 2
    page.mouse("mouseMoved", bar["x"] + bar["w"] * 0.1, y)
    page.mouse("mousePressed", bar["x"] + bar["w"] * 0.1, y, buttons=1, button="left", click_count=1)
    for step in range(1, 6):
        page.mouse("mouseMoved", bar["x"] + bar["w"] * (0.1 + step * 0.03), y, buttons=1, button="left")
        time.sleep(0.05)
    page.wait_for(lambda: page.js("return document.getElementById('player').dataset.liveText !== 'true'"),
                  "scrubbing did not clear Live Text")
    time.sleep(1.5)
    assert frame_text_requests(page) == before, "a frame was analysed while scrubbing"
    page.mouse("mouseReleased", bar["x"] + bar["w"] * 0.25, y, button="left", click_count=1)
    # Play for a while: still nothing.
    page.key("k")
    page.wait_for(lambda: not page.video("paused"), "did not play")
    time.sleep(2)
    assert frame_text_requests(page) <= before + 1  # at most the frame the scrub ended on, if it was still
    during_play = frame_text_requests(page)
    time.sleep(1)
    assert frame_text_requests(page) == during_play


def test_allows_video_frame_analysis_false_makes_no_request(server, driver):
    page = open_player(driver, server, "?autoplay=0&t=2&allowsVideoFrameAnalysis=false")
    assert page.js("return window.marquee.session.allowsVideoFrameAnalysis") is False
    time.sleep(2.5)
    assert page.video("paused")
    assert frame_text_requests(page) == 0
    assert page.js("return document.querySelector('.live-text-button').hidden")


def test_library_search_finds_text_inside_frames_and_opens_the_moment(server, driver):
    # "selectSpeed" is only drawn in the frames, never in a title or description.
    deadline = time.time() + 120
    while time.time() < deadline:
        status, body = server.api("GET", "/api/search?q=selectSpeed")
        assert status == 200, body
        if body["frames"]:
            break
        time.sleep(1)
    assert body["frames"], "the Code Walkthrough was never indexed"
    assert not body["assets"]
    driver.get(server.url + "/")
    search = driver.find_element(By.ID, "search")
    search.send_keys("selectSpeed")
    page = PlayerPage.__new__(PlayerPage)
    page.driver = driver
    page.wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, "#frame-hits a.frame-hit"), "no frame hit shown")
    hit = driver.find_element(By.CSS_SELECTOR, "#frame-hits a.frame-hit")
    assert CODE in hit.text and "selectSpeed" in hit.text
    expected_time = float(hit.get_attribute("data-time"))
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / "live-text-search.png"))
    hit.click()
    page.wait_for(lambda: "/watch/" in driver.current_url, "the hit did not open the player")
    page.wait_for(lambda: page.js("return document.getElementById('video').readyState >= 2"), "the player did not load")
    wait_for_live_text(page)
    assert page.video("paused")
    assert abs(page.current_time - expected_time) < 0.1
    assert LINE in page.js("return window.marquee.liveText.result.text")


def test_long_press_on_touch_selects_a_word_without_scrubbing(server, driver):
    page = PlayerPage(driver, server, CODE, "?autoplay=0&t=2")
    wait_for_live_text(page)
    paused_at = page.current_time
    word = word_rects(page, 'var session = PlaybackSession(id: "demo")')[1]
    x, y = word["x"] + word["w"] / 2, word["y"] + word["h"] / 2
    page.touch("touchStart", [(x, y)])
    time.sleep(0.8)
    page.touch("touchEnd", [])
    page.wait_for(lambda: page.js("return window.marquee.liveText.selectedText()") == "session",
                  "a long press did not select the word")
    assert page.video("paused")
    assert abs(page.current_time - paused_at) < 0.01
    assert page.js("return document.getElementById('player').classList.contains('scrubbing')") is False


PRESSABLE = """
    // Each word's centre, and what a press there reaches: the word itself, or what covers it.
    return [...document.querySelectorAll('.live-text-word')].map((span) => {
      const r = span.getBoundingClientRect();
      const x = r.left + r.width / 2, y = r.top + r.height / 2;
      const hit = document.elementFromPoint(x, y);
      return {text: span.textContent.trim(), x, y, pressable: hit?.closest('.live-text-word') === span,
              cover: hit ? (hit.id || hit.className?.baseVal || hit.className || hit.tagName) : null};
    });
"""


def press_every_word(page, touch):
    """Every word of the paused frame is what a press at its centre reaches, and pressing it
    (a double-click, or a long press on touch) selects exactly that word."""
    wait_for_live_text(page)
    # Turn Live Text on, as a person does before selecting: its button, pressed or tapped.
    button = page.js("const r = document.querySelector('.live-text-button').getBoundingClientRect();"
                     "return {x: r.left + r.width / 2, y: r.top + r.height / 2};")
    if touch:
        page.tap(button["x"], button["y"])
    else:
        page.driver.find_element(By.CSS_SELECTOR, ".live-text-button").click()
    page.wait_for(lambda: page.js("return document.querySelector('.live-text-button').getAttribute('aria-pressed')") == "true",
                  "the Live Text button did not turn on")
    # Wait until the layer has settled (the centre controls step aside with a short transition).
    try:
        page.wait_for(lambda: all(w["pressable"] for w in page.js(PRESSABLE)), "words stay covered", 10)
    except TimeoutException:
        raise AssertionError(f"words covered: {[w for w in page.js(PRESSABLE) if not w['pressable']]}") from None
    words = page.js(PRESSABLE)
    assert len(words) >= len(" ".join(SNIPPET).split()) - 2, [w["text"] for w in words]
    for word in words:
        if touch:
            page.touch("touchStart", [(word["x"], word["y"])])
            time.sleep(0.8)
            page.touch("touchEnd", [])
        else:
            page.driver.execute_cdp_cmd("Input.dispatchMouseEvent", {
                "type": "mousePressed", "x": word["x"], "y": word["y"], "button": "left", "clickCount": 1})
            page.driver.execute_cdp_cmd("Input.dispatchMouseEvent", {
                "type": "mouseReleased", "x": word["x"], "y": word["y"], "button": "left", "clickCount": 1})
            page.driver.execute_cdp_cmd("Input.dispatchMouseEvent", {
                "type": "mousePressed", "x": word["x"], "y": word["y"], "button": "left", "clickCount": 2})
            page.driver.execute_cdp_cmd("Input.dispatchMouseEvent", {
                "type": "mouseReleased", "x": word["x"], "y": word["y"], "button": "left", "clickCount": 2})
        selected = "return (window.marquee.liveText.selectedText() || '').trim()"
        try:
            page.wait_for(lambda: page.js(selected) == word["text"], "the word was not selected")
        except TimeoutException:
            raise AssertionError(f"pressing {word['text']!r} selected {page.js(selected)!r}") from None
        assert page.video("paused"), f"pressing {word['text']!r} started playback"


def test_every_word_of_a_paused_frame_can_be_pressed_on_desktop(server, driver):
    page = PlayerPage(driver, server, CODE, "?autoplay=0&t=2")
    press_every_word(page, touch=False)


def test_every_word_of_a_paused_frame_can_be_pressed_on_a_phone(server, browser):
    phone = browser(width=390, height=844)
    phone.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True, "screenOrientation": {"type": "portraitPrimary", "angle": 0}})
    phone.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    page = PlayerPage(phone, server, CODE, "?autoplay=0&t=2")
    press_every_word(page, touch=True)
