"""Prints the fan-out benchmark's rounds (JSON lines on stdin, each with the stand-in's count),
whether every token got its push exactly once, and the ratio of median pushes/s."""
import json
import statistics
import sys

rows = [json.loads(line) for line in sys.stdin if line.strip()]
failed = False
for r in rows:
    s = r["standin"]
    never = r["tokens"] - s["tokens"]
    exactly_once = never == 0 and s["duplicated"] == 0
    failed |= not exactly_once
    cpu = 1e6 * r["cpuSeconds"] / max(1, r["delivered"])
    print(f'{r["client"]:>8}: {r["perSecond"]:9.0f} pushes/s  {r["seconds"]:7.1f} s  client says delivered {r["delivered"]}/{r["tokens"]}  '
          f'stand-in: {s["tokens"]} reached, {s["duplicated"]} more than once, {never} never  {cpu:.0f} µs CPU/push  '
          f'exactly once: {"yes" if exactly_once else "NO"}')
medians = {c: statistics.median(r["perSecond"] for r in rows if r["client"] == c) for c in {r["client"] for r in rows}}
if medians.get("aioapns"):
    print(f'ratio (median pushes/s, Marquee / aioapns): {medians.get("marquee", 0) / medians["aioapns"]:.2f}x')
sys.exit(1 if failed else 0)
