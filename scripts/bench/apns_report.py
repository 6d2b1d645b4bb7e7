"""Prints the APNs benchmark (apns.sh): one JSON line per client run on stdin — Marquee and
aioapns in alternating rounds, then the stand-in alone under h2load — as medians, CPU time per
push and ratios. Asserts nothing."""
import json
import statistics
import sys

runs = [json.loads(line) for line in sys.stdin if line.strip()]
marquee = [r for r in runs if r["client"] == "marquee"]
peer = [r for r in runs if r["client"] == "aioapns"]
alone = next((r for r in runs if r["client"] == "h2load"), {"missing": True})


def rate(rs):
    return statistics.median(r["perSecond"] for r in rs)


def cpu(rs):
    return statistics.median(r["cpuSeconds"] / max(1, r["delivered"]) * 1e6 for r in rs)


def rounds(rs):
    return ", ".join(f"{r['perSecond']:.0f}" for r in rs)


print(f"APNs pushes/s ({marquee[0]['pushes']} Live Activity updates each, 1 HTTP/2 connection, "
      f"{len(marquee)} alternating rounds, medians, local TLS stand-in)")
print(f"  marquee  {rate(marquee):8.0f}/s   {cpu(marquee):5.0f} µs CPU/push   rounds: {rounds(marquee)}")
print(f"  aioapns  {rate(peer):8.0f}/s   {cpu(peer):5.0f} µs CPU/push   rounds: {rounds(peer)}")
print(f"  ratio    {rate(marquee) / rate(peer):8.2f}×  (target ≥ 2×); CPU per push: aioapns needs {cpu(peer) / cpu(marquee):.2f}× Marquee's")
if alone.get("missing"):
    print("  stand-in alone: h2load is missing (apt-get install nghttp2-client)")
else:
    print(f"  stand-in alone (h2load, same requests): {alone['perSecond']:.0f}/s — Marquee gets "
          f"{rate(marquee) / alone['perSecond']:.0%} of it")
