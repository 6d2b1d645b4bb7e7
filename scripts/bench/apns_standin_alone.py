"""How many requests a second the local APNs stand-in itself answers, driven by h2load (nghttp2's
C load generator, so the client costs almost nothing): the same Live Activity update, the
same headers and provider token, one HTTP/2 connection, the same number of streams in flight.
If Marquee's client comes close to this number, the stand-in, not the client, is the limit.
Prints JSON like the other clients; exits 3 when h2load is missing."""
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
import uuid

import jwt


def main(info_path, count, concurrency):
    if not shutil.which("h2load"):
        print(json.dumps({"client": "h2load", "missing": True}))
        sys.exit(3)
    info = json.load(open(info_path))
    token = jwt.encode({"iss": info["teamID"], "iat": int(time.time())}, open(info["keyFile"]).read(), algorithm="ES256",
                       headers={"kid": info["keyID"]})
    payload = {"aps": {"timestamp": 1_800_000_000, "event": "update",
                       "content-state": {"phase": "downloading", "percent": 42, "bytesWritten": 42000},
                       "stale-date": 1_800_003_600, "relevance-score": 80}}
    with tempfile.NamedTemporaryFile("w", suffix=".json") as body:
        json.dump(payload, body, separators=(",", ":"))
        body.flush()
        headers = {"authorization": f"bearer {token}", "apns-push-type": "liveactivity",
                   "apns-topic": info["bundleID"] + ".push-type.liveactivity", "apns-priority": "5",
                   "apns-expiration": "0", "apns-id": str(uuid.uuid4()), "content-type": "application/json"}
        command = ["h2load", "-n", str(count), "-c", "1", "-m", str(concurrency), "-d", body.name,
                   f"https://127.0.0.1:{info['port']}/3/device/{'ab' * 32}"]
        for name, value in headers.items():
            command += ["-H", f"{name}: {value}"]
        # h2load does not verify certificates; the stand-in's is from the test CA anyway.
        output = subprocess.run(command, capture_output=True, text=True, timeout=600).stdout
    finished = re.search(r"finished in ([\d.]+)(m?s), ([\d.]+) req/s", output)
    codes = re.search(r"status codes: (\d+) 2xx", output)
    if not finished or not codes:
        raise SystemExit("h2load said:\n" + output)
    seconds = float(finished.group(1)) / (1000 if finished.group(2) == "ms" else 1)
    delivered = int(codes.group(1))
    print(json.dumps({"client": "h2load", "pushes": count, "delivered": delivered, "seconds": seconds,
                      "perSecond": delivered / seconds}))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
