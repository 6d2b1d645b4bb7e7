#!/usr/bin/env python3
"""Renderer-socket flood against a running Marquee, on loopback only.

One client opens a renderer WebSocket on a fresh playback session and sends frames at RATE
per second (10,000 by default) for SECONDS; meanwhile another process asks for
`GET /api/assets` over one keep-alive connection, one request after another, and records how
long each answer takes. It prints the other client's latency (p50 / p99 / max) without and
with the flood, how many frames the flooder got out, and how the server ended its socket.

Everything is bounded: at most RATE * SECONDS frames, SECONDS of flooding, and a baseline of
BASELINE seconds. The flooder is a minimal WebSocket client on a raw socket (pre-masked frames
written in batches), so the Python side is cheap enough not to be what is measured.

Environment: BASE (http://127.0.0.1:PORT, required), ASSET (an asset id, else the first
ready one), RATE, SECONDS, BASELINE, MODE (report: time reports; intent: seek intents;
mixed: both), RECONNECT (1, the default: open a new socket whenever the server ends
one, as an attacker would), READ (1; 0: never read what the server sends), AUTH_HEADER ("Name: value", sent on every request and the upgrade).
"""
import base64
import http.client
import json
import multiprocessing
import os
import socket
import statistics
import struct
import sys
import threading
import time
import urllib.parse

BASE = os.environ.get("BASE", "")
RATE = int(os.environ.get("RATE", "10000"))
SECONDS = float(os.environ.get("SECONDS", "8"))
BASELINE = float(os.environ.get("BASELINE", "3"))
MODE = os.environ.get("MODE", "mixed")
AUTH = os.environ.get("AUTH_HEADER", "")
RECONNECT = os.environ.get("RECONNECT", "1") == "1"
READ = os.environ.get("READ", "1") == "1"


def loopback(base):
    url = urllib.parse.urlsplit(base)
    if url.hostname not in ("127.0.0.1", "localhost", "::1"):
        sys.exit(f"ws_flood: {base} is not loopback; this bench only talks to 127.0.0.1")
    return url.hostname, url.port or 80


def extra_headers():
    if not AUTH:
        return {}
    name, _, value = AUTH.partition(":")
    return {name.strip(): value.strip()}


def request(host, port, method, path, body=None):
    conn = http.client.HTTPConnection(host, port, timeout=30)
    headers = {"Content-Type": "application/json", **extra_headers()}
    conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    response = conn.getresponse()
    data = response.read()
    conn.close()
    if response.status >= 300:
        sys.exit(f"ws_flood: {method} {path} answered {response.status}: {data[:200]!r}")
    return json.loads(data)


def probe(host, port, seconds, out):
    """Sequential GET /api/assets for `seconds`; puts the latencies (s) and errors in `out`."""
    latencies, errors = [], 0
    conn = http.client.HTTPConnection(host, port, timeout=30)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        start = time.perf_counter()
        try:
            conn.request("GET", "/api/assets", headers=extra_headers())
            response = conn.getresponse()
            response.read()
            if response.status != 200:
                errors += 1
        except (OSError, http.client.HTTPException):
            errors += 1
            conn.close()
            conn = http.client.HTTPConnection(host, port, timeout=30)
        latencies.append(time.perf_counter() - start)
        time.sleep(0.005)  # a client, not a second flood
    conn.close()
    out.put((latencies, errors))


def frame(text, mask=b"\x11\x22\x33\x44"):
    """One masked client text frame."""
    payload = text.encode()
    n = len(payload)
    head = bytes([0x81])
    if n < 126:
        head += bytes([0x80 | n])
    else:
        head += bytes([0x80 | 126]) + struct.pack("!H", n)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return head + mask + masked


class UpgradeRefused(Exception):
    pass


