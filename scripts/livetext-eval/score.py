"""Scores Live Text on the generated evaluation set, beside the plain tesseract CLI.

For each frame the words a reader returned are given to the ground-truth line their box
overlaps most (words overlapping none count as inserted text); each line's character error
rate is the edit distance between what was read there and what was drawn. Text is compared
after NFKC; English collapses whitespace, Japanese ignores it (none is drawn between
Japanese words, and readers differ in what they insert). A line is Japanese when at least
30 % of its characters are; mixed lines count as Japanese.

Usage:
  python3 scripts/livetext-eval/score.py EVAL_DIR --marquee PATH/TO/marquee [--cli] [--split tuning]
Prints a table per kind and language for each half: Marquee's CER, the CLI's CER, and the
latency Marquee reported per frame; writes EVAL_DIR/results-<reader>.json.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import unicodedata
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate import language_of  # noqa: E402


def normalised(text, lang):
    text = unicodedata.normalize("NFKC", text)
    if lang == "ja":
        return "".join(text.split())
    return " ".join(text.split())


def distance(a, b):
    if not a:
        return len(b)
    if not b:
        return len(a)
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb))
        previous = current
    return previous[-1]


def overlap(a, b):
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return max(0, w) * max(0, h)


def score_frame(frame, words):
    """words: [(text, [x0, y0, x1, y1])] in reading order. Returns per-line results and
    inserted text (words that lie on no drawn line)."""
    lines = frame["lines"]
    assigned = defaultdict(list)
    inserted = []
    for text, box in words:
        if not text.strip():
            continue
        best, best_area = None, 0
        for index, line in enumerate(lines):
            x0, y0, x1, y1 = line["box"]
            pad = max(2, (y1 - y0) // 4)
            area = overlap(box, [x0 - pad, y0 - pad, x1 + pad, y1 + pad])
            if area > best_area:
                best, best_area = index, area
        # A word must lie mostly on the line (not a neighbour's word that grazes it).
        word_area = max(1, (box[2] - box[0]) * (box[3] - box[1]))
        if best is None or best_area < 0.3 * word_area:
            inserted.append(text)
        else:
            assigned[best].append((box[0], text))
    results = []
    for index, line in enumerate(lines):
        lang = line["lang"]
        read = " ".join(t for _, t in sorted(assigned[index], key=lambda item: item[0]))
        truth = normalised(line["text"], lang)
        got = normalised(read, lang)
        results.append({"lang": lang, "chars": len(truth), "errors": distance(got, truth), "truth": line["text"], "read": read})
    for text in inserted:
        lang = language_of(text)
        results.append({"lang": lang, "chars": 0, "errors": len(normalised(text, lang)), "truth": "", "read": text})
    return results


# --- readers ------------------------------------------------------------------------------


def read_marquee(binary, eval_dir, frames):
    """Marquee's recogniser through `marquee text VIDEO --at T,… --json` (one process per
    video, so the engine is loaded once, as in the server)."""
    out = {}
    by_video = defaultdict(list)
    for frame in frames:
        by_video[frame["video"]].append(frame)
    for video, members in by_video.items():
        times = ",".join(f"{f['time']:.3f}" for f in members)
        run = subprocess.run([binary, "text", str(eval_dir / video), "--at", times, "--json"],
                             capture_output=True, text=True, env={**os.environ, "OMP_THREAD_LIMIT": "1"})
        if run.returncode != 0:
            raise SystemExit(f"marquee text failed: {run.stderr.strip()[-2000:]}")
        reports = [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]
        reports = [r for r in reports if r.get("event") == "frame"]
        if len(reports) != len(members):
            raise SystemExit(f"marquee text gave {len(reports)} frames for {len(members)} times")
        for frame, report in zip(members, reports):
            words = []
            for block in report["frame"]["text"]["blocks"]:
                for line in block["lines"]:
                    for word in line["words"]:
                        b = word["box"]
                        words.append((word["text"], [b["x"], b["y"], b["x"] + b["width"], b["y"] + b["height"]]))
            out[frame["id"]] = {"words": words, "milliseconds": report["milliseconds"]}
    return out


def read_cli(eval_dir, frames, languages="eng+jpn"):
    """The plain CLI, `tesseract IMAGE - -l eng+jpn tsv`, on the decoded frames: all frames in
    one run (a list file), so its models load once."""
    out = {}
    with tempfile.TemporaryDirectory() as scratch:
        listing = Path(scratch) / "frames.txt"
        listing.write_text("".join(str(eval_dir / "decoded" / f"{f['id']}.png") + "\n" for f in frames))
        run = subprocess.run(["tesseract", str(listing), str(Path(scratch) / "out"), "-l", languages, "tsv"],
                             capture_output=True, text=True, env={**os.environ, "OMP_THREAD_LIMIT": "1"})
        if run.returncode != 0:
            raise SystemExit(f"tesseract failed: {run.stderr.strip()[-2000:]}")
        rows = (Path(scratch) / "out.tsv").read_text().splitlines()
    pages = defaultdict(list)
    for row in rows[1:]:
        cells = row.split("\t")
        if len(cells) < 12 or cells[0] != "5":
            continue
        page = int(cells[1]) - 1
        left, top, width, height = map(int, cells[6:10])
        pages[page].append((cells[11], [left, top, left + width, top + height]))
    for page, frame in enumerate(frames):
        out[frame["id"]] = {"words": pages.get(page, []), "milliseconds": None}
    return out


# --- tables -------------------------------------------------------------------------------


def tally(frames, readings):
    """{(kind, lang): [errors, chars]} and per split."""
    table = defaultdict(lambda: [0, 0])
    details = {}
    for frame in frames:
        results = score_frame(frame, readings[frame["id"]]["words"])
        details[frame["id"]] = results
        for r in results:
            for key in ((frame["split"], frame["kind"], r["lang"]), (frame["split"], "all", r["lang"])):
                table[key][0] += r["errors"]
                table[key][1] += r["chars"]
    return table, details


def cer(cell):
    errors, chars = cell
    return None if chars == 0 else 100.0 * errors / chars


def fmt(value):
    return "    —" if value is None else f"{value:5.1f}"


def print_table(kinds, tables, split, file=sys.stdout):
    names = list(tables)
    header = f"{split:<16}" + "".join(f" {name + ' EN':>13} {name + ' JA':>13}" for name in names)
    print(header, file=file)
    for kind in kinds + ["all"]:
        row = f"{kind:<16}"
        for name in names:
            for lang in ("en", "ja"):
                row += f" {fmt(cer(tables[name].get((split, kind, lang), [0, 0]))):>13}"
        print(row, file=file)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("eval_dir", type=Path)
    parser.add_argument("--marquee", help="path to the marquee binary")
    parser.add_argument("--cli", action="store_true", help="also score the tesseract CLI (eng+jpn)")
    parser.add_argument("--split", choices=["tuning", "held-out", "both"], default="both")
    parser.add_argument("--kinds", help="comma-separated kinds to score (default: all)")
    parser.add_argument("--show", action="store_true", help="print each line read wrong")
    arguments = parser.parse_args()
    truth = json.loads((arguments.eval_dir / "truth.json").read_text())
    frames = truth["frames"]
    if arguments.split != "both":
        frames = [f for f in frames if f["split"] == arguments.split]
    if arguments.kinds:
        wanted = set(arguments.kinds.split(","))
        frames = [f for f in frames if f["kind"] in wanted]
    kinds = [k for k in truth["kinds"] if any(f["kind"] == k for f in frames)]
    tables = {}
    latencies = []
    readers = []
    if arguments.marquee:
        readers.append(("Marquee", lambda: read_marquee(arguments.marquee, arguments.eval_dir, frames)))
    if arguments.cli:
        readers.append(("CLI", lambda: read_cli(arguments.eval_dir, frames)))
    for name, read in readers:
        readings = read()
        table, details = tally(frames, readings)
        tables[name] = table
        if name == "Marquee":
            latencies = [r["milliseconds"] for r in readings.values() if r["milliseconds"] is not None]
        (arguments.eval_dir / f"results-{name.lower()}.json").write_text(json.dumps(
            {"cer": {"/".join(k): v for k, v in table.items()}, "frames": details}, ensure_ascii=False, indent=1))
        if arguments.show:
            for frame_id, results in details.items():
                for r in results:
                    if r["errors"]:
                        print(f"{name} {frame_id} [{r['lang']}] {r['errors']}/{r['chars']}: {r['truth']!r} -> {r['read']!r}")
    splits = ["tuning", "held-out"] if arguments.split == "both" else [arguments.split]
    for split in splits:
        print_table(kinds, tables, split)
        print()
    if latencies:
        latencies.sort()
        p95 = latencies[min(len(latencies) - 1, int(0.95 * len(latencies)))]
        print(f"Marquee per frame (decode + recognise, engine loaded): median {statistics.median(latencies):.0f} ms, "
              f"p95 {p95:.0f} ms over {len(latencies)} frames")


if __name__ == "__main__":
    main()
