"""First run of a server that needs sign-in, started with `--no-samples` (issue 29, item 11):
the setup form says "User name" and the rule for one before anything is typed, and flags a
name it will refuse as it is typed; a person who leaves the page right after submitting is
signed in all the same (the request outlives the page); and the empty library says how to
add media instead of promising sample clips that will never come."""
import re
import shutil
import subprocess
import tempfile

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import ARTIFACTS, drain_console, marquee_binary

RULE_EN = "Letters A–Z and a–z, digits 0–9, “.”, “_”, “-” and “@”; 1 to 64 of them, no spaces."


@pytest.fixture
def first_run():
    data = tempfile.mkdtemp(prefix="marquee-first-run-")
    process = subprocess.Popen([marquee_binary(), "serve", "--data", data, "--host", "0.0.0.0", "--port", "0", "--no-samples"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    port = code = None
    while not code:
        line = process.stdout.readline()
        assert line, "the server ended before printing its setup code"
        if m := re.search(r"ready at http://[^:/]+:(\d+)/", line):
            port = m.group(1)
        if m := re.search(r"setup code ([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})", line):
            code = m.group(1)
    drain_console(process, ARTIFACTS / "first-run-console.log")
    yield f"http://127.0.0.1:{port}", code
    process.terminate()
    process.wait(timeout=10)
    shutil.rmtree(data, ignore_errors=True)


def wait(driver, condition, message, timeout=15):
    return WebDriverWait(driver, timeout, poll_frequency=0.1).until(lambda d: condition(d), message)


def session(driver):
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch('/api/auth/session', {cache: 'no-store'}).then((r) => r.json()).then(done, (e) => done(String(e)));")


def test_setup_says_the_user_name_rule_first_and_an_empty_library_says_how_to_add_media(first_run, browser):
    url, code = first_run
    driver = browser()
    driver.get(url + "/")
    wait(driver, lambda d: "/signin" in d.current_url and d.find_element(By.ID, "code-field").is_displayed(), "no setup form")
    # Before anything is typed: "User name", and the rule, tied to the field for screen readers.
    assert driver.find_element(By.ID, "name-label").text == "User name"
    hint = driver.find_element(By.ID, "name-hint")
    assert hint.is_displayed() and hint.text == RULE_EN
    assert "name-hint" in driver.find_element(By.ID, "name").get_attribute("aria-describedby")
    # A name the server would refuse is flagged as it is typed, before any submit.
    name = driver.find_element(By.ID, "name")
    name.send_keys("Owner Name")
    wait(driver, lambda d: d.find_element(By.ID, "name").get_attribute("aria-invalid") == "true", "the name was not flagged")
    assert hint.text.startswith("“Owner Name” can’t be a user name."), hint.text
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / "first-run-name-rule.png"))
    name.clear()
    name.send_keys("owner.name")
    wait(driver, lambda d: d.find_element(By.ID, "name").get_attribute("aria-invalid") == "false", "a good name stayed flagged")
    assert hint.text == RULE_EN

    driver.find_element(By.ID, "setup-code").send_keys(code)
    driver.find_element(By.ID, "password").send_keys("a long password")
    driver.find_element(By.ID, "confirm").send_keys("a long password")
    driver.find_element(By.ID, "submit").click()
    wait(driver, lambda d: (s := session(d)) and isinstance(s, dict) and s.get("signedIn"), "not signed in after setup")
    assert session(driver)["account"]["name"] == "owner.name"

    # An empty library on a server without samples says how to add media.
    driver.get(url + "/")
    status = wait(driver, lambda d: d.find_element(By.ID, "library-status").text, "no status line")
    assert status == "The library is empty. Choose “Add” to add video or audio files, or drop them onto this page.", status
    driver.save_screenshot(str(ARTIFACTS / "first-run-empty-library.png"))


def test_the_setup_form_in_japanese(first_run, browser):
    url, _ = first_run
    driver = browser("ja-JP")
    driver.get(url + "/signin")
    wait(driver, lambda d: d.find_element(By.ID, "code-field").is_displayed(), "no setup form")
    assert driver.find_element(By.ID, "name-label").text == "ユーザー名"
    assert driver.find_element(By.ID, "name-hint").text.startswith("半角英字")
    driver.find_element(By.ID, "name").send_keys("オーナー")
    wait(driver, lambda d: d.find_element(By.ID, "name").get_attribute("aria-invalid") == "true", "the name was not flagged")
    assert driver.find_element(By.ID, "name-hint").text.startswith("「オーナー」はユーザー名に使えません。")


def test_leaving_the_setup_page_at_once_still_signs_that_browser_in(first_run):
    """Firefox drops a page's requests when it navigates away: a person who clicked away just
    after "Create the owner account" got an owner made and no session, or no owner at all.
    The setup request outlives the page (`keepalive`), so its session cookie lands."""
    from firefox_bidi import Firefox
    url, code = first_run
    firefox = Firefox.launch(width=1280, height=720)
    try:
        tab = firefox.tab()
        tab.navigate(url + "/signin")
        tab.wait_for("!document.getElementById('form').hidden && !document.getElementById('code-field').hidden", "no setup form")
        tab.evaluate(f"""(() => {{
            const fill = (id, value) => {{ document.getElementById(id).value = value; }};
            fill('setup-code', {code!r}); fill('name', 'owner'); fill('password', 'a long password'); fill('confirm', 'a long password');
            document.getElementById('form').requestSubmit();
            location.href = '/activities';  // leaves in the same moment
        }})()""", await_promise=False)
        tab.wait_for("location.pathname === '/activities' || location.pathname === '/signin'", "did not leave")
        state = "fetch('/api/auth/session', {cache: 'no-store'}).then((r) => r.json())"
        tab.wait_for(f"{state}.then((s) => !s.needsOwner)", "the owner was never made", timeout=30)
        tab.wait_for(f"{state}.then((s) => s.signedIn)", "the owner was made but this browser is signed out", timeout=10)
        assert tab.evaluate(f"{state}.then((s) => s.account.name)") == "owner"
    finally:
        firefox.quit()
