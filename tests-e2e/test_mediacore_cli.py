"""marquee probe / thumbnails / compose / package on real and damaged media, as a user runs them.

The binary is the debug build (`swift build --show-bin-path`); media is generated with ffmpeg.
Each damaged file must end in output or a clean error exit (1 or 2), never a signal.
"""
import json
import os
import random
import subprocess
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def marquee():
    out = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True, check=True)
    return os.path.join(out.stdout.strip(), "marquee")


@pytest.fixture(scope="module")
def media(tmp_path_factory):
    d = tmp_path_factory.mktemp("media")
    path = d / "clip.mp4"
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y",
                    "-f", "lavfi", "-i", "testsrc2=s=320x180:r=25:d=8",
                    "-f", "lavfi", "-i", "sine=frequency=440:duration=8",
                    "-c:v", "libx264", "-preset", "ultrafast", "-g", "50", "-pix_fmt", "yuv420p",
                    "-c:a", "aac", "-metadata", "title=E2E Clip", str(path)], check=True)
    return path


def run(*args):
    return subprocess.run([marquee(), *map(str, args)], capture_output=True, text=True, timeout=120)


def test_probe_json_reports_tracks_and_title(media):
    result = run("probe", media, "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert [t["type"] for t in report["tracks"]] == ["video", "audio"]
    assert report["tracks"][0]["width"] == 320
    assert any(m.get("identifier") == "title" and m["value"] == "E2E Clip" for m in report["metadata"])


def test_thumbnails_json_lines_give_requested_and_actual_times(media, tmp_path):
    result = run("thumbnails", media, "--at", "1,2.5,7", "--tolerance", "0.5", "--size", "160x0",
                 "--format", "png", "--out", tmp_path, "--json")
    assert result.returncode == 0, result.stderr
    lines = [l for l in map(json.loads, result.stdout.splitlines()) if l["event"] == "thumbnail"]
    assert [l["requested"] for l in lines] == [1, 2.5, 7]
    for line in lines:
        assert abs(line["actual"] - line["requested"]) <= 0.5
        assert os.path.getsize(line["file"]) > 0
        assert line["width"] == 160


def test_compose_and_package(media, tmp_path):
    out = tmp_path / "joined.mp4"
    result = run("compose", "--insert", f"{media}@0-2", "--insert", f"{media}@4-6", "--out", out, "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.splitlines()[-1])["method"] == "streamCopy"
    package = tmp_path / "hls"
    result = run("package", out, "--out", package, "--segment-duration", "2")
    assert result.returncode == 0, result.stderr
    probe = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "stream=codec_type", "-of", "json",
                            str(package / "master.m3u8")], capture_output=True, text=True, check=True)
    kinds = {s["codec_type"] for s in json.loads(probe.stdout)["streams"]}
    assert {"video", "audio"} <= kinds


def test_compose_mixes_music_under_the_clip(media, tmp_path):
    music = tmp_path / "music.m4a"
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=1000:duration=5",
                    "-c:a", "aac", str(music)], check=True)
    out = tmp_path / "with-music.mp4"
    result = run("compose", "--insert", f"{media}@0-4", "--mix", f"{music}@0-2:1", "--out", out, "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.splitlines()[-1])["method"] == "reencode"
    probe = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "stream=codec_type", "-of", "csv=p=0", str(out)],
                           capture_output=True, text=True, check=True)
    assert probe.stdout.split() == ["video", "audio"]  # one mixed audio track

    def loudness(start, duration, band, path=out):
        # Mean volume of one frequency band, from ffmpeg's volumedetect.
        r = subprocess.run(["ffmpeg", "-hide_banner", "-ss", str(start), "-t", str(duration), "-i", str(path), "-vn",
                            "-af", f"bandpass=f={band}:width_type=h:width=100,volumedetect", "-f", "null", "-"],
                           capture_output=True, text=True, check=True)
        return float(next(l for l in r.stderr.splitlines() if "mean_volume" in l).split(":")[1].split()[0])

    assert loudness(1.3, 1.2, 1000) > loudness(0.1, 0.7, 1000) + 20  # the music plays from 1 s…
    assert loudness(3.2, 0.6, 1000) < loudness(1.3, 1.2, 1000) - 20  # …to 3 s
    assert loudness(1.3, 1.2, 440) > -40                             # and the clip's tone goes on under it
    bad = run("compose", "--insert", f"{media}@0-4", "--mix", f"{music}@0-2", "--out", tmp_path / "x.mp4")
    assert bad.returncode != 0 and "SRC@START-END:AT" in bad.stderr

    # Quieter, with fades: the music sits well under its full level.
    soft = tmp_path / "soft.mp4"
    result = run("compose", "--insert", f"{media}@0-4", "--mix", f"{music}@0-2:1", "--mix-volume", "0.2", "--mix-fade", "0.3",
                 "--out", soft, "--json")
    assert result.returncode == 0, result.stderr
    assert loudness(1.3, 1.2, 1000, soft) < loudness(1.3, 1.2, 1000) - 10  # 0.2 is about -14 dB
    assert loudness(1.0, 0.1, 1000, soft) < loudness(1.5, 0.5, 1000, soft) - 6  # fading in


def damaged_copies(source, directory):
    rng = random.Random(4)
    data = source.read_bytes()
    copies = []
    for i in range(25):
        b = bytearray(data)
        kind = i % 5
        if kind == 0:
            for _ in range(rng.randint(5, 2000)):
                j = rng.randrange(len(b)); b[j] ^= 1 << rng.randrange(8)
        elif kind == 1:
            b = b[: rng.randrange(len(b))]
        elif kind == 2:
            b = bytearray()
        elif kind == 3:
            b[: 2048] = bytes(rng.randrange(256) for _ in range(2048))
        name = directory / f"damaged-{i}.{'mkv' if kind == 4 else 'mp4'}"
        name.write_bytes(bytes(b))
        copies.append(name)
    return copies


def test_damaged_files_never_crash_the_commands(media, tmp_path):
    for path in damaged_copies(media, tmp_path):
        for args in (["probe", path, "--json"],
                     ["thumbnails", path, "--at", "0,1,3,100", "--exact", "--out", tmp_path / "thumbs"]):
            result = run(*args)
            assert result.returncode in (0, 1, 2), f"{args}: exit {result.returncode}\n{result.stderr}"
            if result.returncode == 2 and args[0] == "probe":
                assert "failed for" in result.stderr
