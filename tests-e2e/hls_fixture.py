"""A real HLS stream made with FFmpeg, and an HTTP server on loopback that serves it with
byte ranges and injected faults (dropped connections, 500s, 429 + Retry-After, delays).

The stream: five video variants of different sizes and bit rates (fMP4 and MPEG-TS, one
AES-128 encrypted with implicit IVs, one single-file fMP4 with byte ranges), English and
French stereo audio plus an English 6-channel rendition, English WebVTT subtitles, and
I-frame playlists (byte ranges into the video segments) for 360p, 720p and 1080p."""
import http.server
import os
import pathlib
import re
import subprocess
import threading
import time

DURATION = 8
SEGMENT = 2

VIDEOS = [
    # name, width, height, bitrate, kind, declared bandwidth
    ("v360", 640, 360, "300k", "fmp4", 600000),
    ("v480br", 854, 480, "500k", "bytes", 900000),
    ("v540aes", 960, 540, "800k", "aes", 1500000),
    ("v720", 1280, 720, "1200k", "ts", 2200000),
    ("v1080", 1920, 1080, "2500k", "pq", 4500000),
]
KEY = bytes(range(16))


def _ffmpeg(*args):
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", *args], check=True)


def make_stream(root: pathlib.Path) -> pathlib.Path:
    """Writes the stream under root; returns the multivariant playlist path."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "keys").mkdir(exist_ok=True)
    (root / "keys" / "k1.bin").write_bytes(KEY)
    src = ["-f", "lavfi", "-i", f"testsrc2=size=1920x1080:rate=25:duration={DURATION}"]
    for name, w, h, rate, kind, _ in VIDEOS:
        out = root / name
        out.mkdir(exist_ok=True)
        common = [*src, "-vf", f"scale={w}:{h}", "-c:v", "libx264", "-preset", "ultrafast", "-b:v", rate,
                  "-g", str(25 * SEGMENT), "-keyint_min", str(25 * SEGMENT), "-sc_threshold", "0", "-an",
                  "-f", "hls", "-hls_time", str(SEGMENT), "-hls_playlist_type", "vod"]
        if kind in ("fmp4", "pq"):
            extra = ["-color_trc", "smpte2084", "-color_primaries", "bt2020", "-colorspace", "bt2020nc"] if kind == "pq" else []
            _ffmpeg(*common, *extra, "-hls_segment_type", "fmp4", "-hls_fmp4_init_filename", "init.mp4",
                    "-hls_segment_filename", str(out / "seg%03d.m4s"), str(out / "index.m3u8"))
        elif kind == "bytes":
            _ffmpeg(*common, "-hls_segment_type", "fmp4", "-hls_flags", "single_file",
                    "-hls_fmp4_init_filename", "init.mp4", str(out / "index.m3u8"))
        elif kind == "aes":
            info = root / "keyinfo.txt"
            info.write_text(f"../keys/k1.bin\n{root / 'keys' / 'k1.bin'}\n")
            _ffmpeg(*common, "-hls_key_info_file", str(info), "-hls_segment_filename", str(out / "seg%03d.ts"),
                    str(out / "index.m3u8"))
            info.unlink()
        else:
            _ffmpeg(*common, "-hls_segment_filename", str(out / "seg%03d.ts"), str(out / "index.m3u8"))
    for name, freq, channels in [("aud-en", 440, 2), ("aud-fr", 660, 2), ("aud-en51", 330, 6)]:
        out = root / name
        out.mkdir(exist_ok=True)
        _ffmpeg("-f", "lavfi", "-i", f"sine=frequency={freq}:duration={DURATION}", "-ac", str(channels), "-c:a", "aac",
                "-b:a", "128k" if channels == 2 else "256k", "-f", "hls", "-hls_time", str(SEGMENT), "-hls_playlist_type", "vod",
                "-hls_segment_type", "fmp4", "-hls_fmp4_init_filename", "init.mp4",
                "-hls_segment_filename", str(out / "seg%03d.m4s"), str(out / "index.m3u8"))
    subs = root / "subs-en"
    subs.mkdir(exist_ok=True)
    (subs / "en.vtt").write_text("WEBVTT\n\n00:00:00.000 --> 00:00:03.000\nHello from Marquee\n\n"
                                 "00:00:04.000 --> 00:00:07.000\nSecond cue\n")
    (subs / "index.m3u8").write_text(f"#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:{DURATION}\n"
                                     f"#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:{DURATION}.0,\nen.vtt\n#EXT-X-ENDLIST\n")
    lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-INDEPENDENT-SEGMENTS",
             '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,CHANNELS="2",URI="aud-en/index.m3u8"',
             '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Français",LANGUAGE="fr",AUTOSELECT=YES,CHANNELS="2",URI="aud-fr/index.m3u8"',
             '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud51",NAME="English 5.1",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,CHANNELS="6",URI="aud-en51/index.m3u8"',
             '#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,URI="subs-en/index.m3u8"']
    for name, w, h, _, kind, bandwidth in VIDEOS:
        video_range = "PQ" if kind == "pq" else "SDR"
        codecs = "avc1.640028,mp4a.40.2"
        lines.append(f'#EXT-X-STREAM-INF:BANDWIDTH={bandwidth},AVERAGE-BANDWIDTH={bandwidth * 8 // 10},CODECS="{codecs}",'
                     f'RESOLUTION={w}x{h},FRAME-RATE=25.000,VIDEO-RANGE={video_range},AUDIO="aud",SUBTITLES="subs"')
        lines.append(f"{name}/index.m3u8")
    # I-frame playlists: 720p and 1080p point into their variant's own segments; the 360p one
    # lives in a folder of its own (still pointing into v360's segments).
    for variant, playlist, w, h, video_range in [("v720", root / "v720" / "iframes.m3u8", 1280, 720, "SDR"),
                                                 ("v1080", root / "v1080" / "iframes.m3u8", 1920, 1080, "PQ"),
                                                 ("v360", root / "iframes-360" / "index.m3u8", 640, 360, "SDR")]:
        bandwidth = write_iframe_playlist(root / variant, playlist)
        uri = playlist.relative_to(root).as_posix()
        lines.append(f'#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH={bandwidth},CODECS="avc1.640028",RESOLUTION={w}x{h},'
                     f'VIDEO-RANGE={video_range},URI="{uri}"')
    lines.append('#EXT-X-STREAM-INF:BANDWIDTH=4900000,AVERAGE-BANDWIDTH=3900000,CODECS="avc1.640028,mp4a.40.2",'
                 'RESOLUTION=1920x1080,FRAME-RATE=25.000,VIDEO-RANGE=PQ,AUDIO="aud51",SUBTITLES="subs"')
    lines.append("v1080/index.m3u8")
    master = root / "master.m3u8"
    master.write_text("\n".join(lines) + "\n")
    # A clip with a mid-roll interstitial whose asset is the 720p variant.
    clip = (root / "v360" / "index.m3u8").read_text().replace("#EXTINF", "#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00Z\n#EXTINF", 1)
    clip = clip.replace("#EXT-X-ENDLIST", '#EXT-X-DATERANGE:ID="ad1",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T00:00:04Z",'
                        'X-ASSET-URI="../v720/index.m3u8",X-RESTRICT="SKIP,JUMP"\n#EXT-X-ENDLIST')
    (root / "v360" / "with-ad.m3u8").write_text(clip)
    # An ad that is itself a multivariant stream with separate audio, and an asset list
    # (HLS Interstitials' X-ASSET-LIST) naming it again plus the byte-range variant.
    (root / "ad-mv.m3u8").write_text("\n".join([
        "#EXTM3U", "#EXT-X-VERSION:7",
        '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="ada",NAME="Français",LANGUAGE="fr",DEFAULT=YES,AUTOSELECT=YES,CHANNELS="2",URI="aud-fr/index.m3u8"',
        '#EXT-X-STREAM-INF:BANDWIDTH=700000,CODECS="avc1.640028,mp4a.40.2",RESOLUTION=640x360,AUDIO="ada"', "v360/index.m3u8",
        '#EXT-X-STREAM-INF:BANDWIDTH=2300000,CODECS="avc1.640028,mp4a.40.2",RESOLUTION=1280x720,AUDIO="ada"', "v720/index.m3u8",
    ]) + "\n")
    (root / "ads.json").write_text('{"ASSETS": [{"URI": "ad-mv.m3u8", "DURATION": 8.0}, {"URI": "v480br/index.m3u8", "DURATION": 8.0}], '
                                   '"X-CAMPAIGN": "spring"}')
    clip = (root / "v360" / "with-ad.m3u8").read_text().replace(
        'X-ASSET-URI="../v720/index.m3u8"', 'X-ASSET-URI="../ad-mv.m3u8"').replace(
        "#EXT-X-ENDLIST", '#EXT-X-DATERANGE:ID="ad2",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T00:00:06Z",'
        'X-ASSET-LIST="../ads.json"\n#EXT-X-ENDLIST')
    (root / "v360" / "with-ads.m3u8").write_text(clip)
    (root / "v360" / "with-bad-list.m3u8").write_text(clip.replace("../ads.json", "../subs-en/en.vtt"))
    # A "key" far larger than any AES key: a download must stop at its size limit.
    (root / "keys" / "huge.bin").write_bytes(bytes(200_000))
    (root / "v540aes" / "huge-key.m3u8").write_text((root / "v540aes" / "index.m3u8").read_text().replace("../keys/k1.bin", "../keys/huge.bin"))
    # Playlists a downloader must refuse.
    (root / "live.m3u8").write_text("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\nv360/seg000.m4s\n")
    (root / "fairplay.m3u8").write_text('#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-PLAYLIST-TYPE:VOD\n'
                                        '#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://key",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1"\n'
                                        '#EXTINF:2,\nv360/seg000.m4s\n#EXT-X-ENDLIST\n')
    return master


def iframe_ranges(segment: pathlib.Path):
    """(offset, length) of the segment's first video frame, a keyframe, from the segment's
    start: container headers (PAT/PMT, or moof) and the whole frame."""
    probed, skip = segment, 0
    if segment.suffix == ".m4s":  # a fragment is read after its init section
        init = (segment.parent / "init.mp4").read_bytes()
        probed = segment.with_suffix(".probe.mp4")
        probed.write_bytes(init + segment.read_bytes())
        skip = len(init)
    out = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v", "-show_entries", "packet=pos,size,flags",
                          "-of", "csv=p=0", str(probed)], capture_output=True, text=True, check=True).stdout.split()
    if probed != segment:
        probed.unlink()
    packets = [tuple(line.split(",")) for line in out if line]
    size, pos, flags = int(packets[0][0]), int(packets[0][1]) - skip, packets[0][2]
    assert flags.startswith("K"), f"{segment} does not start with a keyframe"
    if segment.suffix == ".ts":
        return 0, int(packets[1][1])  # up to the TS packet where the next frame starts
    return 0, pos + size


def write_iframe_playlist(variant: pathlib.Path, playlist: pathlib.Path) -> int:
    """An EXT-X-I-FRAMES-ONLY playlist with byte ranges into `variant`'s segments; returns
    its peak bit rate."""
    playlist.parent.mkdir(exist_ok=True)
    prefix = "" if playlist.parent == variant else f"../{variant.name}/"
    segments = sorted(variant.glob("seg*.ts")) or sorted(variant.glob("seg*.m4s"))
    lines = ["#EXTM3U", "#EXT-X-VERSION:7", f"#EXT-X-TARGETDURATION:{SEGMENT}", "#EXT-X-PLAYLIST-TYPE:VOD", "#EXT-X-I-FRAMES-ONLY"]
    if segments[0].suffix == ".m4s":
        lines.append(f'#EXT-X-MAP:URI="{prefix}init.mp4"')
    peak = 0
    for segment in segments:
        offset, length = iframe_ranges(segment)
        peak = max(peak, length * 8 // SEGMENT)
        lines += [f"#EXTINF:{SEGMENT}.0,", f"#EXT-X-BYTERANGE:{length}@{offset}", prefix + segment.name]
    playlist.write_text("\n".join(lines + ["#EXT-X-ENDLIST"]) + "\n")
    return peak


class Faults:
    """Rules by path regex: each takes one of 'drop', '500', '429', 'truncate-always', '404'
    and a count of requests it applies to; plus a per-request delay."""

    def __init__(self):
        self.lock = threading.Lock()
        self.rules = []  # [pattern, action, remaining]
        self.delay = 0.0
        self.log = []  # (path, range header)

    def add(self, pattern, action, count=1):
        with self.lock:
            self.rules.append([re.compile(pattern), action, count])

    def take(self, path):
        with self.lock:
            for rule in self.rules:
                if rule[2] != 0 and rule[0].search(path):
                    rule[2] -= 1
                    return rule[1]
        return None

    def requests(self, pattern):
        with self.lock:
            return [entry for entry in self.log if re.search(pattern, entry[0])]


def serve(root: pathlib.Path, faults: Faults):
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def do_GET(self):
            path = self.path.split("?", 1)[0]
            with faults.lock:
                faults.log.append((path, self.headers.get("Range")))
            if faults.delay:
                time.sleep(faults.delay)
            action = faults.take(path)
            file = (root / path.lstrip("/")).resolve()
            if action == "404" or not str(file).startswith(str(root.resolve())) or not file.is_file():
                return self._plain(404, b"not found")
            if action == "500":
                return self._plain(500, b"injected failure")
            if action == "429":
                self.send_response(429)
                self.send_header("Retry-After", "1")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            body = file.read_bytes()
            status = 200
            rng = self.headers.get("Range")
            if rng:
                m = re.match(r"bytes=(\d+)-(\d+)", rng)
                start, end = int(m.group(1)), min(int(m.group(2)), len(body) - 1)
                body = body[start:end + 1]
                status = 206
            self.send_response(status)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Content-Type", "application/octet-stream")
            if status == 206:
                self.send_header("Content-Range", f"bytes {start}-{end}/{file.stat().st_size}")
            self.end_headers()
            if action in ("drop", "truncate-always"):
                self.wfile.write(body[: len(body) // 2])
                self.wfile.flush()
                self.close_connection = True
                self.connection.shutdown(2)
                return
            self.wfile.write(body)

        def _plain(self, code, text):
            self.send_response(code)
            self.send_header("Content-Length", str(len(text)))
            self.end_headers()
            self.wfile.write(text)

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    httpd.handle_error = lambda request, address: None  # clients that vanish (SIGKILL) are expected
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd
