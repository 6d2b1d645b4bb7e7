"""`marquee download` against a real FFmpeg-made HLS stream on a loopback server with
injected faults: variant choice by predicate, auxiliary optimisation, AES-128, byte
ranges, retries, truncation, SIGKILL + resume, and refusals."""
import filecmp
import json
import os
import pathlib
import signal
import subprocess
import time

import pytest

import hls_fixture

ROOT = pathlib.Path(__file__).resolve().parent.parent


def binary():
    out = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True, check=True)
    return str(pathlib.Path(out.stdout.strip()) / "marquee")


MARQUEE = binary()


@pytest.fixture(scope="module")
def stream(tmp_path_factory):
    root = tmp_path_factory.mktemp("stream")
    hls_fixture.make_stream(root)
    return root


@pytest.fixture
def server(stream):
    faults = hls_fixture.Faults()
    httpd = hls_fixture.serve(stream, faults)
    base = f"http://127.0.0.1:{httpd.server_address[1]}"
    yield base, faults
    httpd.shutdown()


def download(*args, timeout=180):
    r = subprocess.run([MARQUEE, "download", *args, "--json"], capture_output=True, text=True, timeout=timeout)
    events = [json.loads(line) for line in r.stdout.splitlines() if line.startswith("{")]
    return r, events


def plan_of(events):
    return next(e for e in events if e["event"] == "plan")["items"]


def videos(events):
    return [i["url"].split("/")[-2] for i in plan_of(events) if i["role"] == "video"]


@pytest.mark.parametrize("predicate,expected", [
    ("peakBitRate < 2000000", "v540aes"),
    ('videoAttributes.videoRange == "PQ"', "v1080"),
    ("videoAttributes.presentationSize.height <= 480", "v480br"),
    ("peakBitRate < 1000000 AND videoAttributes.presentationSize.width >= 800", "v480br"),
    ("peakBitRate > 99000000", None),
])
def test_predicate_picks_the_documented_variant(server, tmp_path, predicate, expected):
    base, _ = server
    r, events = download(f"{base}/master.m3u8", "--prefer", predicate, "--output", str(tmp_path / "b"))
    if expected is None:
        assert r.returncode != 0
        assert "no variant" in r.stderr
        return
    assert r.returncode == 0, r.stderr
    assert videos(events) == [expected]


def test_no_qualifier_takes_highest_bandwidth_and_first_matching_qualifier_wins(server, tmp_path):
    base, _ = server
    r, events = download(f"{base}/master.m3u8", "--output", str(tmp_path / "a"))
    assert r.returncode == 0, r.stderr
    assert videos(events) == ["v1080"]
    audio = [i for i in plan_of(events) if i["role"] == "audio"]
    assert [(a["language"], a["channels"]) for a in audio] == [("en", "6")]  # the 4.9 Mb/s variant uses aud51
    r, events = download(f"{base}/master.m3u8", "--prefer", "peakBitRate > 99000000", "--prefer", "peakBitRate < 700000",
                         "--prefer", "peakBitRate < 3000000", "--output", str(tmp_path / "b"))
    assert r.returncode == 0, r.stderr
    assert videos(events) == ["v360"]


def test_bad_predicate_names_the_column(server, tmp_path):
    base, _ = server
    r, _ = download(f"{base}/master.m3u8", "--prefer", "peakBitRate < 5000000 AND videoAttributes.colour == 1",
                    "--output", str(tmp_path / "b"))
    assert r.returncode == 2
    assert "column 27" in r.stderr and "videoAttributes.colour" in r.stderr


