"""Upgrading a database and the command line around it (docs/deploying.md, "Upgrades"):
`marquee migrate` applies this version's migrations and says which; a database a newer
version migrated is refused by `migrate`, `serve` and `add` with one sentence and exit
status 3, and left as it was; `marquee add` reads a relative path from the current directory."""
import json
import shutil
import sqlite3
import subprocess

import pytest

from cluster_support import PostgreSQL
from conftest import marquee_binary

FUTURE = "v99: from a newer version"


def run(*args, cwd=None, timeout=120):
    return subprocess.run([marquee_binary(), *map(str, args)], capture_output=True, text=True, timeout=timeout, cwd=cwd)


def lines(stdout):
    return [json.loads(line) for line in stdout.splitlines() if line.strip()]


def dump(path):
    """The database's schema and rows as SQL (its bytes may change when SQLite checkpoints its log)."""
    with sqlite3.connect(path) as db:
        return list(db.iterdump())


def test_migrate_applies_once_then_nothing_on_sqlite(tmp_path):
    first = run("migrate", "--data", tmp_path / "data")
    assert first.returncode == 0, first.stderr
    applied = [line for line in lines(first.stdout) if line["event"] == "applied"]
    migrations = [line["migration"] for line in applied]
    assert "v1: assets, overrides, jobs, interstitials, settings" in migrations
    assert "v1: accounts and credentials" in migrations
    assert {line["database"] for line in applied} == {str(tmp_path / "data" / "library.sqlite"), str(tmp_path / "data" / "accounts.sqlite")}
    summary = lines(first.stdout)[-1]
    assert summary["event"] == "migrated" and summary["applied"] == len(applied) and "is up to date" in summary["message"]

    again = run("migrate", "--data", tmp_path / "data")
    assert again.returncode == 0, again.stderr
    assert [line["event"] for line in lines(again.stdout)] == ["migrated"]
    assert lines(again.stdout)[-1]["applied"] == 0 and "nothing to apply" in lines(again.stdout)[-1]["message"]


def test_a_sqlite_library_a_newer_version_migrated_is_refused(tmp_path, media_file):
    data = tmp_path / "data"
    assert run("migrate", "--data", data).returncode == 0
    with sqlite3.connect(data / "library.sqlite") as db:
        db.execute("INSERT INTO grdb_migrations (identifier) VALUES (?)", (FUTURE,))
    before = dump(data / "library.sqlite")
    for args in (["migrate", "--data", data], ["add", "--data", data, "--queue-only", media_file],
                 ["serve", "--data", data, "--port", "0", "--no-samples", "--no-nearby"]):
        result = run(*args)
        assert result.returncode == 3, f"{args[0]}: {result.returncode} {result.stdout} {result.stderr}"
        assert result.stderr.startswith(f"marquee {args[0]}: {data / 'library.sqlite'} was migrated by a newer version of Marquee"), result.stderr
        assert f'"{FUTURE}"' in result.stderr and "an older version does not start on a newer database" in result.stderr
    assert dump(data / "library.sqlite") == before, "a refused database was changed"


def test_migrate_and_the_newer_database_rule_on_postgresql(tmp_path):
    database = PostgreSQL()
    try:
        first = run("migrate", "--data", tmp_path / "data", "--database", database.url, "--json")
        assert first.returncode == 0, first.stderr
        migrations = [line["migration"] for line in lines(first.stdout) if line["event"] == "applied"]
        assert migrations[0].startswith("1: ") and len(migrations) >= 7, migrations
        assert database.psql("marquee", "SELECT count(*) FROM schema_migration") == str(len(migrations))
        again = run("migrate", "--data", tmp_path / "data", "--database", database.url)
        assert again.returncode == 0 and lines(again.stdout)[-1]["applied"] == 0, again.stdout + again.stderr

        # A node on it with no owner yet prints the command that makes one: on the database, not a data folder.
        node = subprocess.Popen([marquee_binary(), "serve", "--data", tmp_path / "node", "--port", "0", "--no-samples", "--no-nearby",
                                 "--no-worker", "--require-sign-in", "--database", database.url], stdout=subprocess.PIPE, text=True)
        try:
            setup = next(event for event in map(json.loads, node.stdout) if event["event"] == "setup")
        finally:
            node.terminate()
            node.wait(timeout=15)
        port = database.url.split(":")[2].split("/")[0]
        assert setup["command"] == f"marquee users add NAME --role owner --database 'postgres://marquee@127.0.0.1:{port}/marquee?sslmode=disable'", setup

        database.psql("marquee", "INSERT INTO schema_migration (version, name) VALUES (99, 'from a newer version')")
        for args in (["migrate"], ["serve", "--port", "0", "--no-samples", "--no-nearby", "--no-worker"]):
            result = run(*args, "--data", tmp_path / "data", "--database", database.url)
            assert result.returncode == 3, f"{args[0]}: {result.returncode} {result.stdout} {result.stderr}"
            assert "was migrated by a newer version of Marquee" in result.stderr and '"99: from a newer version"' in result.stderr, result.stderr
    finally:
        database.stop()


