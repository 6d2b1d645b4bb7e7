"""`marquee inspect` as a user runs it: against files and a real HTTP server on loopback
(redirects, 404, refused connections), checking exit codes, tables and the JSON schema."""
import http.server
import json
import os
import pathlib
import socket
import subprocess
import threading

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
SHARED = pathlib.Path(os.environ.get("MARQUEE_SHARED", ROOT.parent / "shared"))
CORPUS = SHARED / "corpus" / "hls"
MALFORMED = SHARED / "corpus" / "hls-malformed"


def marquee_binary():
    out = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True, check=True)
    return pathlib.Path(out.stdout.strip()) / "marquee"


MARQUEE = marquee_binary()


def run(*args):
    return subprocess.run([str(MARQUEE), *args], capture_output=True, text=True, timeout=60)


class Handler(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *a, **kw):
        super().__init__(*a, directory=str(CORPUS), **kw)

    def do_GET(self):
        if self.path.startswith("/moved/"):
            self.send_response(302)
            self.send_header("Location", "/streams/" + self.path[len("/moved/"):])
            self.end_headers()
            return
        if self.path.startswith("/streams/"):
            self.path = "/" + self.path[len("/streams/"):]
        if self.path == "/trickle.m3u8":
            # A server that answers, then sends one byte a second and never finishes.
            self.send_response(200)
            self.send_header("Content-Type", "application/vnd.apple.mpegurl")
            self.send_header("Content-Length", "100000")
            self.end_headers()
            try:
                self.wfile.write(b"#EXTM3U\n")
                for _ in range(20):
                    self.wfile.write(b"#")
                    self.wfile.flush()
                    import time
                    time.sleep(1)
            except (BrokenPipeError, ConnectionResetError):
                pass
            return
        if self.path == "/loop":
            self.send_response(302)
            self.send_header("Location", "/loop")
            self.end_headers()
            return
        super().do_GET()

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def server():
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


def test_table_for_a_file_lists_variants_and_badges():
    r = run("inspect", str(CORPUS / "apple-authoring-spec-hevc-dolby-vision-hdr10-multivariant.m3u8"))
    assert r.returncode == 0, r.stderr
    assert "Variants (9)" in r.stdout
    assert "[4K] [HD] [HDR] [Dolby Vision]" in r.stdout
    assert "dvh1.05.06" in r.stdout


