"""Discovery with real Avahi daemons, without touching the machine's network: two network
namespaces joined by a veth pair, each with its own D-Bus system bus and its own avahi-daemon
restricted to its end of the veth (IPv4 only, no reflector, no wide-area). In one, `marquee
serve` advertises `_marquee._tcp`; in the other, `marquee remote` browses, finds it, pairs
(the code is checked against the TV's pending pairing and approved on both sides) and is
recognised on its next connection.

Needs root, iproute2 with `ip netns`, avahi-daemon and dbus-daemon (scripts/setup.sh --test
installs them without starting avahi in the root namespace); otherwise the test is skipped
and says why. `.ci/run` runs as root, so CI runs it."""
import os
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from conftest import marquee_binary
from nearby_support import RemoteProcess


def missing_requirement():
    if os.geteuid() != 0:
        return "needs root to create network namespaces (run as root, as .ci/run does)"
    for tool in ["ip", "avahi-daemon", "dbus-daemon", "unshare", "curl"]:
        if not shutil.which(tool) and not Path("/usr/sbin", tool).exists():
            return f"{tool} is not installed (scripts/setup.sh --test installs it)"
    probe = f"mqprobe{os.getpid() % 100000}"
    created = subprocess.run(["ip", "netns", "add", probe], capture_output=True, text=True)
    if created.returncode != 0:
        return f"cannot create a network namespace here: {created.stderr.strip()}"
    subprocess.run(["ip", "netns", "del", probe], capture_output=True)
    return None


BUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path={socket}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_destination="*"/>
    <allow receive_sender="*"/>
  </policy>
