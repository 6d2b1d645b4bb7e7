"""Media only in a bucket (`--media s3://…` on SeaweedFS, SigV4 checked by the real gateway),
one `marquee serve` with its own worker:

- `proxy` delivery streams: an 80 MB object is served whole and in ranges (206 with
  Content-Range, 416 past the end) with the right bytes, while the server's memory does not
  grow by anything near the object's size (VmHWM in /proc/PID/status);
- Live Text reads frames of an asset whose source and bundle are only in the bucket;
- a presigned redirect's target answers a CORS preflight from the server's origin, once the
  bucket has the CORS rule docs/deploying.md gives."""
import datetime
import hashlib
import hmac
import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request

import pytest

from cluster_support import SeaweedFS
from conftest import marquee_binary

MEDIA = "s3://marquee/objects"
BIG = 80 * 1024 * 1024


def request(url, method="GET", data=None, headers=None, timeout=30):
    """(status, body, headers) of a request, HTTP errors included (never raised)."""
    call = urllib.request.Request(url, method=method, data=data, headers=headers or {})
    try:
        with urllib.request.urlopen(call, timeout=timeout) as answer:
            return answer.status, answer.read(), answer.headers
    except urllib.error.HTTPError as error:
        return error.code, error.read(), error.headers


def memory_kib(pid, field):
    """VmRSS or VmHWM of a process, in KiB."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise AssertionError(f"no {field} for {pid}")


def put_object(storage, key, path):
    """Stores a file in the bucket through the S3 gateway, signed (curl's SigV4), as another tool would."""
    subprocess.run(["curl", "-sS", "-f", "--aws-sigv4", "aws:amz:us-east-1:s3", "--user", f"{storage.access_key}:{storage.secret_key}",
                    "-T", path, f"{storage.endpoint}/{storage.bucket}/{key}"], check=True, capture_output=True, timeout=120)


@pytest.fixture(scope="module")
def bucket_server():
    folder = tempfile.mkdtemp(prefix="marquee-objects-")
    storage = SeaweedFS()
    process = None
    try:
        process = subprocess.Popen([marquee_binary(), "serve", "--data", f"{folder}/data", "--port", "0", "--no-samples",
                                    "--media", MEDIA], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                   env=storage.environment())
        line = process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert match, f"marquee serve did not print its URL: {line!r}"
        threading.Thread(target=lambda: process.stdout.read(), daemon=True).start()
        yield dict(url=f"http://127.0.0.1:{match.group(1)}", process=process, storage=storage, folder=folder)
    finally:
        if process and process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)
        storage.stop()
        shutil.rmtree(folder, ignore_errors=True)


def test_proxy_streams_a_large_object_with_ranges_in_bounded_memory(bucket_server):
    url, pid, storage, folder = bucket_server["url"], bucket_server["process"].pid, bucket_server["storage"], bucket_server["folder"]
    big = f"{folder}/big.mp4"
    block = os.urandom(1 << 20)
    with open(big, "wb") as out:
        for index in range(BIG >> 20):
            out.write(index.to_bytes(4, "big") + block[4:])
    with open(big, "rb") as source:
        expected = source.read()
    put_object(storage, "objects/bigasset/video/big.mp4", big)
    path = f"{url}/media/bigasset/video/big.mp4"
    # Warm up the server's request path (and its HTTP client) on a small range first.
    status, body, _ = request(path, headers={"Range": "bytes=0-99"})
    assert status == 206 and body == expected[:100]
    before = memory_kib(pid, "VmHWM")

    # Whole, read slowly in small pieces as a player would: the server must not read ahead of it.
    digest = hashlib.sha256()
    with urllib.request.urlopen(path, timeout=120) as answer:
        assert answer.status == 200
        assert int(answer.headers["Content-Length"]) == BIG
        assert answer.headers["Accept-Ranges"] == "bytes"
        while chunk := answer.read(1 << 20):
            digest.update(chunk)
    assert digest.hexdigest() == hashlib.sha256(expected).hexdigest(), "the streamed object is not the stored one"

    # Ranges are forwarded to the bucket and answered as files from a folder are.
    status, body, headers = request(path, headers={"Range": "bytes=50000000-50999999"})
    assert status == 206, body[:200]
    assert headers["Content-Range"] == f"bytes 50000000-50999999/{BIG}"
    assert body == expected[50000000:51000000]
    status, body, headers = request(path, headers={"Range": "bytes=-1000"})
    assert status == 206 and headers["Content-Range"] == f"bytes {BIG - 1000}-{BIG - 1}/{BIG}" and body == expected[-1000:]
    status, body, headers = request(path, headers={"Range": "bytes=70000000-"})
    assert status == 206 and len(body) == BIG - 70000000 and body == expected[70000000:]
    status, body, headers = request(path, headers={"Range": f"bytes={BIG}-"})
    assert status == 416 and headers["Content-Range"] == f"bytes */{BIG}"
    assert json.loads(body)["error"]["status"] == 416

    grown = memory_kib(pid, "VmHWM") - before
    print(f"server peak memory grew by {grown} KiB while serving {BIG >> 20} MiB whole and {len(expected[70000000:]) >> 20} MiB as a range")
    assert grown < 24 * 1024, f"the server's peak memory grew by {grown >> 10} MiB serving an object of {BIG >> 20} MiB: not streamed"


