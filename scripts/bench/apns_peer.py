"""The peer in the APNs benchmark: Python's aioapns sending the same Live Activity updates to
the same local APNs stand-in, with the same number of connections (one) and pushes in flight.
aioapns has no setting for the host, so its protocol class is pointed at the stand-in, and its
TLS context trusts the stand-in's test CA."""
import asyncio
import resource
import json
import ssl
import sys
import time
import uuid

from aioapns import APNs, NotificationRequest, PushType
from aioapns import connection


async def main(info_path, count, concurrency):
    info = json.load(open(info_path))
    for protocol in (connection.APNsProductionClientProtocol, connection.APNsDevelopmentClientProtocol):
        protocol.APNS_SERVER = "127.0.0.1"
        protocol.APNS_PORT = info["port"]
    context = ssl.create_default_context(cafile=info["caFile"])
    context.set_alpn_protocols(["h2"])
    client = APNs(key=open(info["keyFile"]).read(), key_id=info["keyID"], team_id=info["teamID"], topic=info["bundleID"],
                  max_connections=1, ssl_context=context)
    token = "ab" * 32
    topic = info["bundleID"] + ".push-type.liveactivity"

    def request(i):
        aps = {"timestamp": 1_800_000_000 + i, "event": "update",
               "content-state": {"phase": "downloading", "percent": i % 100, "bytesWritten": i * 1000},
               "stale-date": 1_800_003_600, "relevance-score": 80}
        return NotificationRequest(device_token=token, message={"aps": aps}, notification_id=str(uuid.uuid4()),
                                   time_to_live=None, priority=5, push_type=PushType.LIVEACTIVITY, apns_topic=topic)

    for i in range(50):
        await client.send_notification(request(i))
    delivered = 0

    async def worker(offset):
        nonlocal delivered
        i = offset
        while i < count:
            result = await client.send_notification(request(i))
            if result.is_successful:
                delivered += 1
            i += concurrency

    start = time.perf_counter()
    await asyncio.gather(*(worker(w) for w in range(concurrency)))
    seconds = time.perf_counter() - start
    usage = resource.getrusage(resource.RUSAGE_SELF)  # CPU time (user + system), as the Swift client reports it
    print(json.dumps({"client": "aioapns", "pushes": count, "delivered": delivered, "seconds": seconds,
                      "perSecond": delivered / seconds, "cpuSeconds": usage.ru_utime + usage.ru_stime}))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
