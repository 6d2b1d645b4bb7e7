"""A loopback HTTP server on another origin that relays an ad's HLS from Marquee and serves an
asset list naming it: the external ads of the interstitial e2e tests and of
scripts/bench/interstitials.py."""
import http.server
import json
import threading
import time
import urllib.error
import urllib.request


class AdRelayServer:
    """`/ad/…` relays the ad's HLS bundle from Marquee (so it is an HLS stream on another
    origin), each media playlist cut to its first segment when `first_segment_only`;
    `/list.json` is the asset list `assets(url)` gives for this server's URL; anything else is
    a 404. `requests` remembers each path asked for, `asked(prefix)` when."""

    def __init__(self, marquee_url, ad_id, assets, first_segment_only=False):
        self.requests = []
        self.timed_requests = []
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                outer.requests.append(self.path)
                outer.timed_requests.append((time.time(), self.path))
                if self.path.startswith("/ad/"):
                    path = self.path[4:].split("?")[0]
                    try:
                        with urllib.request.urlopen(f"{marquee_url}/media/{ad_id}/{path}", timeout=10) as response:
                            body, kind = response.read(), response.headers.get("Content-Type", "application/octet-stream")
                    except urllib.error.HTTPError as error:
                        self.send_error(error.code)
                        return
                    if first_segment_only and path.endswith(".m3u8") and b"#EXTINF" in body:
                        body = first_segment(body.decode()).encode()
                elif self.path == "/list.json":
                    body = json.dumps({"ASSETS": assets(outer.url)}).encode()
                    kind = "application/json"
                else:
                    self.send_error(404)
                    return
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def asked(self, prefix):
        """(time, path) of each request whose path starts with `prefix`."""
        return [(at, path) for at, path in self.timed_requests if path.startswith(prefix)]

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def first_segment(playlist):
    """The media playlist up to and including its first segment, then its end."""
    kept, seen_segment = [], False
    for line in playlist.splitlines():
        if line.startswith("#EXT-X-ENDLIST"):
            continue
        kept.append(line)
        if line.startswith("#EXTINF"):
            seen_segment = True
        elif seen_segment and line and not line.startswith("#"):
            break
    return "\n".join(kept + ["#EXT-X-ENDLIST", ""])


def short_ad_server(marquee_url, ad_id):
    """The Sample Ad cut to a two-second ad, and an asset list naming it twice by two URIs (an
    absolute one and one relative to the list)."""
    return AdRelayServer(
        marquee_url, ad_id, first_segment_only=True,
        assets=lambda url: [{"URI": f"{url}/ad/master.m3u8?asset=1", "DURATION": 2},
                            {"URI": "/ad/master.m3u8?asset=2", "DURATION": 2}])
