"""Download benchmark: a 200-segment VOD stream served by nginx on loopback, fetched in one
run by `marquee download`, by `ffmpeg -i URL -c copy`, and by `yt-dlp -N 8`. Prints wall
times, ratios, and peak RSS of each (from wait4's rusage)."""
import os
import pathlib
import shutil
import socket
import subprocess
import sys
import tempfile
import time

SEGMENTS = 200


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


def main():
    marquee = sys.argv[1]
    work = pathlib.Path(tempfile.mkdtemp(prefix="marquee-bench-"))
    work.chmod(0o755)  # nginx workers run as an unprivileged user
    try:
        stream = work / "stream"
        stream.mkdir()
        subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", f"testsrc2=size=640x360:rate=25:duration={SEGMENTS * 2}",
                        "-f", "lavfi", "-i", f"sine=frequency=440:duration={SEGMENTS * 2}", "-c:v", "libx264", "-preset", "ultrafast",
                        "-b:v", "1500k", "-g", "50", "-sc_threshold", "0", "-c:a", "aac", "-b:a", "128k", "-f", "hls", "-hls_time", "2",
                        "-hls_playlist_type", "vod", "-hls_segment_filename", str(stream / "seg%03d.ts"), str(stream / "index.m3u8")], check=True)
        count = (stream / "index.m3u8").read_text().count("#EXTINF")
        size = sum(f.stat().st_size for f in stream.iterdir()) / 1e6
        port = free_port()
        conf = work / "nginx.conf"
        conf.write_text(f"""
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
  server {{ listen 127.0.0.1:{port}; root {stream}; }}
}}
""")
        nginx = subprocess.Popen(["nginx", "-c", str(conf), "-p", str(work)], stderr=subprocess.DEVNULL)
        for _ in range(50):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        url = f"http://127.0.0.1:{port}/index.m3u8"
        try:
            results = {}
            results["marquee"] = run([marquee, "download", url, "--output", str(work / "marquee"), "--json", "--concurrency", "8"])
            results["ffmpeg"] = run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-i", url, "-c", "copy", str(work / "ffmpeg.ts")])
            results["yt-dlp"] = run(["yt-dlp", "-q", "--no-part", "-N", "8", "--no-cache-dir", "-o", str(work / "ytdlp.%(ext)s"), url])
        finally:
            nginx.terminate()
            nginx.wait()
        print(f"download: {count}-segment VOD stream, {size:.1f} MB, nginx on loopback")
        for name, (seconds, rss) in results.items():
            print(f"  {name:8s} {seconds:7.2f} s   peak RSS {rss:6.1f} MB")
        m = results["marquee"][0]
        print(f"  ratio    marquee is {results['ffmpeg'][0] / m:.1f}x faster than ffmpeg (target >= 3x)")
        print(f"  ratio    marquee is {results['yt-dlp'][0] / m:.1f}x faster than yt-dlp -N 8 (target >= 1.2x)")
        print(f"  memory   marquee peak RSS {results['marquee'][1]:.1f} MB (target < 100 MB)")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
