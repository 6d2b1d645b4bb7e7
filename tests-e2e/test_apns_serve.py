"""`marquee serve` with APNs configured stops cleanly on SIGTERM (issue 26, item 2: it used to
exit 132 in a debug build because the APNs HTTP client was never shut down)."""
import os
import re
import signal
import subprocess

from conftest import marquee_binary


def test_serve_with_apns_configured_stops_cleanly_on_sigterm(tmp_path):
    key = tmp_path / "AuthKey_TESTKEY001.p8"
    subprocess.run(["openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", str(key)],
                   check=True, capture_output=True)
    environment = dict(os.environ,
                       MARQUEE_APNS_KEY_FILE=str(key), MARQUEE_APNS_KEY_ID="TESTKEY001",
                       MARQUEE_APNS_TEAM_ID="TESTTEAM01", MARQUEE_APNS_BUNDLE_ID="org.marquee.test",
                       # Nothing listens there: stopping must not depend on APNs answering.
                       MARQUEE_APNS_HOST="https://127.0.0.1:9")
    process = subprocess.Popen([marquee_binary(), "serve", "--data", str(tmp_path / "data"), "--port", "0",
                                "--no-samples", "--no-worker"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=environment)
    try:
        line = process.stdout.readline()
        assert re.search(r"http://127\.0\.0\.1:\d+/", line), f"marquee serve did not say it was ready: {line!r}"
        process.send_signal(signal.SIGTERM)
        rest, _ = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0, f"exit {process.returncode}; the console ended with:\n{rest[-2000:]}"


def test_help_names_the_apns_endpoint_and_ca_settings():
    for argv in (["push", "test", "--help"], ["serve", "--help"]):
        text = subprocess.run([marquee_binary(), *argv], capture_output=True, text=True).stdout
        flat = " ".join(text.split())
        for setting in ["MARQUEE_APNS_HOST", "MARQUEE_APNS_CA_FILE", "host", "caFile"]:
            assert setting in flat, f"`marquee {' '.join(argv)}` does not mention {setting}:\n{text}"
