"""Cluster benchmarks (see cluster.sh): ingest with one vs two workers on PostgreSQL, and
segments through nginx balancing two nodes vs nginx serving the files itself. Loopback only."""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests-e2e"))
from cluster_support import Balancer, PostgreSQL, free_port  # noqa: E402

BIN = os.environ["MARQUEE_BIN"]
FILES = int(os.environ.get("FILES", "8"))
SECONDS = int(os.environ.get("CLIP_SECONDS", "20"))
DURATION = int(os.environ.get("DURATION", "5"))


def clips(folder):
    paths = []
    for index in range(FILES):
        path = f"{folder}/clip-{index}.mp4"
        subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                        f"testsrc2=size=640x360:rate=24:duration={SECONDS}", "-f", "lavfi", "-i", f"sine=duration={SECONDS}",
                        "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", path], check=True)
        paths.append(path)
    return paths


def ingest(folder, paths, workers):
    database = PostgreSQL()
    media = f"{folder}/media-{workers}"
    processes = []
    try:
        subprocess.run([BIN, "add", "--data", f"{folder}/cli-{workers}", "--database", database.url, "--media", media,
                        "--queue-only"] + paths, check=True, capture_output=True)
        start = time.time()
        for index in range(workers):
            processes.append(subprocess.Popen([BIN, "worker", "--data", f"{folder}/w{workers}-{index}", "--database", database.url,
                                               "--media", media, "--name", f"w{index}"],
                                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        while True:
            states = database.psql("marquee", "SELECT string_agg(state, ',') FROM ingest_job").split(",")
            if all(s in ("succeeded", "failed") for s in states):
                break
            if time.time() - start > 900:
                raise SystemExit("ingest did not finish in 15 minutes")
            time.sleep(0.2)
        elapsed = time.time() - start
        attempts = int(database.psql("marquee", "SELECT sum(attempts) FROM ingest_job"))
        owners = database.psql("marquee", "SELECT count(DISTINCT lease_owner) FROM ingest_job")
        failed = states.count("failed")
        return elapsed, attempts, failed, media, database
    finally:
        for process in processes:
            process.terminate()
            process.wait(timeout=10)


def wrk(url):
    output = subprocess.run(["wrk", "-t2", "-c16", f"-d{DURATION}s", url], capture_output=True, text=True, check=True).stdout
    return float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))


def main():
    folder = tempfile.mkdtemp(prefix="marquee-cluster-bench-")
    os.chmod(folder, 0o755)  # nginx workers run unprivileged and read the media folder
    databases = []
    try:
        paths = clips(folder)
        results = {}
        for workers in (1, 2):
            elapsed, attempts, failed, media, database = ingest(folder, paths, workers)
            databases.append(database)
            results[workers] = (elapsed, attempts, failed, media, database)
            print(f"ingest  {workers} worker{'s' if workers > 1 else ' '}: {FILES} files in {elapsed:6.1f} s = "
                  f"{FILES / elapsed * 60:6.1f} files/min, {attempts} job attempts, {failed} failed")
        one, two = results[1][0], results[2][0]
        print(f"ingest  speed-up two vs one worker: {one / two:.2f}x (attempts {results[2][1]} for {FILES} files: "
              f"{'shared, not duplicated' if results[2][1] == FILES else 'some work repeated'})")

        # Segment serving from the two-worker library.
        _, _, _, media, database = results[2]
        nodes = []
        for name in ("a", "b"):
            process = subprocess.Popen([BIN, "serve", "--data", f"{folder}/node-{name}", "--port", "0", "--no-samples", "--no-worker",
                                        "--database", database.url, "--media", media], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            port = int(re.search(r":(\d+)/", process.stdout.readline()).group(1))
            nodes.append((process, port))
        balancer = Balancer([port for _, port in nodes])
        asset = sorted(p.name for p in Path(media).iterdir())[0]
        segment = next(p for p in sorted(Path(media, asset).rglob("*.m4s")))
        relative = segment.relative_to(media)
        direct_port = free_port()
        direct = tempfile.mkdtemp(prefix="marquee-cluster-nginx-direct-")
        Path(direct, "nginx.conf").write_text(f"""
worker_processes 1; daemon off; pid {direct}/nginx.pid; error_log {direct}/error.log;
events {{ worker_connections 256; }}
http {{ access_log off; client_body_temp_path {direct}/body; proxy_temp_path {direct}/proxy;
  fastcgi_temp_path {direct}/fastcgi; uwsgi_temp_path {direct}/uwsgi; scgi_temp_path {direct}/scgi;
  server {{ listen 127.0.0.1:{direct_port}; location /media/ {{ alias {media}/; }} }} }}
""")
        nginx = subprocess.Popen(["nginx", "-p", direct, "-c", f"{direct}/nginx.conf"], stderr=subprocess.DEVNULL)
        time.sleep(1)
        try:
            through = wrk(f"{balancer.url}/media/{relative}")
            itself = wrk(f"http://127.0.0.1:{direct_port}/media/{relative}")
            print(f"segments through nginx → 2 nodes: {through:9.0f} req/s")
            print(f"segments from nginx directly:     {itself:9.0f} req/s")
            print(f"segments ratio (cluster / nginx): {through / itself:.2f}")
        finally:
            nginx.terminate()
            nginx.wait(timeout=10)
            balancer.stop()
            for process, _ in nodes:
                process.terminate()
                process.wait(timeout=10)
            shutil.rmtree(direct, ignore_errors=True)
    finally:
        for database in databases:
            database.stop()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
