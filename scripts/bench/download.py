"""Download benchmark: a 200-segment VOD stream served by nginx on loopback, fetched in one
run by `marquee download`, by `ffmpeg -i URL -c copy`, and by `yt-dlp -N 8`.

Two network profiles, both nginx on 127.0.0.1:

- `loopback`: nothing added. Every tool runs at the machine's memory-copy ceiling, so this
  measures process start-up and copying, not how a downloader uses a network.
- `first-byte +20 ms`: nginx holds every response for 20 ms before its first byte
  (the echo module's `echo_sleep`, then an internal redirect to the static file, so
  Content-Length, ranges and sendfile are unchanged). That is a modest round trip to a
  nearby CDN; netem is not available in this kernel, so the delay is applied by the server.

Each tool runs RUNS times per profile, interleaved, and the median is reported. Every
output is checked (Marquee's bundle must hold every segment byte-for-byte) so a broken
download can never look fast. Peak RSS comes from wait4's rusage. The issue's targets are
judged on the latency profile; the loopback ratios are printed beside them."""
import os
import pathlib
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

SEGMENTS = 200
RUNS = int(os.environ.get("RUNS", "3"))
LATENCY_MS = int(os.environ.get("LATENCY_MS", "20"))
ECHO_MODULE = "/usr/lib/nginx/modules/ngx_http_echo_module.so"


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def run(cmd, cwd=None):
    """Runs cmd; returns (seconds, peak RSS in MB)."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{cmd[0]} failed: {proc.stderr.read().decode(errors='replace')[-2000:]}")
    return elapsed, usage.ru_maxrss / 1024


def make_stream(stream):
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", f"testsrc2=size=640x360:rate=25:duration={SEGMENTS * 2}",
                    "-f", "lavfi", "-i", f"sine=frequency=440:duration={SEGMENTS * 2}", "-c:v", "libx264", "-preset", "ultrafast",
                    "-b:v", "1500k", "-g", "50", "-sc_threshold", "0", "-c:a", "aac", "-b:a", "128k", "-f", "hls", "-hls_time", "2",
                    "-hls_playlist_type", "vod", "-hls_segment_filename", str(stream / "seg%03d.ts"), str(stream / "index.m3u8")], check=True)


def start_nginx(work, stream, ports):
    """One nginx, one server per profile: port -> first-byte delay in ms."""
    servers = []
    for port, delay in ports.items():
        if delay:
            servers.append(f"""
  server {{
    listen 127.0.0.1:{port};
    location / {{ echo_sleep {delay / 1000:.3f}; echo_exec /files$uri; }}
    location /files/ {{ internal; alias {stream}/; }}
  }}""")
        else:
            servers.append(f"  server {{ listen 127.0.0.1:{port}; root {stream}; }}")
    conf = work / "nginx.conf"
    conf.write_text(f"""
