"""Gaps between the frames a viewer sees around ad breaks, from the frames interstitial_frames.js
records: primary → break, break → primary, and ad → ad inside a break (the next event of the
break, or the next asset of an asset list). Shared by tests-e2e and scripts/bench/interstitials.py."""
from pathlib import Path

RECORDER = (Path(__file__).resolve().parent / "interstitial_frames.js").read_text()

# Between two ads of one break the primary may show a frame or two (a renderer that empties the
# break's element to load the next ad); playback of the primary between two breaks shows many.
MAX_PRIMARY_FRAMES_BETWEEN_ADS = 3
MAX_AD_TO_AD_MS = 2000


def record_frames(driver):
    """Makes `driver` record every seen frame of the next pages it opens."""
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORDER})


def transitions(frames):
    """{"out": primary→break gaps, "back": break→primary gaps, "between": ad→ad gaps, "flashes":
    how many ad→ad switches showed the primary in between} in ms, from [kind, src, time] frames."""
    frames = sorted(frames, key=lambda frame: frame[2])
    ads = [index for index, frame in enumerate(frames) if frame[0] == "ad"]
    between, flashes, inside = [], 0, set()
    for i, j in zip(ads, ads[1:]):
        a, b = frames[i], frames[j]
        if a[1] != b[1] and j - i - 1 <= MAX_PRIMARY_FRAMES_BETWEEN_ADS and b[2] - a[2] < MAX_AD_TO_AD_MS:
            between.append(b[2] - a[2])
            flashes += j - i - 1 > 0
            inside.update(range(i, j))
    out, back = [], []
    for k, (a, b) in enumerate(zip(frames, frames[1:])):
        if k in inside:
            continue
        if a[0] == "video" and b[0] == "ad":
            out.append(b[2] - a[2])
        elif a[0] == "ad" and b[0] == "video":
            back.append(b[2] - a[2])
    return {"out": out, "back": back, "between": between, "flashes": flashes}
