"""Progress → page latency: a real HLS download (served slowly from loopback) runs in
`marquee serve`; /activities is open in headless Chromium. The page itself listens to the
download service's events (/api/downloads/events) and watches the Downloading activity's
percent on its Lock Screen card; for each percent, latency = the time the card showed it −
the time the download event carrying it arrived. Prints the median (target < 100 ms)."""
import os
import pathlib
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tests-e2e"))
import hls_fixture  # noqa: E402
from conftest import Server, make_driver  # noqa: E402
from test_activities import make_stream  # noqa: E402


def main():
    root = pathlib.Path(tempfile.mkdtemp(prefix="marquee-latency-"))
    playlist = make_stream(root / "stream")
    faults = hls_fixture.Faults()
    faults.delay = 0.3
    origin = hls_fixture.serve(root / "stream", faults)
    process = subprocess.Popen([os.environ["MARQUEE_BIN"], "serve", "--data", str(root / "data"), "--port", "0", "--no-samples"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    line = process.stdout.readline()
    threading.Thread(target=lambda: [None for _ in process.stdout], daemon=True).start()
    server = Server(re.search(r"(http://127\.0\.0\.1:\d+)/", line).group(1), process, str(root / "data"))
    driver = make_driver()
    try:
        driver.get(server.url + "/activities")
        driver.execute_script("""
            window.__events = {}; window.__shown = {};
            const source = new EventSource('/api/downloads/events');
            source.addEventListener('download', (e) => {
              const d = JSON.parse(e.data).download;
              const p = Math.floor(d.progress * 100);
              if (d.state === 'downloading' && !(p in window.__events)) window.__events[p] = performance.now();
            });
            new MutationObserver(() => {
              for (const v of document.querySelectorAll('#lockscreen [data-presentation=lock] .value')) {
                const p = parseInt(v.dataset.value, 10);
                if (Number.isFinite(p) && !(p in window.__shown)) window.__shown[p] = performance.now();
              }
            }).observe(document.body, {subtree: true, attributes: true, attributeFilter: ['data-value'], childList: true});""")
        time.sleep(1)
        status, created = server.api("POST", "/api/downloads", {"url": f"http://127.0.0.1:{origin.server_address[1]}/{playlist}",
                                                                "title": "Latency", "concurrency": 1})
        assert status == 202, created
        deadline = time.time() + 120
        while time.time() < deadline:
            _, d = server.api("GET", f"/api/downloads/{created['id']}")
            if d["state"] not in ("queued", "downloading"):
                break
            time.sleep(0.5)
        events, shown = driver.execute_script("return [window.__events, window.__shown]")
        latencies = [shown[p] - events[p] for p in events if p in shown and p != "0"]
        if not latencies:
            print("progress → page: no matching progress events were seen (is the download event name right?)")
            return
        print(f"progress → page (download percent → Live Activity card), {len(latencies)} changes")
        print(f"  median {statistics.median(latencies):7.1f} ms   max {max(latencies):7.1f} ms   (target median < 100 ms)")
    finally:
        driver.quit()
        process.terminate()
        process.wait(timeout=20)
        origin.shutdown()


if __name__ == "__main__":
    main()