load_module {ECHO_MODULE};
worker_processes 2;
daemon off;
pid {work}/nginx.pid;
error_log {work}/nginx-error.log;
events {{ worker_connections 256; }}
http {{
  access_log off;
  sendfile on;
  keepalive_requests 10000;
  types {{ application/vnd.apple.mpegurl m3u8; video/mp2t ts; }}
{chr(10).join(servers)}
}}
""")
    nginx = subprocess.Popen(["nginx", "-c", str(conf), "-p", str(work)], stderr=subprocess.PIPE)
    for port in ports:
        for _ in range(50):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if nginx.poll() is not None:
                    sys.exit(f"nginx did not start: {nginx.stderr.read().decode(errors='replace')}")
                time.sleep(0.1)
    return nginx


def check_outputs(work, stream, outputs):
    """Every tool must have produced what it claims: Marquee's bundle byte-equal per segment,
    the others a non-trivial file."""
    bundle = outputs["marquee"]
    segments = sorted(stream.glob("seg*.ts"))
    # The bundle's entry is BundleLayout.multivariantPlaylist (HLS/Bundle/BundleLayout.swift).
    media = bundle / "master.m3u8"
    if not media.exists():
        sys.exit(f"marquee left no bundle playlist ({media} is missing)")
    copied = sorted(p for p in bundle.rglob("seg-*.ts"))
    if len(copied) != len(segments) or any(a.read_bytes() != b.read_bytes() for a, b in zip(segments, copied)):
        sys.exit(f"marquee's bundle does not hold the {len(segments)} source segments byte for byte")
    for name in ("ffmpeg", "yt-dlp"):
        out = outputs[name]
        if not out.exists() or out.stat().st_size < 0.9 * sum(s.stat().st_size for s in segments):
            sys.exit(f"{name} produced no complete output ({out})")


def main():
    marquee = sys.argv[1]
    if not os.path.exists(ECHO_MODULE):
        sys.exit(f"{ECHO_MODULE} is missing: install libnginx-mod-http-echo (scripts/setup.sh --test does)")
    work = pathlib.Path(tempfile.mkdtemp(prefix="marquee-bench-"))
    work.chmod(0o755)  # nginx workers run as an unprivileged user
    try:
        stream = work / "stream"
        stream.mkdir()
        make_stream(stream)
        count = (stream / "index.m3u8").read_text().count("#EXTINF")
        size = sum(f.stat().st_size for f in stream.iterdir()) / 1e6
        profiles = {"loopback": (free_port(), 0), f"first-byte +{LATENCY_MS} ms": (free_port(), LATENCY_MS)}
        nginx = start_nginx(work, stream, {port: delay for port, delay in profiles.values()})
        tools = {
            "marquee": lambda url, out: [marquee, "download", url, "--output", str(out), "--json", "--concurrency", "8"],
            "ffmpeg": lambda url, out: ["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-i", url, "-c", "copy", str(out)],
            "yt-dlp": lambda url, out: ["yt-dlp", "-q", "--no-part", "-N", "8", "--no-cache-dir", "-o", str(out), url],
        }
        results = {p: {t: [] for t in tools} for p in profiles}
        try:
            for profile, (port, _) in profiles.items():
                url = f"http://127.0.0.1:{port}/index.m3u8"
                for attempt in range(RUNS):
                    outputs = {"marquee": work / "marquee", "ffmpeg": work / "ffmpeg.ts", "yt-dlp": work / "ytdlp.ts"}
                    for name, command in tools.items():
                        out = outputs[name]
                        shutil.rmtree(out, ignore_errors=True) if out.is_dir() else out.unlink(missing_ok=True)
                        results[profile][name].append(run(command(url, out)))
                    if attempt == 0:
                        check_outputs(work, stream, outputs)
        finally:
            nginx.terminate()
            nginx.wait()

        print(f"download: {count}-segment VOD stream, {size:.1f} MB, nginx on loopback, median of {RUNS} runs")
        medians = {}
        for profile, by_tool in results.items():
            print(f"  profile: {profile}")
            for name, runs in by_tool.items():
                seconds = statistics.median(r[0] for r in runs)
                rss = max(r[1] for r in runs)
                medians[(profile, name)] = (seconds, rss)
                spread = f"{min(r[0] for r in runs):.2f}-{max(r[0] for r in runs):.2f}"
                print(f"    {name:8s} {seconds:7.2f} s  (range {spread} s)   peak RSS {rss:6.1f} MB")
            m = medians[(profile, "marquee")][0]
            print(f"    ratio    marquee is {medians[(profile, 'ffmpeg')][0] / m:.1f}x faster than ffmpeg, "
                  f"{medians[(profile, 'yt-dlp')][0] / m:.1f}x faster than yt-dlp -N 8")
        judged = list(profiles)[1]
        m = medians[(judged, "marquee")][0]
        vs_ffmpeg = medians[(judged, "ffmpeg")][0] / m
        vs_ytdlp = medians[(judged, "yt-dlp")][0] / m
        rss = max(medians[(p, "marquee")][1] for p in profiles)
        verdict = lambda ok: "met" if ok else "MISSED"
        print(f"  targets ({judged}):")
        print(f"    vs ffmpeg  {vs_ffmpeg:5.1f}x  (target >= 3x)    {verdict(vs_ffmpeg >= 3)}")
        print(f"    vs yt-dlp  {vs_ytdlp:5.1f}x  (target >= 1.2x)  {verdict(vs_ytdlp >= 1.2)}")
        print(f"    marquee peak RSS {rss:.1f} MB  (target < 100 MB)  {verdict(rss < 100)}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