def upload(base, path, name):
    """Uploads a file through the chunked upload API; returns the new asset's id."""
    data = open(path, "rb").read()
    status, body, _ = request(base + "/api/uploads", method="POST", data=json.dumps({"fileName": name, "length": len(data)}).encode(),
                              headers={"Content-Type": "application/json"})
    assert status in (200, 201), body
    upload_id = json.loads(body)["id"]
    status, body, _ = request(f"{base}/api/uploads/{upload_id}", method="PUT", data=data,
                              headers={"Content-Range": f"bytes 0-{len(data) - 1}/{len(data)}", "Content-Type": "application/octet-stream"})
    assert status in (200, 204), body
    status, body, _ = request(f"{base}/api/uploads/{upload_id}/complete", method="POST", data=b"{}", headers={"Content-Type": "application/json"})
    assert status in (200, 201, 202), body
    return json.loads(body)["id"]


def test_live_text_reads_frames_of_media_only_in_the_bucket(bucket_server):
    url, storage, folder = bucket_server["url"], bucket_server["storage"], bucket_server["folder"]
    clip = f"{folder}/words.mp4"
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "color=c=0x1e1e2e:size=960x540:rate=24:duration=6",
                    "-vf", "drawtext=fontfile=/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf:text='BUCKET WORDS':fontsize=72:"
                    "fontcolor=white:x=(w-tw)/2:y=(h-th)/2", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", clip],
                   check=True)
    asset_id = upload(url, clip, "words.mp4")
    deadline = time.time() + 90
    while True:
        status, body, _ = request(f"{url}/api/assets/{asset_id}")
        asset = json.loads(body)
        if asset.get("status") == "ready":
            break
        assert asset.get("status") != "failed" and time.time() < deadline, f"the upload was not packaged: {asset}"
        time.sleep(0.5)
    # Nothing of it is on the node: the upload was moved into the bucket, the bundle published there.
    on_node = [os.path.join(root, name) for root, _, names in os.walk(f"{folder}/data") for name in names
               if name.endswith((".m4s", ".mp4", ".ts")) and "object-storage/frames" not in root]
    assert on_node == [], f"media files left on the node: {on_node}"
    assert any(key.startswith(f"objects/{asset_id}/") for key in storage.objects("objects")), "the bundle is not in the bucket"

    status, body, _ = request(f"{url}/api/assets/{asset_id}/frame-text?time=4.5", timeout=120)
    assert status == 200, f"frame text of bucket media: {status} {body[:300]!r}"
    text = json.loads(body)
    words = json.dumps(text).upper()
    assert "BUCKET" in words and "WORDS" in words, f"the frame's text was not read: {text}"


def cors_rule(origin):
    """The bucket CORS rule docs/deploying.md gives, for the server's origin."""
    return ("<CORSConfiguration><CORSRule>"
            f"<AllowedOrigin>{origin}</AllowedOrigin><AllowedMethod>GET</AllowedMethod><AllowedMethod>HEAD</AllowedMethod>"
            "<AllowedHeader>Range</AllowedHeader><ExposeHeader>Content-Range</ExposeHeader><ExposeHeader>Content-Length</ExposeHeader>"
            "<ExposeHeader>ETag</ExposeHeader><MaxAgeSeconds>3600</MaxAgeSeconds></CORSRule></CORSConfiguration>").encode()


