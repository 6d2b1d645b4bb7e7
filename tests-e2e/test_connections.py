"""Connection limits on a real `marquee serve` (loopback only): a connection with no request
in progress is closed after the idle timeout, also while a request head trickles in; past the
connection cap new connections are closed at once; and the server keeps answering."""
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request

import pytest

from conftest import ARTIFACTS, drain_console, marquee_binary


@pytest.fixture(scope="module")
def limited():
    data = tempfile.mkdtemp(prefix="marquee-connections-")
    process = subprocess.Popen([marquee_binary(), "serve", "--data", data, "--port", "0", "--no-samples",
                                "--idle-timeout", "2", "--max-connections", "20"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    line = process.stdout.readline()
    match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    assert match, line
    drain_console(process, ARTIFACTS / "connections-console.log")
    yield process, int(match.group(1))
    process.terminate()
    process.wait(timeout=10)


def health(port):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=5) as response:
        return response.read()


def closed_within(sock, seconds):
    """True when the server closes the socket (EOF) within `seconds`."""
    sock.settimeout(seconds)
    try:
        return sock.recv(1) == b""
    except (socket.timeout, TimeoutError):
        return False
    except ConnectionResetError:
        return True


def open_sockets(pid):
    return sum(1 for fd in os.listdir(f"/proc/{pid}/fd") if os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:"))


def test_idle_and_trickling_connections_are_closed(limited):
    _, port = limited
    idle = socket.create_connection(("127.0.0.1", port))
    trickle = socket.create_connection(("127.0.0.1", port))
    started = time.monotonic()
    trickle.sendall(b"GET /api/health HTTP/1.1\r\n")
    closed = False
    for header in [b"Host: 127.0.0.1\r\n", b"X-A: 1\r\n", b"X-B: 2\r\n", b"X-C: 3\r\n", b"X-D: 4\r\n", b"X-E: 5\r\n"]:
        try:
            trickle.sendall(header)
        except (BrokenPipeError, ConnectionResetError):
            closed = True
            break
        if closed_within(trickle, 0.7):
            closed = True
            break
    assert closed, "a request head sent a line at a time was never cut off"
    assert time.monotonic() - started < 5
    assert closed_within(idle, 4), "an idle connection stayed open past the idle timeout"
    assert health(port) == b"ok"


def test_keep_alive_connection_serves_then_closes_when_idle(limited):
    _, port = limited
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    sock.settimeout(5)
    # The whole answer first (its head and body may come in separate segments), then the close.
    answer = b""
    while b"\r\n\r\n" not in answer or not answer.endswith(b"ok"):
        chunk = sock.recv(4096)
        assert chunk, f"closed before the whole answer: {answer!r}"
        answer += chunk
    assert b"200" in answer.split(b"\r\n")[0]
    assert closed_within(sock, 4)


def test_connections_past_the_cap_are_closed_and_the_server_recovers(limited):
    process, port = limited
    held = [socket.create_connection(("127.0.0.1", port)) for _ in range(20)]
    time.sleep(0.3)
    extra = [socket.create_connection(("127.0.0.1", port)) for _ in range(30)]
    assert all(closed_within(s, 2) for s in extra), "connections past the cap were kept"
    assert open_sockets(process.pid) <= 20 + 5  # the listener and a few of the server's own
    for s in extra:
        s.close()
    # The held ones time out as idle; then the server answers again.
    assert all(closed_within(s, 4) for s in held)
    for s in held:
        s.close()
    time.sleep(0.3)
    assert health(port) == b"ok"


def test_one_address_cannot_take_every_connection():
    """Issue 24: past its share (--max-connections-per-address) one client's new connections
    are closed, while another client address is still served."""
    data = tempfile.mkdtemp(prefix="marquee-per-address-")
    process = subprocess.Popen([marquee_binary(), "serve", "--data", data, "--port", "0", "--no-samples",
                                "--idle-timeout", "30", "--max-connections", "20", "--max-connections-per-address", "4"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        line = process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert match, line
        drain_console(process, ARTIFACTS / "connections-per-address-console.log")
        port = int(match.group(1))
        held = [socket.create_connection(("127.0.0.1", port)) for _ in range(4)]
        # Wait until the server holds all four (a fifth sent now must meet a full share).
        deadline = time.time() + 10
        while open_sockets(process.pid) < 4 + 1 and time.time() < deadline:
            time.sleep(0.05)
        extra = [socket.create_connection(("127.0.0.1", port)) for _ in range(6)]
        assert all(closed_within(s, 5) for s in extra), "connections past one address's share were kept"
        # Another address on the loopback network is served at once.
        other = socket.create_connection(("127.0.0.1", port), source_address=("127.0.0.2", 0))
        other.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        other.settimeout(10)
        answer = b""
        while chunk := other.recv(4096):
            answer += chunk
        assert answer.startswith(b"HTTP/1.1 200") and answer.endswith(b"ok"), answer
        # The held ones are still open (not idle long enough), and each still works.
        held[0].sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        held[0].settimeout(10)
        assert held[0].recv(4096).startswith(b"HTTP/1.1 200")
        for s in held + extra + [other]:
            s.close()
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_a_body_refused_early_still_gets_its_answer_when_the_client_asked_to_close(limited):
    """A client that asks to close (`Connection: close`, as Python's urllib always does) and
    sends a large body the server refuses before reading it (an unknown upload: 404) gets the
    answer, not a reset in the middle of sending (`Broken pipe`): the server reads on and
    throws the rest away, as nginx's lingering close does."""
    _, port = limited
    body = os.urandom(16 << 20)
    sock = socket.create_connection(("127.0.0.1", port), timeout=20)
    try:
        sock.sendall((f"PUT /api/uploads/no-such-upload HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n"
                      f"Content-Type: application/octet-stream\r\nContent-Range: bytes 0-{len(body) - 1}/*\r\n"
                      f"Content-Length: {len(body)}\r\n\r\n").encode())
        time.sleep(0.3)  # the answer is ready before most of the body has left
        for start in range(0, len(body), 1 << 16):
            sock.sendall(body[start:start + (1 << 16)])
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    finally:
        sock.close()
    head, _, text = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 404"), answer[:300]
    assert b"upload" in text.lower(), text
    assert health(port)


def test_a_stopping_server_does_not_wait_for_connections_that_never_sent_a_request():
    """SIGTERM with a socket open that sent nothing (a browser's preconnect) and one halfway
    through a request head: both are closed at once and the server exits, instead of holding
    its exit for the idle timeout (60 s here; it was 30 s by default, and a test's 10 s wait for
    a server with a browser still open ran out). A keep-alive connection between requests and
    one with a request in progress are the other cases, already quick."""
    data = tempfile.mkdtemp(prefix="marquee-stopping-")
    process = subprocess.Popen([marquee_binary(), "serve", "--data", data, "--port", "0", "--no-samples", "--idle-timeout", "60"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", process.stdout.readline())
        assert match
        drain_console(process, ARTIFACTS / "stopping-console.log")
        port = int(match.group(1))
        silent = socket.create_connection(("127.0.0.1", port))
        half = socket.create_connection(("127.0.0.1", port))
        half.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        between = socket.create_connection(("127.0.0.1", port))
        between.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        between.settimeout(5)
        assert b"200" in between.recv(4096).split(b"\r\n")[0]
        time.sleep(0.3)
        started = time.monotonic()
        process.terminate()
        process.wait(timeout=25)
        took = time.monotonic() - started
        print(f"stopped {took:.2f} s after SIGTERM with three open connections")
        # Loose: a loaded machine may take seconds; waiting out the idle timeout takes 60.
        assert took < 20, took
        assert closed_within(silent, 1) and closed_within(half, 1)
    finally:
        if process.poll() is None:
            process.kill()
        shutil.rmtree(data, ignore_errors=True)
