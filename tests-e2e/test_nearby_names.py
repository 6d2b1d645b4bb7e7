"""DNS-SD names as mDNS responders handle them (issue 26, items 10 and 11), with real
avahi-daemons in two network namespaces (the fixture of test_nearby_discovery.py): a second
server with a name already in use is advertised as "Name (2)", and a name longer than DNS-SD's
63 bytes is advertised shortened at a character boundary. avahi-browse in the other namespace
(a third-party client) sees both."""
import re
import subprocess
import time

from conftest import marquee_binary
from test_nearby_discovery import two_namespaces, wait_for  # noqa: F401 (a fixture)


def advertised_name(log):
    text = log.read_text()
    match = re.search(r"advertised as “(.*?)”", text)
    assert match, text
    return match.group(1)


def serve(ns, port, nearby_port, name, data):
    log = ns.work / f"serve-{port}.log"
    # Not on loopback (a loopback server is not advertised); nothing here signs in.
    ns.spawn([marquee_binary(), "serve", "--host", "0.0.0.0", "--port", str(port), "--data", str(ns.work / data),
              "--no-samples", "--no-worker", "--nearby-port", str(nearby_port), "--device-name", name], log)
    wait_for(lambda: "advertised as" in log.read_text() or "not advertised" in log.read_text(), f"marquee serve on {port}")
    return log


def browse(ns, wanted, timeout=20):
    """Instance names avahi-browse resolves in `ns`, once `wanted` are all among them."""
    deadline = time.time() + timeout
    names = set()
    while time.time() < deadline:
        out = ns.run("avahi-browse", "-rtp", "_marquee._tcp", timeout=30).stdout
        names = {line.split(";")[3] for line in out.splitlines() if line.startswith("=")}
        decoded = {re.sub(r"\\(\d{3})", lambda m: chr(int(m.group(1))), n) for n in names}
        if wanted <= decoded:
            return decoded
        time.sleep(0.5)
    raise AssertionError(f"avahi-browse found {names}, not all of {wanted}")


def test_a_taken_name_becomes_name_2_and_a_long_name_is_shortened(two_namespaces):  # noqa: F811
    tv, rc = two_namespaces
    first = serve(tv, 18090, 17430, "Living Room", "a")
    second = serve(tv, 18091, 17431, "Living Room", "b")
    assert advertised_name(first) == "Living Room"
    assert advertised_name(second) == "Living Room (2)"

    # 23 characters of Japanese: 69 bytes of UTF-8, over DNS-SD's 63.
    long_name = "リビングルームの大きなテレビジョン受信機ですね"
    assert len(long_name.encode()) > 63
    third = serve(tv, 18092, 17432, long_name, "c")
    shown = advertised_name(third)
    assert len(shown.encode()) <= 63 and long_name.startswith(shown) and len(shown) == 63 // 3

    found = browse(rc, {"Living Room", "Living Room (2)"})
    assert "Living Room" in found and "Living Room (2)" in found
