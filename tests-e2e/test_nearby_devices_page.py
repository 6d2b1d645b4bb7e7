"""The /devices page in Chromium: the app's services on the left, a remote asking to pair with
the same code the remote shows, approving it in the page, the paired device and revoking it;
and the page in Japanese. Screenshots go to artifacts/e2e."""
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import ARTIFACTS, marquee_binary
from nearby_support import RemoteProcess


def row(driver, list_id, name):
    """The row for `name` in a list, found afresh (the page redraws its lists as the server changes)."""
    return next((e for e in driver.find_elements(By.CSS_SELECTOR, f"#{list_id} .device") if name in e.text), None)


def text_in_row(driver, list_id, name, selector=None):
    found = row(driver, list_id, name)
    if found is None:
        return ""
    return found.find_element(By.CSS_SELECTOR, selector).text if selector else found.text


def click_in_row(driver, list_id, name, selector):
    found = row(driver, list_id, name)
    if found is None:
        return False
    found.find_element(By.CSS_SELECTOR, selector).click()
    return True


def test_approve_a_remote_on_the_devices_page_then_revoke_it(server, driver, tmp_path):
    _, overview = server.api("GET", "/api/devices")
    driver.get(server.url + "/devices")
    wait = WebDriverWait(driver, 15, ignored_exceptions=[StaleElementReferenceException])
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#services li")) == 2)
    assert "Use this device as a remote" in driver.find_element(By.ID, "services").text
    assert driver.find_element(By.ID, "no-pending").is_displayed()

    remote = RemoteProcess([marquee_binary(), "remote", "--connect", f"127.0.0.1:{overview['port']}",
                            "--config", str(tmp_path / "remote"), "--name", "Kitchen phone"])
    code = remote.expect(r"both screens show (\d{3} \d{3})").group(1)
    # The page shows the same code as the remote.
    wait.until(lambda d: text_in_row(d, "pending", "Kitchen phone", ".pairing-code") == code)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / "devices-page-pairing.png"))
    wait.until(lambda d: click_in_row(d, "pending", "Kitchen phone", "button.approve"))
    remote.say("y")
    remote.expect(r"Paired with")
    wait.until(lambda d: "Remote" in text_in_row(d, "paired", "Kitchen phone"))
    wait.until(lambda d: not d.find_elements(By.CSS_SELECTOR, "#pending .device"))
    driver.save_screenshot(str(ARTIFACTS / "devices-page-paired.png"))

    wait.until(lambda d: click_in_row(d, "paired", "Kitchen phone", "button.revoke"))
    remote.say("play")  # the revoked remote's next message closes its link
    wait.until(lambda d: not [e for e in d.find_elements(By.CSS_SELECTOR, "#paired .device") if "Kitchen phone" in e.text])
    remote.say("quit")
    remote.finish()
    assert not [d for d in server.api("GET", "/api/devices")[1]["paired"] if d["name"] == "Kitchen phone"]


def test_the_devices_page_in_japanese(server, browser):
    driver = browser("ja-JP")
    driver.get(server.url + "/devices")
    WebDriverWait(driver, 15).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#services li")) == 2)
    assert driver.find_element(By.ID, "devices-title").text == "近くのデバイス"
    assert "三目並べ" in driver.find_element(By.ID, "services").text
    assert "テレビと三目並べで遊びます" in driver.find_element(By.ID, "services").text


def test_the_tv_shows_the_tictactoe_board_a_remote_plays_on(server, driver, tmp_path):
    _, overview = server.api("GET", "/api/devices")
    driver.get(server.url + "/devices")
    wait = WebDriverWait(driver, 15, ignored_exceptions=[StaleElementReferenceException])
    remote = RemoteProcess([marquee_binary(), "remote", "--connect", f"127.0.0.1:{overview['port']}", "--game", "tictactoe",
                            "--config", str(tmp_path / "game"), "--name", "Game phone"])
    code = remote.expect(r"both screens show (\d{3}) (\d{3})")
    # The remote prints its code as soon as it has it; the TV lists the pairing a moment later.
    pending = wait.until(lambda _: next((p for p in server.api("GET", "/api/devices")[1]["pending"] if p["name"] == "Game phone"), None))
    assert pending["code"] == code.group(1) + code.group(2)
    server.api("POST", f"/api/devices/pairings/{pending['id']}", {"approved": True})
    remote.say("y")
    remote.expect(r"Pick x or o")
    wait.until(lambda d: "Game phone is choosing" in d.find_element(By.ID, "game-status").text)
    remote.say("x")
    remote.say("1")  # X top left; the TV answers in the centre
    remote.expect(r"your move")
    wait.until(lambda d: [s.text for s in d.find_elements(By.CSS_SELECTOR, "#board .square")][0:5:4] == ["X", "O"])
    for square in ["9", "3", "7", "2", "4", "6", "8"]:
        remote.say(square)
        if remote.expect(r"(You win!|The TV wins\.|Draw\.|your move|Error: square)").group(1) in ("The TV wins.", "Draw.", "You win!"):
            break
    wait.until(lambda d: d.find_element(By.ID, "game-status").text in ("The TV wins.", "Draw."))
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / "devices-page-tictactoe.png"))
    remote.say("quit")
    assert remote.finish() == 0
