"""`marquee remote --together` end to end: a terminal joins a group by its link and controls it.

The command's output is read by a thread into a queue, so a line that never comes fails the test
after its timeout (with everything the command said) instead of blocking on `readline`."""
import queue
import subprocess
import threading
import time

from selenium.webdriver.support.ui import WebDriverWait

from test_watch_together import long_clip  # noqa: F401  (the module-scoped clip fixture)


def test_marquee_remote_joins_a_group_by_its_link_and_controls_it(server, browser, long_clip):
    """`marquee remote --together LINK`: the terminal joins the group by the link, says who is
    watching, and its pause and speed apply to the people watching in browsers."""
    from conftest import marquee_binary
    host = browser()
    host.get(f"{server.url}/watch/{long_clip['id']}?t=20")
    WebDriverWait(host, 30).until(lambda d: d.execute_script(
        "return window.marquee?.session?.status === 'playing' && document.getElementById('video').currentTime > 20.5"))
    host.execute_script("document.getElementById('together-button').click()")
    link = WebDriverWait(host, 10).until(lambda d: d.execute_script("return document.getElementById('together-link')?.value"))

    bad = subprocess.run([marquee_binary(), "remote", "--together", server.url + "/watch/x"], capture_output=True, text=True, timeout=30)
    assert bad.returncode != 0 and "/together/TOKEN" in bad.stderr, (bad.returncode, bad.stderr)

    remote = subprocess.Popen([marquee_binary(), "remote", "--together", link, "--name", "Dee's terminal"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
    lines = []
    said = queue.Queue()

    def pump():
        for line in remote.stdout:
            said.put(line.rstrip())
        said.put(None)

    threading.Thread(target=pump, daemon=True).start()

    def read_until(needle, timeout=20):
        deadline = time.time() + timeout
        while (left := deadline - time.time()) > 0:
            try:
                line = said.get(timeout=left)
            except queue.Empty:
                break
            if line is None:
                break
            lines.append(line)
            if needle in line:
                return line
        raise AssertionError(f"no line with {needle!r} within {timeout} s: {lines}")

    try:
        read_until("Joined the group as “Dee's terminal”")
        assert "Watching together" in read_until("Watching together"), lines
        remote.stdin.write("pause\n")
        read_until("OK:")
        WebDriverWait(host, 10).until(lambda d: d.execute_script("return window.marquee.session.status === 'paused' && document.getElementById('video').paused"))
        remote.stdin.write("speed 1.5\n")
        read_until("1.5×")
        WebDriverWait(host, 10).until(lambda d: d.execute_script("return window.marquee.session.selectedSpeed?.rate") == 1.5)
        remote.stdin.write("seek 1:30\n")
        read_until("1:30")
        WebDriverWait(host, 10).until(lambda d: abs(d.execute_script("return document.getElementById('video').currentTime") - 90) < 0.5)
        remote.stdin.write("volume abc\n")
        read_until("volume needs a level")
        remote.stdin.write("quit\n")
        assert remote.wait(timeout=10) == 0, lines
        # The terminal renders nothing: the browsers never wait for it.
        assert not host.execute_script("return window.marquee.groupSync.group.waitingFor.length"), lines
    finally:
        if remote.poll() is None:
            remote.kill()
        print("\n".join(lines))