def handshake(host, port, path):
    sock = socket.create_connection((host, port), timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    extra = "".join(f"{k}: {v}\r\n" for k, v in extra_headers().items())
    sock.sendall((f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n{extra}\r\n").encode())
    reply = b""
    while b"\r\n\r\n" not in reply:
        chunk = sock.recv(4096)
        if not chunk:
            raise UpgradeRefused("the server closed the connection during the upgrade")
        reply += chunk
    head, _, rest = reply.partition(b"\r\n\r\n")
    status = head.split(b"\r\n")[0]
    if b" 101 " not in status:
        raise UpgradeRefused(f"upgrade refused: {status!r}")
    return sock, rest


class Reader(threading.Thread):
    """Drains what the server sends; notes a close frame's code and reason."""

    def __init__(self, sock, initial):
        super().__init__(daemon=True)
        self.sock, self.buffer = sock, bytearray(initial)
        self.messages, self.close_code, self.close_reason, self.eof = 0, None, "", False

    def run(self):
        try:
            while True:
                self.parse()
                chunk = self.sock.recv(65536)
                if not chunk:
                    self.eof = True
                    return
                self.buffer += chunk
        except OSError:
            self.eof = True

    def parse(self):
        while len(self.buffer) >= 2:
            opcode, length = self.buffer[0] & 0x0F, self.buffer[1] & 0x7F
            offset = 2
            if length == 126:
                if len(self.buffer) < 4:
                    return
                length, offset = struct.unpack("!H", self.buffer[2:4])[0], 4
            elif length == 127:
                if len(self.buffer) < 10:
                    return
                length, offset = struct.unpack("!Q", self.buffer[2:10])[0], 10
            if len(self.buffer) < offset + length:
                return
            payload = bytes(self.buffer[offset:offset + length])
            del self.buffer[:offset + length]
            if opcode == 8:
                if len(payload) >= 2:
                    self.close_code = struct.unpack("!H", payload[:2])[0]
                    self.close_reason = payload[2:].decode(errors="replace")
                else:
                    self.close_code = 1005
            else:
                self.messages += 1


def flood(host, port, session, seconds, rate, mode, reconnect):
    """Sends `rate` frames a second for `seconds`; with `reconnect`, opens a new socket each
    time the server ends one, as an attacker would. Returns frames sent, time taken, the
    readers of every socket, and how many sockets were opened."""
    frames = []
    for i in range(200):
        report = frame(json.dumps({"v": 1, "type": "report", "report": "time", "time": 1 + i * 0.01}))
        seek = frame(json.dumps({"v": 1, "type": "intent", "id": i, "intent": "seek", "time": 2 + i * 0.5}))
        frames.append(report if mode == "report" else seek if mode == "intent" else (report if i % 2 else seek))
    batch = max(1, rate // 100)  # written every 10 ms
    sent, start, total = 0, time.monotonic(), int(rate * seconds)
    readers, sock = [], None
    while sent < total and time.monotonic() - start < seconds + 2:
        if sock is None:
            if readers and not reconnect:
                break
            try:
                sock, rest = handshake(host, port, f"/api/sessions/{session}/renderer")
            except (OSError, UpgradeRefused):
                time.sleep(0.05)
                continue
            readers.append(Reader(sock, rest))
            if READ:
                readers[-1].start()
            else:
                sock.settimeout(2)  # a client that never reads: the server's replies pile up
        due = start + sent / rate
        now = time.monotonic()
        if due > now:
            time.sleep(due - now)
        count = min(batch, total - sent)
        chunk = b"".join(frames[(sent + k) % len(frames)] for k in range(count))
        try:
            sock.sendall(chunk)
            sent += count
        except OSError:
            sock = None
            continue
        if readers[-1].close_code is not None or readers[-1].eof:
            sock.close()
            sock = None
    elapsed = time.monotonic() - start
    time.sleep(0.5)
    if sock is not None:
        sock.close()
    return sent, elapsed, readers


def percentiles(values):
    if not values:
        return "no answers"
    ms = sorted(v * 1000 for v in values)
    q = statistics.quantiles(ms, n=100) if len(ms) > 1 else [ms[0]] * 99
    return f"n={len(ms)} p50 {q[49]:.1f} ms  p99 {q[98]:.1f} ms  max {ms[-1]:.1f} ms"


def main():
    if not BASE:
        sys.exit("ws_flood: set BASE=http://127.0.0.1:PORT")
    host, port = loopback(BASE)
    asset = os.environ.get("ASSET") or next(a["id"] for a in request(host, port, "GET", "/api/assets")["assets"]
                                            if a["status"] == "ready")
    session = request(host, port, "POST", "/api/sessions", {"assetID": asset})["id"]
    out = multiprocessing.Queue()

    prober = multiprocessing.Process(target=probe, args=(host, port, BASELINE, out))
    prober.start()
    quiet, quiet_errors = out.get()
    prober.join()

    prober = multiprocessing.Process(target=probe, args=(host, port, SECONDS, out))
    prober.start()
    sent, elapsed, readers = flood(host, port, session, SECONDS, RATE, MODE, RECONNECT)
    loaded, loaded_errors = out.get()
    prober.join()

    print(f"renderer flood: {MODE} frames at {RATE}/s for {SECONDS:g} s from one client, "
          f"GET /api/assets from another (sequential, keep-alive)")
    print(f"  /api/assets without flood: {percentiles(quiet)}" + (f", {quiet_errors} errors" if quiet_errors else ""))
    print(f"  /api/assets during flood:  {percentiles(loaded)}" + (f", {loaded_errors} errors" if loaded_errors else ""))
    closes = sorted({f"{r.close_code} ({r.close_reason})" for r in readers if r.close_code is not None})
    dropped = sum(1 for r in readers if r.close_code is None and r.eof)
    print(f"  flooder: {sent} frames in {elapsed:.1f} s ({sent / max(elapsed, 1e-9):.0f}/s) over {len(readers)} socket(s), "
          f"{sum(r.messages for r in readers)} messages back; server closes: {', '.join(closes) or 'none'}"
          + (f"; {dropped} dropped without a close frame" if dropped else ""))
    if loaded:
        p99 = statistics.quantiles(sorted(loaded), n=100)[98] * 1000 if len(loaded) > 1 else loaded[0] * 1000
        print(f"  p99 during flood {p99:.1f} ms (target < 50 ms) " + ("OK" if p99 < 50 else "ABOVE TARGET"))


if __name__ == "__main__":
    main()
