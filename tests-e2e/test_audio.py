"""Music in the library: an MP3 with cover art is ingested as audio, listed with its cover,
and plays in the player with the cover where the picture would be."""
import json
import subprocess
import time

from selenium.webdriver.support.ui import WebDriverWait

from conftest import marquee_binary
from player_page import PlayerPage


def test_music_plays_with_its_cover(server, driver, tmp_path):
    cover = tmp_path / "cover.jpg"
    song = tmp_path / "song.mp3"
    ffmpeg = ["ffmpeg", "-hide_banner", "-loglevel", "error", "-y"]
    subprocess.run(ffmpeg + ["-f", "lavfi", "-i", "color=c=orange:s=320x320:d=1", "-frames:v", "1", str(cover)], check=True)
    subprocess.run(ffmpeg + ["-f", "lavfi", "-i", "sine=frequency=523:duration=12", "-i", str(cover), "-map", "0:a", "-map", "1:v",
                             "-c:a", "libmp3lame", "-c:v", "copy", "-disposition:v", "attached_pic", "-id3v2_version", "3",
                             "-metadata", "title=Orange Song", "-metadata", "artist=The Testers", str(song)], check=True)
    added = subprocess.run([marquee_binary(), "add", "--data", server.data, "--queue-only", str(song)],
                           capture_output=True, text=True, timeout=60)
    assert added.returncode == 0, added.stderr
    asset_id = json.loads(added.stdout.splitlines()[0])["id"]  # piped: JSON lines, {"event": "queued", …}
    try:
        deadline = time.time() + 60
        while time.time() < deadline:
            _, asset = server.api("GET", f"/api/assets/{asset_id}")
            if asset["status"] in ("ready", "failed"):
                break
            time.sleep(0.5)
        assert asset["status"] == "ready", asset
        assert asset["title"] == "Orange Song" and asset["subtitle"] == "The Testers"
        assert asset["artworkURL"].endswith("/poster.jpg") and asset.get("width") is None

        page = PlayerPage(driver, server, "Orange Song")
        page.wait_for(lambda: page.current_time > 1.0 and not page.video("paused"), "the music did not play")
        assert page.player_attr("data-audio-only") == "true"
        assert page.video("poster").endswith("/poster.jpg")
        assert page.video("videoWidth") == 0
        assert page.element("title").text == "Orange Song"
    finally:
        server.api("DELETE", f"/api/assets/{asset_id}")
