"""Times Python's m3u8 package on the same playlist files as marquee-bench, same protocol:
one warm-up pass, then N timed passes over all files; prints best and median as JSON."""
import json
import sys
import time

import m3u8


def main():
    args = sys.argv[1:]
    iterations = 10
    if "--iterations" in args:
        i = args.index("--iterations")
        iterations = int(args[i + 1])
        del args[i:i + 2]
    texts = []
    for path in args:
        with open(path, encoding="utf-8", errors="replace") as f:
            texts.append(f.read())
    ok = 0
    for t in texts:
        try:
            m3u8.loads(t)
            ok += 1
        except Exception:
            pass  # m3u8 rejects a few corpus oddities; they still cost parse time below
    times = []
    for _ in range(iterations):
        start = time.perf_counter()
        for t in texts:
            try:
                m3u8.loads(t)
            except Exception:
                pass
        times.append(time.perf_counter() - start)
    times.sort()
    print(json.dumps({"files": len(texts), "parsed": ok, "best": times[0], "median": times[len(times) // 2]}))


if __name__ == "__main__":
    main()
