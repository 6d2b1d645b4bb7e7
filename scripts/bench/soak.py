#!/usr/bin/env python3
"""Soak: mixed traffic against one `marquee serve` on loopback for SECONDS (1,800 by default),
printing the server's resident memory, open file descriptors and the p99 latency of a probe
request at the start and at the end, and failing when any of them grew without bound.

Traffic, each in its own thread, all bounded and paced (the per-client rate limit of the
expensive routes is respected, since every client here is 127.0.0.1):
- players: a playback session, the manifest, the multivariant playlist and a few segments;
- renderer sockets: open the session's renderer WebSocket, send a few time reports, close;
- event streams: open `/api/events`, read for a few seconds, close;
- uploads: create, send 256 KiB in two chunks, cancel;
- downloads: download the clip from the server's own `/media` (loopback), then delete it;
- Live Text: ask for a paused frame's text at a few times (when Tesseract is there);
- probe: `GET /api/assets` twice a second, timed.

Environment: MARQUEE_BIN (else the debug build), SECONDS (1800), WARMUP (60: the start figures
are taken after it), RSS_GROWTH_MB (64), FD_GROWTH (32), P99_GROWTH (3: end p99 over start p99).
"""
import base64
import http.client
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SECONDS = float(os.environ.get("SECONDS", "1800"))
WARMUP = float(os.environ.get("WARMUP", "60"))
RSS_GROWTH_MB = float(os.environ.get("RSS_GROWTH_MB", "64"))
FD_GROWTH = int(os.environ.get("FD_GROWTH", "32"))
P99_GROWTH = float(os.environ.get("P99_GROWTH", "3"))


def binary():
    if os.environ.get("MARQUEE_BIN"):
        return os.environ["MARQUEE_BIN"]
    out = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True, check=True)
    return str(Path(out.stdout.strip()) / "marquee")


class Server:
    def __init__(self, folder):
        self.log = open(folder / "server.log", "w")
        self.process = subprocess.Popen([binary(), "serve", "--data", str(folder / "data"), "--port", "0", "--no-samples"],
                                        stdout=self.log, stderr=subprocess.STDOUT, text=True)
        deadline = time.time() + 60
        while time.time() < deadline:
            match = re.search(r"http://127\.0\.0\.1:(\d+)/", (folder / "server.log").read_text())
            if match:
                self.port = int(match.group(1))
                return
            time.sleep(0.2)
        raise SystemExit("soak: marquee serve did not start")

    def rss_mb(self):
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def fds(self):
        return len(os.listdir(f"/proc/{self.process.pid}/fd"))

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=15)


def call(port, method, path, body=None, headers=None, raw=False, timeout=60):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        data = body if isinstance(body, (bytes, type(None))) else json.dumps(body).encode()
        conn.request(method, path, body=data, headers={"Content-Type": "application/json", **(headers or {})})
        response = conn.getresponse()
        payload = response.read()
        if raw:
            return response.status, payload
        try:
            return response.status, json.loads(payload or b"null")
        except ValueError:
            return response.status, payload
    finally:
        conn.close()


def make_clip(folder):
    clip = folder / "clip.mp4"
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=24:duration=12",
                    "-f", "lavfi", "-i", "sine=duration=12", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
                    "-c:a", "aac", str(clip)], check=True)
    return clip