def test_primary_plus_auxiliary_downloads_no_second_video(server, stream, tmp_path):
    base, faults = server
    out = tmp_path / "bundle"
    r, events = download(f"{base}/master.m3u8", "--prefer", 'videoAttributes.videoRange == "PQ" AND peakBitRate < 4600000',
                         "--audio", "en,fr", "--subtitles", "en", "--auxiliary", "peakBitRate > 4600000; audio=en",
                         "--title", "Flight", "--output", str(out))
    assert r.returncode == 0, r.stderr
    assert videos(events) == ["v1080"]
    assert next(e for e in events if e["event"] == "plan")["sharedVideo"] == [True]
    roles = sorted((i["role"], i["language"], i["channels"]) for i in plan_of(events) if i["role"] != "video")
    assert roles == [("audio", "en", "2"), ("audio", "en", "6"), ("audio", "fr", "2"), ("iFrames", None, None), ("subtitles", "en", None)]
    # Each video segment was fetched once (the I-frame playlist points into them), and no other variant's media at all.
    segs = faults.requests(r"^/v1080/seg")
    assert len(segs) == len({p for p, _ in segs}) == 4
    assert not faults.requests(r"^/v(360|480br|540aes|720)/")
    # The bundle: local multivariant playlist with both declarations of the one video.
    master = (out / "master.m3u8").read_text()
    assert master.count("#EXT-X-STREAM-INF") == 2 and "http" not in master
    assert master.count("#EXT-X-I-FRAME-STREAM-INF") == 1 and "VIDEO-RANGE=PQ" in master
    iframes = next(i["folder"] for i in plan_of(events) if i["role"] == "iFrames")
    assert_same_frames(out / iframes / "index.m3u8", stream / "v1080" / "iframes.m3u8")
    assert master.count("#EXT-X-MEDIA:TYPE=AUDIO") == 3 and "TYPE=SUBTITLES" in master
    meta = json.loads((out / "metadata.json").read_text())
    assert meta["title"] == "Flight" and meta["sourceURL"] == f"{base}/master.m3u8"
    assert {i["folder"] for i in meta["items"]} == {p.name for p in out.iterdir() if p.is_dir()}
    assert meta["totalBytes"] == sum(f.stat().st_size for f in out.rglob("*") if f.is_file() and f.parent != out and f.suffix != ".m3u8")
    assert not (out / ".marquee-download").exists()
    # Clear segments are stored byte for byte.
    video_folder = next(i["folder"] for i in meta["items"] if i["role"] == "video")
    assert filecmp.cmp(out / video_folder / "seg-00001.m4s", stream / "v1080" / "seg000.m4s", shallow=False)
    # ffprobe plays the bundle.
    probe = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "stream=codec_type", "-of", "json", str(out / "master.m3u8")],
                           capture_output=True, text=True, timeout=60)
    assert probe.returncode == 0, probe.stderr
    kinds = [s["codec_type"] for s in json.loads(probe.stdout)["streams"]]
    assert "video" in kinds and "audio" in kinds


def test_without_optimisation_an_auxiliary_brings_its_own_video(server, tmp_path):
    base, _ = server
    r, events = download(f"{base}/master.m3u8", "--prefer", "videoAttributes.presentationSize.height == 720",
                         "--auxiliary", "videoAttributes.presentationSize.height == 360; audio=fr",
                         "--no-optimize-auxiliary", "--output", str(tmp_path / "b"))
    assert r.returncode == 0, r.stderr
    assert sorted(videos(events)) == ["v360", "v720"]
    r, events = download(f"{base}/master.m3u8", "--prefer", "videoAttributes.presentationSize.height == 720",
                         "--auxiliary", "videoAttributes.presentationSize.height == 360; audio=fr", "--output", str(tmp_path / "c"))
    assert r.returncode == 0, r.stderr
    assert sorted(videos(events)) == ["v360", "v720"]  # no variant of v720's video matches height 360