def test_json_over_http_follows_redirects_and_resolves_against_final_url(server):
    r = run("inspect", f"{server}/moved/apple-bipbop-advanced-fmp4-multivariant.m3u8", "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["kind"] == "multivariant"
    assert len(doc["variants"]) == 24
    v = doc["variants"][0]
    # relative URIs resolve against the URL after the redirect
    assert v["uri"] == f"{server}/streams/v5/prog_index.m3u8"
    assert v["peakBitRate"] == 2177116 and v["averageBitRate"] == 2168183
    assert v["videoAttributes"]["presentationSize"] == {"width": 960, "height": 540}
    assert v["videoAttributes"]["videoRange"] == "SDR"
    assert v["videoAttributes"]["nominalFrameRate"] == 60
    assert v["videoAttributes"]["codecTypes"] == ["avc1"]
    assert v["audioAttributes"]["formatIDs"] == ["mp4a"]
    assert v["audioAttributes"]["renditions"][0]["channelCount"] == 2
    assert set(v["audioAttributes"]["renditions"][0]) >= {"groupID", "name", "language", "channelCount", "isImmersive", "isBinaural", "isDownmix"}
    assert "score" in v and "badges" in v and "codecs" in v
    assert len(doc["iFrameVariants"]) == 6 and doc["imageVariants"] == []
    assert doc["errors"] == []


def test_media_playlist_json_has_interstitials(server):
    r = run("inspect", f"{server}/androidx-interstitials-vod-pre-mid-post-media.m3u8", "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["kind"] == "media"
    assert doc["segments"] == 12 and doc["duration"] == 72 and doc["targetDuration"] == 6 and doc["endList"] is True
    ids = [(i["id"], i["start"], i["cue"], i["restrict"]) for i in doc["interstitials"]]
    assert ids == [("preroll", 0, ["PRE"], ["JUMP", "SKIP"]), ("midroll-1", 15, [], ["JUMP", "SKIP"]), ("postroll", 72, ["POST"], ["JUMP", "SKIP"])]
    first = doc["interstitials"][0]
    assert first["assetURI"] == "https://example.com/0.m3u8?parse=1" and first["assetList"] is None
    assert first["resumeOffset"] == 0 and first["playoutLimit"] is None and first["duration"] is None


def test_encryption_and_byte_ranges_reported():
    r = run("inspect", str(CORPUS / "androidx-aes-128-iv-byterange-discontinuity-media.m3u8"), "--json")
    doc = json.loads(r.stdout)
    assert "AES-128" in doc["encryption"]
    assert doc["byteRanges"] > 0


def test_strict_errors_exit_1_with_line_and_column():
    r = run("inspect", "--strict", str(MALFORMED / "negative-extinf.m3u8"))
    assert r.returncode == 1
    assert ":7:" in r.stderr and ":9:" in r.stderr and "negative" in r.stderr
    j = run("inspect", "--strict", "--json", str(MALFORMED / "negative-extinf.m3u8"))
    assert j.returncode == 1
    errors = json.loads(j.stdout)["errors"]
    assert [e["line"] for e in errors] == [7, 9]
    assert all(e["column"] >= 1 and e["message"] for e in errors)


def test_lenient_warnings_exit_0():
    r = run("inspect", "--json", str(MALFORMED / "extinf-exceeds-targetduration.m3u8"))
    assert r.returncode == 0
    assert [w["line"] for w in json.loads(r.stdout)["warnings"]] == [7, 9]


def test_not_a_playlist_exits_1():
    r = run("inspect", str(MALFORMED / "binary-garbage.m3u8"))
    assert r.returncode == 1
    assert "1:1" in r.stderr and "not a playlist" in r.stderr


def test_http_404_exits_2_naming_the_url(server):
    r = run("inspect", f"{server}/nope.m3u8")
    assert r.returncode == 2
    assert "404" in r.stderr and "/nope.m3u8" in r.stderr


def test_redirect_loop_exits_2(server):
    r = run("inspect", f"{server}/loop")
    assert r.returncode == 2
    assert "redirect" in r.stderr


def test_connection_refused_exits_2():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    r = run("inspect", f"http://127.0.0.1:{port}/x.m3u8")
    assert r.returncode == 2
    assert "refused" in r.stderr


def test_missing_file_exits_2():
    r = run("inspect", "/nonexistent/playlist.m3u8")
    assert r.returncode == 2
    assert "no such file" in r.stderr


def test_trickling_server_gives_up_with_a_clear_message(server):
    import time
    started = time.monotonic()
    result = run("inspect", f"{server}/trickle.m3u8", "--stall-timeout", "3")
    elapsed = time.monotonic() - started
    assert result.returncode == 2, result
    assert "stalled" in result.stderr and "trickle.m3u8" in result.stderr, result.stderr
    assert elapsed < 12, f"took {elapsed:.1f} s to notice the stall"


def test_header_then_random_bytes_is_not_a_playlist(tmp_path):
    import random
    rng = random.Random(7)
    path = tmp_path / "garbage.m3u8"
    path.write_bytes(b"#EXTM3U\n" + bytes(rng.getrandbits(8) for _ in range(2_000_000)))
    result = run("inspect", "--json", str(path))
    assert result.returncode == 1, result.stderr[-500:]
    report = json.loads(result.stdout)
    assert report["kind"] is None
    assert any("binary data" in e["message"] for e in report["errors"])
    assert len(report["warnings"]) <= 1001


def test_segment_list_behind_a_flag():
    path = CORPUS / "androidx-aes-128-iv-byterange-discontinuity-media.m3u8"
    plain = json.loads(run("inspect", "--json", str(path)).stdout)
    assert "segmentList" not in plain
    result = run("inspect", "--json", "--segments", str(path))
    report = json.loads(result.stdout)
    listing = report["segmentList"]
    assert len(listing) == report["segments"]
    assert abs(sum(s["duration"] for s in listing) - report["duration"]) < 1e-6
    assert listing[0]["start"] == 0
    for earlier, later in zip(listing, listing[1:]):
        assert abs(later["start"] - (earlier["start"] + earlier["duration"])) < 1e-9
        assert later["sequence"] == earlier["sequence"] + 1
    assert set(listing[0]) >= {"uri", "duration", "title", "byteRange", "keys", "map", "programDateTime",
                               "discontinuity", "gap", "parts"}
    table = run("inspect", "--segments", str(path)).stdout
    assert "Segments" in table and listing[-1]["uri"].split("/")[-1] in table


def test_a_playlist_in_a_pipe_is_read():
    """Issue 24: `marquee inspect <(printf …)` (a /dev/fd path to a pipe) reads the playlist,
    as does a named FIFO; neither is "You don't have permission"."""
    playlist = ("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-VERSION:3\n#EXTINF:4,\na.ts\n#EXTINF:4,\nb.ts\n"
                "#EXT-X-ENDLIST\n")
    result = subprocess.run(["bash", "-c", f'"{MARQUEE}" inspect --json <(printf %s "$PLAYLIST")'],
                            capture_output=True, text=True, timeout=60, env={**os.environ, "PLAYLIST": playlist})
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["segments"] == 2 and abs(report["duration"] - 8) < 1e-9, report
    folder = pathlib.Path(os.environ.get("TMPDIR", "/tmp")) / f"marquee-fifo-{os.getpid()}"
    folder.mkdir(exist_ok=True)
    fifo = folder / "playlist.m3u8"
    if fifo.exists():
        fifo.unlink()
    os.mkfifo(fifo)
    try:
        writer = threading.Thread(target=lambda: fifo.write_text(playlist))
        writer.start()
        result = run("inspect", "--json", str(fifo))
        writer.join(timeout=30)
        assert result.returncode == 0, result.stderr
        assert json.loads(result.stdout)["segments"] == 2
    finally:
        fifo.unlink()
        folder.rmdir()
