"""The aioapns half of the fan-out benchmark (scripts/bench/apns-fanout.sh): one Live Activity
update to N distinct tokens (PREFIX + a counter), all at once, to the same throttling APNs
stand-in, with as many connections as Marquee may open (4). Prints one JSON line."""
import asyncio
import json
import resource
import ssl
import sys
import time
import uuid

from aioapns import APNs, NotificationRequest, PushType
from aioapns import connection


async def main(info_path, count, prefix):
    info = json.load(open(info_path))
    for protocol in (connection.APNsProductionClientProtocol, connection.APNsDevelopmentClientProtocol):
        protocol.APNS_SERVER = "127.0.0.1"
        protocol.APNS_PORT = info["port"]
    context = ssl.create_default_context(cafile=info["caFile"])
    context.set_alpn_protocols(["h2"])
    client = APNs(key=open(info["keyFile"]).read(), key_id=info["keyID"], team_id=info["teamID"], topic=info["bundleID"],
                  max_connections=4, ssl_context=context)
    topic = info["bundleID"] + ".push-type.liveactivity"
    aps = {"timestamp": 1_800_000_000, "event": "update", "content-state": {"phase": "downloading", "percent": 42},
           "stale-date": 1_800_003_600, "relevance-score": 80}

    def token(i):
        digits = format(i, "x")
        return prefix + "0" * (64 - len(prefix) - len(digits)) + digits

    async def send(i):
        request = NotificationRequest(device_token=token(i), message={"aps": aps}, notification_id=str(uuid.uuid4()),
                                      time_to_live=None, priority=5, push_type=PushType.LIVEACTIVITY, apns_topic=topic)
        try:
            return (await client.send_notification(request)).is_successful
        except Exception:
            return False

    start = time.perf_counter()
    results = await asyncio.gather(*(send(i) for i in range(count)))
    seconds = time.perf_counter() - start
    delivered = sum(1 for ok in results if ok)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    print(json.dumps({"client": "aioapns", "tokens": count, "delivered": delivered, "notDelivered": count - delivered,
                      "seconds": seconds, "perSecond": delivered / seconds, "cpuSeconds": usage.ru_utime + usage.ru_stime}))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), sys.argv[3]))