def test_aes128_segments_are_stored_decrypted(server, stream, tmp_path):
    base, faults = server
    out = tmp_path / "aes"
    r, _ = download(f"{base}/master.m3u8", "--variant", "v540aes/index.m3u8", "--audio", "en", "--output", str(out))
    assert r.returncode == 0, r.stderr
    folder = next(p for p in out.iterdir() if p.name.startswith("video-"))
    playlist = (folder / "index.m3u8").read_text()
    assert "EXT-X-KEY" not in playlist
    first = (folder / "seg-00001.ts").read_bytes()
    assert first[0] == 0x47 and first[188] == 0x47  # MPEG-TS sync bytes: clear
    # Exactly the source segment decrypted with its key and implicit IV (media sequence 0).
    from cryptography.hazmat.primitives import padding
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
    decryptor = Cipher(algorithms.AES(hls_fixture.KEY), modes.CBC(bytes(16))).decryptor()
    padded = decryptor.update((stream / "v540aes" / "seg000.ts").read_bytes()) + decryptor.finalize()
    unpadder = padding.PKCS7(128).unpadder()
    assert first == unpadder.update(padded) + unpadder.finalize()
    assert len(faults.requests(r"^/keys/k1.bin")) == 1
    probe = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0", str(folder / "index.m3u8")],
                           capture_output=True, text=True, timeout=60)
    assert probe.returncode == 0 and "h264" in probe.stdout, probe.stderr


def test_byte_ranges_are_merged_and_kept(server, stream, tmp_path):
    base, faults = server
    out = tmp_path / "br"
    r, _ = download(f"{base}/master.m3u8", "--variant", "v480br/index.m3u8", "--output", str(out))
    assert r.returncode == 0, r.stderr
    source = (stream / "v480br" / "index.m3u8").read_text()
    segment_count = source.count("#EXTINF")
    ranged = [entry for entry in faults.requests(r"^/v480br/") if entry[1]]
    assert 1 <= len(ranged) < segment_count  # init + one merged request, not one per segment
    folder = next(p for p in out.iterdir() if p.name.startswith("video-"))
    assert "#EXT-X-BYTERANGE" in (folder / "index.m3u8").read_text()
    probe = subprocess.run(["ffprobe", "-v", "error", "-count_packets", "-show_entries", "stream=nb_read_packets", "-of", "csv=p=0",
                            str(folder / "index.m3u8")], capture_output=True, text=True, timeout=60)
    assert probe.returncode == 0, probe.stderr
    assert int(probe.stdout.split()[0]) == hls_fixture.DURATION * 25


def test_faults_are_retried_and_results_are_intact(server, stream, tmp_path):
    base, faults = server
    faults.add(r"^/v720/seg001", "drop", 2)
    faults.add(r"^/v720/seg002", "500", 2)
    faults.add(r"^/aud-en/seg001", "429", 1)
    faults.add(r"^/v720/seg003", "drop", 1)
    out = tmp_path / "faults"
    r, events = download(f"{base}/master.m3u8", "--variant", "v720/index.m3u8", "--audio", "en", "--output", str(out))
    assert r.returncode == 0, r.stderr
    retries = [e for e in events if e["event"] == "retry"]
    assert len(retries) >= 6
    assert any("HTTP 429" in e["reason"] for e in retries)
    assert any(e["delay"] >= 1 for e in retries if "429" in e["reason"])  # Retry-After honoured
    folder = next(p for p in out.iterdir() if p.name.startswith("video-"))
    for i in range(4):
        assert filecmp.cmp(folder / f"seg-{i + 1:05d}.ts", stream / "v720" / f"seg{i:03d}.ts", shallow=False)
    progress = [e for e in events if e["event"] == "progress"]
    assert progress[-1]["phase"] == "finished" and progress[-1]["fraction"] == 1
    assert all(a["bytes"] <= b["bytes"] for a, b in zip(progress, progress[1:]))


def test_truncated_responses_are_never_stored(server, tmp_path):
    base, faults = server
    faults.add(r"^/v720/seg002", "truncate-always", -1)
    out = tmp_path / "trunc"
    r, events = download(f"{base}/master.m3u8", "--variant", "v720/index.m3u8", "--output", str(out), "--concurrency", "2")
    assert r.returncode == 1
    assert "/v720/seg002.ts" in r.stderr and "gave up" in r.stderr
    folder = next(p for p in out.iterdir() if p.name.startswith("video-"))
    assert not (folder / "seg-00003.ts").exists()
    assert not (out / "metadata.json").exists()