</busconfig>
"""

# Only the namespace's end of the veth, IPv4 only: nothing else can carry multicast.
AVAHI_CONFIG = """[server]
host-name={host}
domain-name=local
use-ipv4=yes
use-ipv6=no
allow-interfaces={interface}
enable-dbus=yes
disallow-other-stacks=no
[wide-area]
enable-wide-area=no
[publish]
publish-hinfo=no
publish-workstation=no
[reflector]
enable-reflector=no
"""


class Namespace:
    """One network namespace with its own D-Bus system bus and avahi-daemon."""

    def __init__(self, name, interface, address, work):
        self.name, self.interface, self.address = name, interface, address
        self.work = work
        self.bus = work / f"{name}.bus"
        self.processes = []

    @property
    def env(self):
        return {**os.environ, "DBUS_SYSTEM_BUS_ADDRESS": f"unix:path={self.bus}", "AVAHI_COMPAT_NOWARN": "1"}

    def run(self, *argv, **kwargs):
        return subprocess.run(["ip", "netns", "exec", self.name, *argv], capture_output=True, text=True, env=self.env, **kwargs)

    def spawn(self, argv, log):
        process = subprocess.Popen(["ip", "netns", "exec", self.name, *argv], stdout=open(log, "w"), stderr=subprocess.STDOUT,
                                   env=self.env)
        self.processes.append(process)
        return process

    def start_daemons(self):
        (self.work / f"{self.name}-bus.conf").write_text(BUS_CONFIG.format(socket=self.bus))
        avahi_config = self.work / f"{self.name}-avahi.conf"
        avahi_config.write_text(AVAHI_CONFIG.format(host=self.name, interface=self.interface))
        self.spawn(["dbus-daemon", f"--config-file={self.work / f'{self.name}-bus.conf'}", "--nofork", "--nopidfile"],
                   self.work / f"{self.name}-dbus.log")
        wait_for(lambda: self.bus.exists(), "D-Bus socket")
        # A private /run/avahi-daemon (pid file, socket) so two daemons can run on one machine.
        Path("/run/avahi-daemon").mkdir(exist_ok=True)
        self.avahi_log = self.work / f"{self.name}-avahi.log"
        self.spawn(["unshare", "-m", "sh", "-c",
                    f"mount -t tmpfs tmpfs /run/avahi-daemon && exec avahi-daemon -f {avahi_config} --no-drop-root --no-chroot --no-rlimits"],
                   self.avahi_log)
        wait_for(lambda: "Server startup complete" in self.avahi_log.read_text(), f"avahi-daemon in {self.name}")

    def stop(self):
        for process in reversed(self.processes):
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    process.kill()


def wait_for(condition, what, timeout=15):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture
def two_namespaces():
    reason = missing_requirement()
    if reason:
        pytest.skip(reason)
    tag = os.getpid() % 100000
    work = Path(tempfile.mkdtemp(prefix="marquee-netns-"))
    tv = Namespace(f"mq{tag}tv", f"mq{tag}t", "10.231.77.1", work)
    rc = Namespace(f"mq{tag}rc", f"mq{tag}r", "10.231.77.2", work)
    steps = [
        ["ip", "netns", "add", tv.name], ["ip", "netns", "add", rc.name],
        ["ip", "link", "add", tv.interface, "type", "veth", "peer", "name", rc.interface],
        ["ip", "link", "set", tv.interface, "netns", tv.name], ["ip", "link", "set", rc.interface, "netns", rc.name],
    ]
    for ns in (tv, rc):
        steps += [["ip", "-n", ns.name, "addr", "add", f"{ns.address}/24", "dev", ns.interface],
                  ["ip", "-n", ns.name, "link", "set", ns.interface, "up"], ["ip", "-n", ns.name, "link", "set", "lo", "up"]]
    try:
        for step in steps:
            subprocess.run(step, check=True, capture_output=True)
        tv.start_daemons()
        rc.start_daemons()
        yield tv, rc
    finally:
        tv.stop()
        rc.stop()
        for ns in (tv, rc):
            subprocess.run(["ip", "netns", "del", ns.name], capture_output=True)
        shutil.rmtree(work, ignore_errors=True)


def test_a_remote_in_another_namespace_finds_the_tv_over_avahi_and_pairs(two_namespaces):
    tv, rc = two_namespaces
    # Each daemon used only its veth end.
    for ns in (tv, rc):
        interfaces = set(re.findall(r"New relevant interface (\S+?)\.", ns.avahi_log.read_text()))
        assert interfaces == {ns.interface}, f"avahi in {ns.name} used {interfaces}"
        assert "use-ipv6=no" in (ns.work / f"{ns.name}-avahi.conf").read_text()

    serve_log = tv.work / "serve.log"
    # Off loopback the TV needs sign-in: an owner and an API token for the checks below.
    data = str(tv.work / "tv-data")
    subprocess.run([marquee_binary(), "users", "add", "owner", "--role", "owner", "--data", data],
                   input="a long password\n", text=True, check=True, capture_output=True)
    token = subprocess.run([marquee_binary(), "users", "token", "owner", "--data", data],
                           text=True, check=True, capture_output=True).stdout.strip()
    tv.spawn([marquee_binary(), "serve", "--host", "0.0.0.0", "--port", "18080", "--data", str(tv.work / "tv-data"), "--no-samples",
              "--nearby-port", "17420", "--device-name", "Namespace TV"], serve_log)
    wait_for(lambda: "advertised as" in serve_log.read_text() or "not advertised" in serve_log.read_text(), "marquee serve")
    assert "advertised as “Namespace TV”" in serve_log.read_text(), serve_log.read_text()

    def tv_api(method, path, body=None):
        argv = ["curl", "-s", "-X", method, "-H", "content-type: application/json", "-H", f"Authorization: Bearer {token}",
                f"http://127.0.0.1:18080{path}"]
        if body is not None:
            argv += ["-d", body]
        return tv.run(*argv, timeout=20).stdout

    remote_argv = ["ip", "netns", "exec", rc.name, marquee_binary(), "remote", "--config", str(rc.work / "remote"),
                   "--name", "Namespace remote", "--browse-seconds", "2"]
    remote = RemoteProcess(remote_argv, env=rc.env)
    remote.expect(r"Found “Namespace TV” at 10\.231\.77\.1")
    code = remote.expect(r"both screens show (\d{3}) (\d{3})")
    overview = tv_api("GET", "/api/devices")
    pending = re.search(r'"id":"([^"]+)"[^}]*"code":"(\d{6})"|"code":"(\d{6})"[^}]*"id":"([^"]+)"', overview)
    assert pending, overview
    pending_id, tv_code = (pending.group(1), pending.group(2)) if pending.group(1) else (pending.group(4), pending.group(3))
    assert tv_code == code.group(1) + code.group(2), "the two devices show different codes"
    tv_api("POST", f"/api/devices/pairings/{pending_id}", '{"approved": true}')
    remote.say("y")
    remote.expect(r"Paired with “Namespace TV”")
    remote.say("play")
    remote.expect(r"Error: Nothing is playing on the TV")  # the encrypted link carried it to the TV and back
    remote.say("quit")
    assert remote.finish() == 0
    assert "Namespace remote" in tv_api("GET", "/api/devices")

    # Found again by browsing and recognised: no code, no approval.
    again = RemoteProcess(remote_argv, env=rc.env)
    again.expect(r"Connected to “Namespace TV”")
    again.say("quit")
    assert again.finish() == 0

    # The other direction: the TV browses for devices advertising the remote service nearby.
    other_log = rc.work / "other-serve.log"
    rc.spawn([marquee_binary(), "serve", "--host", "0.0.0.0", "--port", "18081", "--data", str(rc.work / "other-data"), "--no-samples",
              "--nearby-port", "17421", "--device-name", "Namespace phone"], other_log)
    wait_for(lambda: "advertised as" in other_log.read_text() or "not advertised" in other_log.read_text(), "the second marquee serve")
    found = ""
    deadline = time.time() + 20
    while "Namespace phone" not in found and time.time() < deadline:
        found = tv_api("GET", "/api/devices/nearby?service=remote")
    assert '"name":"Namespace phone"' in found and "10.231.77.2" in found, found
    assert "Namespace TV" not in found, "the TV lists itself"
    assert "Namespace phone" in tv_api("GET", "/api/devices/nearby?platform=linux")
    assert "Namespace phone" not in tv_api("GET", "/api/devices/nearby?platform=ios")
    assert "Unknown application service" in tv_api("GET", "/api/devices/nearby?service=karaoke")