def put_bucket_cors(storage, body):
    """PutBucketCors, signed with SigV4 here (curl's --aws-sigv4 signs `?cors` differently from S3)."""
    now = datetime.datetime.now(datetime.timezone.utc)
    stamp, day = now.strftime("%Y%m%dT%H%M%SZ"), now.strftime("%Y%m%d")
    payload = hashlib.sha256(body).hexdigest()
    import base64
    headers = {"host": f"127.0.0.1:{storage.s3_port}", "x-amz-content-sha256": payload, "x-amz-date": stamp,
               "content-md5": base64.b64encode(hashlib.md5(body).digest()).decode(), "content-type": "application/xml"}
    names = ";".join(sorted(headers))
    canonical = "\n".join(["PUT", f"/{storage.bucket}", "cors=", "".join(f"{k}:{headers[k]}\n" for k in sorted(headers)), names, payload])
    scope = f"{day}/us-east-1/s3/aws4_request"
    to_sign = "\n".join(["AWS4-HMAC-SHA256", stamp, scope, hashlib.sha256(canonical.encode()).hexdigest()])
    key = ("AWS4" + storage.secret_key).encode()
    for part in (day, "us-east-1", "s3", "aws4_request"):
        key = hmac.new(key, part.encode(), hashlib.sha256).digest()
    signature = hmac.new(key, to_sign.encode(), hashlib.sha256).hexdigest()
    headers["authorization"] = f"AWS4-HMAC-SHA256 Credential={storage.access_key}/{scope}, SignedHeaders={names}, Signature={signature}"
    del headers["host"]
    status, answer, _ = request(f"{storage.endpoint}/{storage.bucket}?cors=", method="PUT", data=body, headers=headers)
    assert status == 200, f"PutBucketCors: {status} {answer[:300]!r}"


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


FETCH_RANGE = """
    const done = arguments[arguments.length - 1];
    fetch(arguments[0], {headers: {Range: 'bytes=0-99'}})
      .then(async (r) => done({status: r.status, url: r.url, length: (await r.arrayBuffer()).byteLength,
                               range: r.headers.get('Content-Range')}))
      .catch((e) => done({error: String(e)}));
"""


def test_presigned_media_play_from_the_page_once_the_bucket_allows_its_origin(bucket_server, browser):
    storage, folder = bucket_server["storage"], bucket_server["folder"]
    segment = f"{folder}/segment.m4s"
    with open(segment, "wb") as out:
        out.write(os.urandom(4096))
    put_object(storage, "objects/corsasset/video/segment-00000.m4s", segment)
    process = subprocess.Popen([marquee_binary(), "serve", "--data", f"{folder}/presigned", "--port", "0", "--no-samples", "--no-worker",
                                "--media", MEDIA, "--media-delivery", "presigned"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, env=storage.environment())
    try:
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", process.stdout.readline())
        assert match, "marquee serve did not print its URL"
        threading.Thread(target=lambda: process.stdout.read(), daemon=True).start()
        origin = f"http://127.0.0.1:{match.group(1)}"
        media = f"{origin}/media/corsasset/video/segment-00000.m4s"
        try:
            urllib.request.build_opener(NoRedirect).open(media, timeout=10)
            raise AssertionError("presigned delivery did not redirect")
        except urllib.error.HTTPError as error:
            assert error.code == 302
            target = error.headers["Location"]
        assert target.startswith(storage.endpoint + "/"), target

        driver = browser()
        driver.get(origin + "/")
        # The page may connect to the bucket: its content security policy names the endpoint.
        status, _, headers = request(origin + "/")
        assert storage.endpoint in headers["Content-Security-Policy"].split("connect-src")[1].split(";")[0], headers["Content-Security-Policy"]
        driver.set_script_timeout(20)
        # A rule for another origin only: the browser refuses the redirected answer.
        put_bucket_cors(storage, cors_rule("http://127.0.0.1:1"))
        refused = driver.execute_async_script(FETCH_RANGE, media)
        assert "error" in refused, f"the page read bucket media the bucket does not allow it: {refused}"

        # The documented rule for the server's origin: a preflight is answered, and the page reads the bytes.
        put_bucket_cors(storage, cors_rule(origin))
        status, _, headers = request(target, method="OPTIONS", headers={
            "Origin": origin, "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "range"})
        assert status == 200 and headers["Access-Control-Allow-Origin"] in (origin, "*"), (status, dict(headers))
        assert "range" in headers.get("Access-Control-Allow-Headers", "").lower()
        fetched = driver.execute_async_script(FETCH_RANGE, media)
        assert fetched.get("status") == 206 and fetched["length"] == 100, fetched
        assert fetched["url"].startswith(storage.endpoint + "/"), f"not fetched from the bucket: {fetched}"
        assert fetched["range"] == "bytes 0-99/4096", fetched
    finally:
        process.terminate()
        process.wait(timeout=10)