def test_missing_segment_fails_naming_the_url(server, tmp_path):
    base, faults = server
    faults.add(r"^/v360/seg001", "404", -1)
    r, _ = download(f"{base}/master.m3u8", "--variant", "v360/index.m3u8", "--output", str(tmp_path / "b"))
    assert r.returncode == 1
    assert f"{base}/v360/seg001.m4s: HTTP 404" in r.stderr


def test_oversized_responses_stop_at_their_limit(server, tmp_path):
    base, faults = server
    out = tmp_path / "huge"
    r, _ = download(f"{base}/v540aes/huge-key.m3u8", "--output", str(out))
    assert r.returncode != 0
    assert f"{base}/keys/huge.bin" in r.stderr and "over the limit of 65536" in r.stderr
    assert len(faults.requests(r"^/keys/huge.bin")) == 1  # a limit is not retried
    assert not any(p.suffix == ".ts" for p in out.rglob("*"))


def test_live_and_drm_playlists_are_refused_before_writing(server, tmp_path):
    base, _ = server
    for name, message in [("live.m3u8", "live playlist"), ("fairplay.m3u8", "SAMPLE-AES")]:
        out = tmp_path / name
        r, _ = download(f"{base}/{name}", "--output", str(out))
        assert r.returncode == 2  # unusable input (docs/command-line.md): nothing was tried
        assert message in r.stderr
        assert not out.exists()


def files_of(folder):
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())