class Soak:
    def __init__(self, server, asset):
        self.server, self.port, self.asset = server, server.port, asset
        self.deadline = time.time() + SECONDS
        self.errors = {}
        self.counts = {}
        self.latencies = []  # (time, seconds)
        self.lock = threading.Lock()

    def note(self, kind, ok=True, detail=""):
        with self.lock:
            self.counts[kind] = self.counts.get(kind, 0) + 1
            if not ok:
                self.errors.setdefault(kind, []).append(detail)

    def running(self):
        return time.time() < self.deadline

    def player(self):
        while self.running():
            status, session = call(self.port, "POST", "/api/sessions", {"assetID": self.asset})
            if status == 429:
                time.sleep(2)
                continue
            ok = status == 201
            if ok:
                call(self.port, "GET", f"/api/assets/{self.asset}/manifest.json")
                status, master = call(self.port, "GET", f"/media/{self.asset}/master.m3u8", raw=True)
                variant = next((l for l in master.decode().splitlines() if l and not l.startswith("#")), None) if status == 200 else None
                if variant:
                    status, playlist = call(self.port, "GET", f"/media/{self.asset}/{variant}", raw=True)
                    folder = variant.rsplit("/", 1)[0]
                    for segment in [l for l in playlist.decode().splitlines() if l and not l.startswith("#")][:3]:
                        status, _ = call(self.port, "GET", f"/media/{self.asset}/{folder}/{segment}", raw=True)
                        ok = ok and status == 200
                call(self.port, "DELETE", f"/api/sessions/{session['id']}")
            self.note("player", ok, str(status))
            time.sleep(1.0)

    def renderer(self):
        while self.running():
            status, session = call(self.port, "POST", "/api/sessions", {"assetID": self.asset})
            if status != 201:
                time.sleep(2)
                continue
            ok = True
            try:
                sock = socket.create_connection(("127.0.0.1", self.port), timeout=10)
                key = base64.b64encode(os.urandom(16)).decode()
                sock.sendall((f"GET /api/sessions/{session['id']}/renderer HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
                              f"Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n"
                              f"Sec-WebSocket-Key: {key}\r\n\r\n").encode())
                ok = sock.recv(4096).startswith(b"HTTP/1.1 101")
                for t in range(5):
                    payload = json.dumps({"v": 1, "type": "report", "event": "time", "time": t * 0.5}).encode()
                    mask = os.urandom(4)
                    frame = bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
                    sock.sendall(frame)
                    time.sleep(0.2)
                sock.close()
            except OSError as error:
                ok = False
                status = str(error)
            call(self.port, "DELETE", f"/api/sessions/{session['id']}")
            self.note("renderer", ok, str(status))
            time.sleep(1.5)

    def events(self):
        while self.running():
            ok = True
            try:
                sock = socket.create_connection(("127.0.0.1", self.port), timeout=10)
                sock.sendall(f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nAccept: text/event-stream\r\n\r\n".encode())
                ok = sock.recv(4096).startswith(b"HTTP/1.1 200")
                sock.settimeout(1)
                end = time.time() + 4
                while time.time() < end:
                    try:
                        sock.recv(4096)
                    except socket.timeout:
                        pass
                sock.close()
            except OSError as error:
                ok = False
            self.note("events", ok)
            time.sleep(0.5)

    def uploads(self):
        chunk = os.urandom(128 << 10)
        while self.running():
            status, upload = call(self.port, "POST", "/api/uploads", {"fileName": "soak.mp4", "length": 2 * len(chunk)})
            if status == 429:
                time.sleep(2)
                continue
            ok = status == 201
            if ok:
                for n in range(2):
                    start = n * len(chunk)
                    status, _ = call(self.port, "PUT", f"/api/uploads/{upload['id']}", chunk,
                                     {"Content-Type": "application/octet-stream",
                                      "Content-Range": f"bytes {start}-{start + len(chunk) - 1}/{2 * len(chunk)}"})
                    ok = ok and status == 200
                status, _ = call(self.port, "DELETE", f"/api/uploads/{upload['id']}")
                ok = ok and status == 204
            self.note("upload", ok, str(status))
            time.sleep(2)

    def downloads(self):
        while self.running():
            status, download = call(self.port, "POST", "/api/downloads",
                                    {"url": f"http://127.0.0.1:{self.port}/media/{self.asset}/master.m3u8", "title": "soak"})
            if status == 429:
                time.sleep(5)
                continue
            ok = status in (200, 201, 202)
            outcome = str(status)
            if ok:
                end = time.time() + 120
                state = None
                while time.time() < end and self.running():
                    status, shown = call(self.port, "GET", f"/api/downloads/{download['id']}")
                    state = shown.get("state") if isinstance(shown, dict) else None
                    if state in ("finished", "failed", "cancelled"):
                        break
                    time.sleep(1)
                ok = state == "finished"
                # What a failure report shows: the state it ended in (and why, when it failed).
                outcome = f"{state}: {shown.get('message')}" if isinstance(shown, dict) and state == "failed" else str(state)
                if state not in ("finished", "failed", "cancelled"):
                    call(self.port, "POST", f"/api/downloads/{download['id']}/cancel")
                call(self.port, "DELETE", f"/api/downloads/{download['id']}")
                if isinstance(shown, dict) and shown.get("assetID"):
                    call(self.port, "DELETE", f"/api/assets/{shown['assetID']}?permanently=true")
            self.note("download", ok, outcome)
            time.sleep(20)

    def live_text(self):
        t = 0.0
        while self.running():
            status, _ = call(self.port, "GET", f"/api/assets/{self.asset}/frame-text?time={t:.2f}", timeout=120)
            self.note("live-text", status in (200, 404, 409, 422, 429, 503), str(status))
            t = (t + 1.7) % 11
            time.sleep(3)

    def probe(self):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        while self.running():
            started = time.perf_counter()
            try:
                conn.request("GET", "/api/assets")
                response = conn.getresponse()
                response.read()
                ok = response.status == 200
            except (OSError, http.client.HTTPException):
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                ok = False
            elapsed = time.perf_counter() - started
            with self.lock:
                self.latencies.append((time.time(), elapsed))
            self.note("probe", ok)
            time.sleep(0.5)


def p99(values):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * 0.99))] if values else float("nan")


