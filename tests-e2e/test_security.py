"""Safe to leave running: requests a web page elsewhere could make of Marquee on loopback
(DNS rebinding, cross-site posts and form posts, WebSockets from another origin) are refused;
pages carry a content security policy; the player still works with it (other tests)."""
import base64
import json
import os
import socket
import urllib.parse
import urllib.request

import pytest


def raw(server, method, path, headers=None, body=b""):
    """One HTTP/1.1 request on a fresh socket; returns (status, headers, body)."""
    url = urllib.parse.urlsplit(server.url)
    with socket.create_connection((url.hostname, url.port), timeout=10) as sock:
        merged = {"Host": url.netloc, "Connection": "close", "Content-Length": str(len(body)), **(headers or {})}
        lines = [f"{method} {path} HTTP/1.1"]
        lines += [f"{k}: {v}" for k, v in merged.items()]
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
            if b"\r\n\r\n" in data and method == "GET" and "Upgrade" in (headers or {}):
                break
    head, _, rest = data.partition(b"\r\n\r\n")
    status = int(head.split(b" ")[1])
    fields = {}
    for line in head.split(b"\r\n")[1:]:
        key, _, value = line.decode().partition(":")
        fields[key.strip().lower()] = value.strip()
    return status, fields, rest


def add_request(server, **headers):
    body = json.dumps({"paths": ["/definitely/not/here.mp4"]}).encode()
    return raw(server, "POST", "/api/assets", {"Content-Type": "application/json", **headers}, body)


def test_a_cross_site_post_is_refused_and_a_same_origin_one_is_not(server):
    status, _, body = add_request(server, Origin="http://evil.example")
    assert status == 403 and b"another site" in body
    status, _, _ = add_request(server, Origin="null")
    assert status == 403
    status, _, body = add_request(server, Origin=server.url)
    assert status == 404 and b"/definitely/not/here.mp4" in body  # reached the route: nothing at that path
    status, _, _ = add_request(server)  # scripts and the CLI send no Origin
    assert status == 404


def test_a_form_post_is_refused(server):
    for content_type in ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]:
        status, _, body = raw(server, "POST", "/api/assets", {"Content-Type": content_type}, b'{"paths":["/tmp"]}')
        assert status == 415, content_type
        assert b"JSON" in body


def test_a_rebound_host_name_is_refused(server):
    port = urllib.parse.urlsplit(server.url).port
    for host in [f"evil.example:{port}", "attacker.test"]:
        status, _, body = raw(server, "GET", "/api/assets", {"Host": host})
        assert status == 421, host
        assert b"--allowed-host" in body
    for host in [f"localhost:{port}", f"127.0.0.1:{port}", f"[::1]:{port}", f"marquee.localhost:{port}"]:
        status, _, _ = raw(server, "GET", "/api/health", {"Host": host})
        assert status == 200, host


def test_a_websocket_from_another_origin_is_refused(server):
    asset = server.asset("Test Pattern Tour")
    status, session = server.api("POST", "/api/sessions", {"assetID": asset["id"]})
    assert status in (200, 201), session
    upgrade = {"Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
               "Sec-WebSocket-Key": base64.b64encode(os.urandom(16)).decode()}
    path = f"/api/sessions/{session['id']}/renderer"
    status, _, _ = raw(server, "GET", path, {**upgrade, "Origin": "http://evil.example"})
    assert status != 101 and 400 <= status < 500  # Hummingbird answers a refused upgrade with 400
    status, _, _ = raw(server, "GET", path, {**upgrade, "Origin": server.url})
    assert status == 101


def test_pages_carry_a_content_security_policy(server):
    for path in ["/", f"/watch/{server.asset('Test Pattern Tour')['id']}"]:
        status, headers, _ = raw(server, "GET", path)
        assert status == 200
        policy = headers["content-security-policy"]
        assert "frame-ancestors 'none'" in policy and "script-src 'self'" in policy
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["x-frame-options"] == "DENY"