def test_sigkill_mid_download_resumes_to_identical_bundle(server, tmp_path):
    base, faults = server
    args = [f"{base}/master.m3u8", "--prefer", "videoAttributes.presentationSize.height == 1080", "--audio", "en,fr",
            "--subtitles", "en", "--concurrency", "2"]
    clean = tmp_path / "clean"
    r, _ = download(*args, "--output", str(clean))
    assert r.returncode == 0, r.stderr

    faults.delay = 0.25
    killed = tmp_path / "killed"
    proc = subprocess.Popen([MARQUEE, "download", *args, "--output", str(killed), "--json"], stdout=subprocess.PIPE, text=True)
    completed = 0
    deadline = time.time() + 60
    for line in proc.stdout:
        event = json.loads(line)
        if event["event"] == "progress":
            completed = event["completedFiles"]
            if completed >= 5:
                break
        assert time.time() < deadline
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert completed >= 5
    assert (killed / ".marquee-download" / "journal.sqlite").exists()
    assert not (killed / "metadata.json").exists()
    # Files being streamed at the kill are still .part files: not done.
    done_before = {p for p in files_of(killed) if ("/seg-" in p or "/init-" in p) and not p.endswith(".part")}
    faults.delay = 0
    first_count = len(faults.log)

    r = subprocess.run([MARQUEE, "download", "--resume", str(killed), "--json"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    refetched = [p for p, _ in faults.log[first_count:]]
    # Files finished before the kill are not fetched again: only the rest are requested.
    segments_total = sum(1 for p in files_of(clean) if "/seg-" in p or "/init-" in p or p.endswith(".vtt"))
    media_requests = [p for p in refetched if not p.endswith(".m3u8") and "/keys/" not in p]
    assert len(media_requests) <= segments_total - len(done_before)

    assert files_of(killed) == files_of(clean)
    for f in files_of(clean):
        if f == "metadata.json":
            a, b = json.loads((clean / f).read_text()), json.loads((killed / f).read_text())
            for k in ("startedAt", "completedAt"):
                a.pop(k), b.pop(k)
            assert a == b
        else:
            assert filecmp.cmp(clean / f, killed / f, shallow=False), f


def test_interstitial_assets_download_only_when_asked(server, stream, tmp_path):
    base, faults = server
    out = tmp_path / "plain"
    r, _ = download(f"{base}/v360/with-ad.m3u8", "--output", str(out))
    assert r.returncode == 0, r.stderr
    assert not faults.requests(r"^/v720/")
    folder = next(p for p in out.iterdir() if p.name.startswith("video-"))
    assert f'X-ASSET-URI="{base}/v720/index.m3u8"' in (folder / "index.m3u8").read_text()

    out = tmp_path / "with-ads"
    r, _ = download(f"{base}/v360/with-ad.m3u8", "--interstitials", "--output", str(out))
    assert r.returncode == 0, r.stderr
    folder = next(p for p in out.iterdir() if p.name.startswith("video-"))
    playlist = (folder / "index.m3u8").read_text()
    assert 'X-ASSET-URI="../interstitial-1/index.m3u8"' in playlist and "http" not in playlist
    ad = out / "interstitial-1"
    assert (ad / "index.m3u8").exists()
    for i in range(4):
        assert filecmp.cmp(ad / f"seg-{i + 1:05d}.ts", stream / "v720" / f"seg{i:03d}.ts", shallow=False)
    probe = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0", str(ad / "index.m3u8")],
                           capture_output=True, text=True, timeout=60)
    assert probe.returncode == 0 and "h264" in probe.stdout, probe.stderr
    # The local playlist still parses with its interstitial intact.
    inspect = subprocess.run([MARQUEE, "inspect", "--json", str(folder / "index.m3u8")], capture_output=True, text=True, timeout=60)
    assert inspect.returncode == 0, inspect.stderr
    ads = json.loads(inspect.stdout)["interstitials"]
    assert [(a["id"], a["start"], a["restrict"]) for a in ads] == [("ad1", 4, ["SKIP", "JUMP"])]
    assert ads[0]["assetURI"].endswith("/interstitial-1/index.m3u8")


def test_multivariant_ads_and_asset_lists_go_offline(server, stream, tmp_path):
    base, faults = server
    out = tmp_path / "ads"
    r, events = download(f"{base}/v360/with-ads.m3u8", "--interstitials", "--output", str(out))
    assert r.returncode == 0, r.stderr
    folder = next(p for p in out.iterdir() if p.name.startswith("video-"))
    playlist = (folder / "index.m3u8").read_text()
    assert 'X-ASSET-URI="../interstitial-1/index.m3u8"' in playlist
    assert 'X-ASSET-LIST="../interstitial-lists/list-1.json"' in playlist
    # The multivariant ad, named twice, was fetched once; of it, only its best variant and its audio.
    assert len(faults.requests(r"^/ad-mv.m3u8")) == 1
    assert not faults.requests(r"^/v360/index.m3u8")
    audio_segments = (stream / "aud-fr" / "index.m3u8").read_text().count("#EXTINF")
    assert len(faults.requests(r"^/v720/seg")) == 4 and len(faults.requests(r"^/aud-fr/seg")) == audio_segments
    ad = out / "interstitial-1"
    master = (ad / "index.m3u8").read_text()
    assert master.count("#EXT-X-STREAM-INF") == 1 and "RESOLUTION=1280x720" in master
    assert 'TYPE=AUDIO' in master and 'LANGUAGE="fr"' in master and "http" not in master
    probe = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "stream=codec_type", "-of", "csv=p=0", str(ad / "index.m3u8")],
                           capture_output=True, text=True, timeout=60)
    assert probe.returncode == 0, probe.stderr
    assert {"video", "audio"} <= set(probe.stdout.split())
    # The asset list: local URIs, everything else as the server sent it.
    listed = json.loads((out / "interstitial-lists" / "list-1.json").read_text())
    assert listed["X-CAMPAIGN"] == "spring"
    assert [(a["URI"], a["DURATION"]) for a in listed["ASSETS"]] == [("../interstitial-1/index.m3u8", 8.0), ("../interstitial-2/index.m3u8", 8.0)]
    assert (out / "interstitial-lists" / listed["ASSETS"][1]["URI"]).resolve().is_file()
    for f in out.rglob("*.m3u8"):
        assert "http" not in f.read_text(), f
    meta = json.loads((out / "metadata.json").read_text())
    assert [(i["folder"], i["sourceURL"]) for i in meta["interstitials"]] == [
        ("interstitial-1", f"{base}/ad-mv.m3u8"), ("interstitial-2", f"{base}/v480br/index.m3u8")]
    assert all(i["bytes"] > 0 for i in meta["interstitials"])
    assert meta["totalBytes"] == sum(f.stat().st_size for f in out.rglob("*") if f.is_file() and f.parent != out
                                     and f.suffix not in (".m3u8", ".json"))
    # The library imports exactly the bundle's files (ads and asset lists included), nothing else.
    (out / "notes.txt").write_text("not part of the bundle")
    data = tmp_path / "library"
    added = subprocess.run([MARQUEE, "add", "--data", str(data), str(out)], capture_output=True, text=True, timeout=300)
    assert added.returncode == 0, added.stdout + added.stderr
    copy = next((data / "media").iterdir())
    copied = {str(p.relative_to(copy)) for p in copy.rglob("*") if p.is_file()}
    assert {"master.m3u8", "metadata.json", "interstitial-1/index.m3u8", "interstitial-lists/list-1.json"} <= copied
    assert "notes.txt" not in copied and not any(name.startswith(".marquee-download") for name in copied)
    assert not any(p.is_symlink() for p in copy.rglob("*"))