def main():
    folder = Path(tempfile.mkdtemp(prefix="marquee-soak-"))
    server = Server(folder)
    try:
        clip = make_clip(folder)
        status, added = call(server.port, "POST", "/api/assets", {"paths": [str(clip)]})
        assert status == 202, added
        asset = added["assets"][0]["id"]
        deadline = time.time() + 180
        while time.time() < deadline:
            status, shown = call(server.port, "GET", f"/api/assets/{asset}")
            if shown.get("status") == "ready":
                break
            time.sleep(0.5)
        else:
            raise SystemExit("soak: the clip was not ready in time")
        soak = Soak(server, asset)
        workers = [threading.Thread(target=f, daemon=True) for f in
                   (soak.player, soak.player, soak.renderer, soak.events, soak.events, soak.uploads, soak.downloads,
                    soak.live_text, soak.probe)]
        for w in workers:
            w.start()
        window = min(WARMUP, SECONDS / 4)
        time.sleep(window)
        start = (server.rss_mb(), server.fds(), time.time())
        print(f"soak: {SECONDS:.0f} s of mixed traffic on 127.0.0.1:{server.port}; start figures after {window:.0f} s", flush=True)
        while time.time() < soak.deadline - 1:
            time.sleep(min(60, max(0.5, soak.deadline - time.time() - 1)))
            print(f"  t={time.time() - start[2] + window:6.0f} s  rss {server.rss_mb():7.1f} MB  fds {server.fds():4d}", flush=True)
        for w in workers:
            w.join(timeout=150)
        end = (server.rss_mb(), server.fds(), time.time())
        first = [s for t, s in soak.latencies if start[2] - window <= t <= start[2] + window]
        last = [s for t, s in soak.latencies if t >= soak.deadline - window * 2]
        print(f"{'':10}{'start':>12}{'end':>12}")
        print(f"{'RSS MB':10}{start[0]:12.1f}{end[0]:12.1f}")
        print(f"{'fds':10}{start[1]:12d}{end[1]:12d}")
        print(f"{'p99 ms':10}{p99(first) * 1000:12.1f}{p99(last) * 1000:12.1f}   (GET /api/assets, {len(first)} / {len(last)} samples)")
        print("requests: " + ", ".join(f"{k} {v}" for k, v in sorted(soak.counts.items())))
        for kind, details in soak.errors.items():
            print(f"failures of {kind}: {len(details)} (first: {details[:3]})")
        grew = []
        if end[0] - start[0] > RSS_GROWTH_MB:
            grew.append(f"RSS grew {end[0] - start[0]:.1f} MB (> {RSS_GROWTH_MB})")
        if end[1] - start[1] > FD_GROWTH:
            grew.append(f"fds grew by {end[1] - start[1]} (> {FD_GROWTH})")
        if first and last and p99(last) > P99_GROWTH * max(p99(first), 0.005):
            grew.append(f"p99 grew {p99(last) / max(p99(first), 1e-9):.1f}x (> {P99_GROWTH}x)")
        if server.process.poll() is not None:
            grew.append("the server stopped")
        if grew:
            print("soak: FAILED: " + "; ".join(grew))
            return 1
        print("soak: nothing grew without bound")
        return 0
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
