"""A loopback HTTP server on another origin serving short HLS ads and an asset list naming two
of them, for the asset-list e2e tests and scripts/bench/interstitials.py."""
import http.server
import json
import threading
import urllib.error
import urllib.request


class ShortAdServer:
    """A loopback HTTP server on another origin: `/ad/…` relays the Sample Ad's HLS from Marquee
    with every media playlist cut to its first segment (a two-second ad); `/list.json` is an
    asset list naming it twice (two assets, by two URIs). Remembers what was asked for."""

    def __init__(self, marquee_url, ad_id):
        self.requests = []
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                outer.requests.append(self.path)
                if self.path.startswith("/ad/"):
                    path = self.path[4:].split("?")[0]
                    try:
                        with urllib.request.urlopen(f"{marquee_url}/media/{ad_id}/{path}", timeout=10) as response:
                            body, kind = response.read(), response.headers.get("Content-Type", "application/octet-stream")
                    except urllib.error.HTTPError as error:
                        self.send_error(error.code)
                        return
                    if path.endswith(".m3u8") and b"#EXTINF" in body:
                        body = outer.first_segment(body.decode()).encode()
                elif self.path == "/list.json":
                    body = json.dumps({"ASSETS": [{"URI": f"{outer.url}/ad/master.m3u8?asset=1", "DURATION": 2},
                                                  {"URI": "/ad/master.m3u8?asset=2", "DURATION": 2}]}).encode()
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

    @staticmethod
    def first_segment(playlist):
        """The media playlist up to and including its first segment, then its end."""
        lines, kept, seen_segment = playlist.splitlines(), [], False
        for line in lines:
            if line.startswith("#EXT-X-ENDLIST"):
                continue
            kept.append(line)
            if line.startswith("#EXTINF"):
                seen_segment = True
            elif seen_segment and line and not line.startswith("#"):
                break
        return "\n".join(kept + ["#EXT-X-ENDLIST", ""])

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()