def test_a_bad_asset_list_is_a_clear_error(server, tmp_path):
    base, _ = server
    out = tmp_path / "bad"
    r, events = download(f"{base}/v360/with-bad-list.m3u8", "--interstitials", "--output", str(out))
    assert r.returncode != 0
    assert f"{base}/subs-en/en.vtt: not a usable interstitial asset list: not JSON" in r.stderr
    assert not any(p.suffix == ".m4s" for p in out.rglob("*"))


def byte_ranges(playlist: pathlib.Path):
    """(file, offset, length) of each segment of an I-frame playlist, and its EXT-X-MAP file."""
    ranges, pending, init = [], None, None
    for line in playlist.read_text().splitlines():
        if line.startswith("#EXT-X-BYTERANGE:"):
            length, _, offset = line.split(":", 1)[1].partition("@")
            pending = (int(offset), int(length))
        elif line.startswith("#EXT-X-MAP:"):
            init = playlist.parent / line.split('URI="', 1)[1].split('"', 1)[0]
        elif line and not line.startswith("#"):
            ranges.append((playlist.parent / line, *pending))
    return ranges, init


def assert_same_frames(local: pathlib.Path, source: pathlib.Path):
    """Every range of the bundle's I-frame playlist holds exactly the source range's bytes."""
    mine, my_init = byte_ranges(local)
    theirs, their_init = byte_ranges(source)
    assert len(mine) == len(theirs) > 0
    for (f, o, n), (g, p, m) in zip(mine, theirs):
        assert n == m and f.is_file(), f
        assert f.read_bytes()[o:o + n] == g.read_bytes()[p:p + m]
    if their_init:
        assert my_init.read_bytes() == their_init.read_bytes()


def iframe_items(events):
    return [i for i in plan_of(events) if i["role"] == "iFrames"]


def test_iframe_playlist_reuses_the_downloaded_segments(server, stream, tmp_path):
    base, faults = server
    out = tmp_path / "iframes"
    r, events = download(f"{base}/master.m3u8", "--variant", "v720/index.m3u8", "--audio", "en", "--output", str(out))
    assert r.returncode == 0, r.stderr
    assert [i["url"].split("/")[-2:] for i in iframe_items(events)] == [["v720", "iframes.m3u8"]]
    # No byte was fetched twice: four whole segments, no range requests for the I-frames.
    segments = faults.requests(r"^/v720/seg")
    assert sorted(p for p, _ in segments) == [f"/v720/seg{i:03d}.ts" for i in range(4)]
    assert all(rng is None for _, rng in segments)
    master = (out / "master.m3u8").read_text()
    assert master.count("#EXT-X-I-FRAME-STREAM-INF") == 1 and "RESOLUTION=1280x720" in master
    folder = next(i["folder"] for i in iframe_items(events))
    local = out / folder / "index.m3u8"
    assert f'URI="{folder}/index.m3u8"' in master
    assert "../video-" in local.read_text() and "#EXT-X-I-FRAMES-ONLY" in local.read_text()
    assert_same_frames(local, stream / "v720" / "iframes.m3u8")
    assert not [p for p in (out / folder).iterdir() if p.name != "index.m3u8"]  # nothing of its own
    # It plays: one picture per segment.
    probe = subprocess.run(["ffprobe", "-v", "error", "-count_frames", "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0",
                            str(local)], capture_output=True, text=True, timeout=60)
    assert probe.returncode == 0 and probe.stdout.split()[0] == "4", probe.stderr
    meta = json.loads((out / "metadata.json").read_text())
    assert [(i["role"], i["bytes"]) for i in meta["items"] if i["role"] == "iFrames"] == [("iFrames", 0)]