def test_add_reads_a_relative_path_from_the_current_directory(tmp_path, media_file):
    folder = tmp_path / "clips" / "inner"
    folder.mkdir(parents=True)
    shutil.copy(media_file, folder / "here.mp4")
    data = tmp_path / "data"
    result = run("add", "--data", data, "--queue-only", "--json", "inner/here.mp4", "./inner/../inner/here.mp4", cwd=tmp_path / "clips")
    assert result.returncode == 0, result.stderr
    queued = [line for line in lines(result.stdout) if line["event"] == "queued"]
    assert [line["title"] for line in queued] == ["here", "here"]
    with sqlite3.connect(data / "library.sqlite") as db:
        paths = [row[0] for row in db.execute("SELECT sourcePath FROM asset")]
    assert paths == [str(folder / "here.mp4")] * 2, paths
    # A relative path to nothing names the path it looked for.
    missing = run("add", "--data", data, "--queue-only", "nowhere.mp4", cwd=tmp_path / "clips")
    assert missing.returncode == 2 and "nowhere.mp4" in missing.stderr, missing.stderr


@pytest.fixture(scope="module")
def media_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("media") / "clip.mp4"
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=160x90:r=24:d=2",
                    "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", str(path)], check=True)
    return path


def test_a_running_server_keeps_packaging_after_its_binary_is_replaced(tmp_path):
    """An upgrade replaces the program's file while the old server still runs (a package
    manager writes the new file and renames it over the old). The old server's media work
    runs in a child of its own program: started from the path, the child would be the new
    version (or fail to start: the path's link reads "… (deleted)"), so every job failed with
    "A program Marquee uses to prepare media stopped with an error" until a restart. The child
    is started from /proc/self/exe, the file this process runs, so the job finishes."""
    import re
    import time
    import urllib.request

    program = tmp_path / "bin" / "marquee"
    program.parent.mkdir()
    shutil.copy(marquee_binary(), program)
    clip = tmp_path / "clip.mp4"
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=160x90:r=24:d=2",
                    "-c:v", "libx264", "-pix_fmt", "yuv420p", str(clip)], check=True)
    server = subprocess.Popen([str(program), "serve", "--data", str(tmp_path / "data"), "--port", "0", "--no-samples"],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", server.stdout.readline())
        assert match
        base = f"http://127.0.0.1:{match.group(1)}"
        # The "new version": a file renamed over the old one, which cannot do media work.
        replacement = tmp_path / "bin" / "marquee.new"
        replacement.write_text("#!/bin/sh\necho 'a newer marquee' >&2\nexit 1\n")
        replacement.chmod(0o755)
        replacement.rename(program)

        request = urllib.request.Request(base + "/api/assets", method="POST", data=json.dumps({"paths": [str(clip)]}).encode(),
                                         headers={"content-type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as answer:
            assert answer.status in (200, 201, 202)
        deadline, state = time.time() + 120, None
        while time.time() < deadline:
            with urllib.request.urlopen(f"{base}/api/assets", timeout=10) as answer:
                assets = json.loads(answer.read())["assets"]
            state = assets[0] if assets else None
            if state and state["status"] in ("ready", "failed"):
                break
            time.sleep(0.5)
        assert state and state["status"] == "ready", state
    finally:
        server.terminate()
        server.wait(timeout=20)
