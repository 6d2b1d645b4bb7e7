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