def test_iframe_ranges_outside_the_download_are_fetched(server, stream, tmp_path):
    base, faults = server
    out = tmp_path / "iframes-elsewhere"
    # 854x480 has no I-frame playlist of its own: the 360p one (ranges into v360's fMP4 segments) fits.
    r, events = download(f"{base}/master.m3u8", "--variant", "v480br/index.m3u8", "--output", str(out))
    assert r.returncode == 0, r.stderr
    assert [i["resolution"] for i in iframe_items(events)] == ["640x360"]
    ranged = faults.requests(r"^/v360/seg")
    assert len(ranged) == 4 and all(rng and rng.startswith("bytes=0-") for _, rng in ranged)
    assert len(faults.requests(r"^/v360/init.mp4")) == 1
    folder = next(i["folder"] for i in iframe_items(events))
    assert_same_frames(out / folder / "index.m3u8", stream / "iframes-360" / "index.m3u8")


def test_iframes_can_be_left_out_and_a_missing_one_is_only_a_warning(server, tmp_path):
    base, faults = server
    r, events = download(f"{base}/master.m3u8", "--variant", "v720/index.m3u8", "--no-iframes", "--output", str(tmp_path / "none"))
    assert r.returncode == 0, r.stderr
    assert not iframe_items(events) and not faults.requests(r"iframes")
    assert "I-FRAME" not in (tmp_path / "none" / "master.m3u8").read_text()

    faults.add(r"^/v720/iframes", "404", 1)
    out = tmp_path / "missing"
    r, events = download(f"{base}/master.m3u8", "--variant", "v720/index.m3u8", "--output", str(out))
    assert r.returncode == 0, r.stderr
    finished = next(e for e in events if e["event"] == "finished")
    assert len(finished["warnings"]) == 1 and "v720/iframes.m3u8" in finished["warnings"][0] and "404" in finished["warnings"][0]
    assert "I-FRAME" not in (out / "master.m3u8").read_text()
    assert json.loads((out / "metadata.json").read_text())["warnings"] == finished["warnings"]
    assert not any(p.name.startswith("iframes") for p in out.iterdir())


class _HostileServer:
    """A loopback server that misbehaves on purpose: `/endless` streams zeros with no
    Content-Length and never ends; `/trickle` sends a byte a second. It counts requests."""

    def __init__(self):
        import http.server
        import threading
        self.requests = []
        owner = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                owner.requests.append(self.path)
                self.send_response(200)
                self.send_header("Content-Type", "application/octet-stream")
                if self.path.startswith("/big"):
                    size = 300 << 20
                    self.send_header("Content-Length", str(size))
                    self.end_headers()
                    chunk = b"\x47" * (1 << 20)
                    try:
                        for _ in range(size >> 20):
                            self.wfile.write(chunk)
                    except (BrokenPipeError, ConnectionResetError):
                        pass
                elif self.path.startswith("/endless"):
                    self.send_header("Transfer-Encoding", "chunked")
                    self.end_headers()
                    chunk = b"\0" * 65536
                    try:
                        for _ in range(100_000):  # bounded: at most 6.5 GB, stops when the client leaves
                            self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                    except (BrokenPipeError, ConnectionResetError):
                        pass
                else:
                    self.send_header("Content-Length", "1000000")
                    self.end_headers()
                    try:
                        for _ in range(60):
                            self.wfile.write(b"\0")
                            self.wfile.flush()
                            time.sleep(1)
                    except (BrokenPipeError, ConnectionResetError):
                        pass
                self.close_connection = True

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.httpd.handle_error = lambda request, address: None
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}"


@pytest.fixture
def hostile():
    server = _HostileServer()
    yield server
    server.httpd.shutdown()


def test_endless_body_without_length_stops_at_its_limit_and_is_not_retried(server, stream, hostile, tmp_path):
    base, _ = server
    playlist = stream / "v540aes" / "endless-key.m3u8"
    playlist.write_text((stream / "v540aes" / "index.m3u8").read_text().replace("../keys/k1.bin", f"{hostile.base}/endless.bin"))
    r, _ = download(f"{base}/v540aes/endless-key.m3u8", "--output", str(tmp_path / "b"), timeout=60)
    assert r.returncode == 1, r.stderr
    assert f"{hostile.base}/endless.bin" in r.stderr and "over the limit of 65536" in r.stderr, r.stderr
    assert hostile.requests == ["/endless.bin"]


def test_trickling_segment_gives_up_with_a_stall_message(server, stream, hostile, tmp_path):
    base, _ = server
    (stream / "trickle.m3u8").write_text("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-PLAYLIST-TYPE:VOD\n"
                                         f"#EXTINF:2,\n{hostile.base}/trickle.ts\n#EXT-X-ENDLIST\n")
    started = time.monotonic()
    r, _ = download(f"{base}/trickle.m3u8", "--stall-timeout", "2", "--output", str(tmp_path / "b"), timeout=60)
    assert r.returncode == 1, r.stderr
    assert "trickle.ts" in r.stderr and "stalled" in r.stderr, r.stderr
    assert time.monotonic() - started < 15
    # The playlists are written first (to play while downloading); no media file is.
    assert not [p for p in (tmp_path / "b").rglob("*") if p.suffix in (".ts", ".part") and ".marquee-download" not in str(p)]


def test_largest_media_sequence_without_iv_is_a_clear_error_not_a_crash(server, stream, tmp_path):
    base, _ = server
    text = (stream / "v540aes" / "index.m3u8").read_text()
    text = "\n".join(line.split(",IV=")[0] if line.startswith("#EXT-X-KEY") else line for line in text.splitlines())
    text = text.replace("#EXT-X-MEDIA-SEQUENCE:0", "#EXT-X-MEDIA-SEQUENCE:18446744073709551615")
    if "#EXT-X-MEDIA-SEQUENCE" not in text:
        text = text.replace("#EXTM3U", "#EXTM3U\n#EXT-X-MEDIA-SEQUENCE:18446744073709551615", 1)
    (stream / "v540aes" / "max-sequence.m3u8").write_text(text + "\n")
    r, _ = download(f"{base}/v540aes/max-sequence.m3u8", "--output", str(tmp_path / "b"))
    assert r.returncode == 1, (r.returncode, r.stderr)
    assert "media sequence number is past 2^64-1" in r.stderr, r.stderr


def test_a_large_segment_streams_to_disk_instead_of_memory(server, stream, hostile, tmp_path):
    base, _ = server
    (stream / "big.m3u8").write_text("#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-PLAYLIST-TYPE:VOD\n"
                                     f"#EXTINF:10,\n{hostile.base}/big.ts\n#EXT-X-ENDLIST\n")
    out = tmp_path / "b"
    process = subprocess.Popen([MARQUEE, "download", f"{base}/big.m3u8", "--output", str(out), "--json"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    assert process.returncode == 0, process.stderr.read().decode()
    segment = next(out.rglob("*.ts"))
    assert segment.stat().st_size == 300 << 20
    # ru_maxrss is in KiB on Linux: the 300 MiB body never sat in memory.
    assert usage.ru_maxrss < 150 * 1024, f"peak RSS {usage.ru_maxrss // 1024} MiB"
    assert not list(out.rglob("*.part"))
