"""A minimal device-link client written from docs/device-link-protocol.md alone (nothing read from
Marquee's source): TCP frames, the handshake (hello, reveal, code, approval, authenticate), the
channel (HKDF keys, ChaCha20-Poly1305 with counter nonces) and the `remote` service's intent.

    python3 devicelink_spec_client.py --vectors      prints the document's test vectors (JSON)

Uses the `cryptography` package (scripts/setup.sh --test installs it)."""
import base64
import hashlib
import json
import os
import socket
import struct
import sys
import uuid

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

# §2 message types
HELLO, HELLO_REPLY, REVEAL, AUTHENTICATE, APPROVAL, REFUSAL = 0x01, 0x02, 0x03, 0x04, 0x05, 0x06
HEARTBEAT, GOODBYE = 0x10, 0x11
INTENT, INTENT_RESULT, NOW_PLAYING = 0x100, 0x101, 0x102


class Refused(Exception):
    """The other side sent a refusal (§4.2)."""


def b64(data):
    return base64.b64encode(data).decode()


def unb64(text):
    return base64.b64decode(text)


def frame(message_type, payload):
    """§2: version 1, type (UInt32 BE), length (UInt32 BE), payload."""
    return struct.pack(">BII", 1, message_type, len(payload)) + payload


def raw(private_key):
    return private_key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def hkdf(secret, salt, info, length):
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=salt, info=info.encode()).derive(secret)


def pairing_code(secret, transcript):
    """§4.5b: HKDF-SHA256 to 8 bytes, big-endian integer mod 1,000,000, six digits."""
    k = hkdf(secret, transcript, "marquee devicelink pairing code", 8)
    return "%06d" % (int.from_bytes(k, "big") % 1_000_000)


def signed_bytes(role, transcript):
    """§4.5a: the ASCII label by the signer's role, then the transcript."""
    return f"marquee devicelink v1 {role}".encode() + transcript


class Direction:
    """§5: one direction of the channel, with its key and counter."""

    def __init__(self, key):
        self.aead = ChaCha20Poly1305(key)
        self.counter = 0

    def nonce(self):
        return b"\x00" * 4 + struct.pack(">Q", self.counter)

    def seal(self, message_type, plaintext):
        header = struct.pack(">BII", 1, message_type, len(plaintext) + 16)
        payload = self.aead.encrypt(self.nonce(), plaintext, header)
        self.counter += 1
        return header + payload

    def open(self, message_type, payload):
        header = struct.pack(">BII", 1, message_type, len(payload))
        plaintext = self.aead.decrypt(self.nonce(), payload, header)
        self.counter += 1
        return plaintext


def channel_keys(secret, transcript):
    """§5: (initiator→responder, responder→initiator)."""
    return (hkdf(secret, transcript, "marquee devicelink initiator->responder", 32),
            hkdf(secret, transcript, "marquee devicelink responder->initiator", 32))


class Connection:
    """Frames over a TCP socket."""

    def __init__(self, host, port, timeout=30):
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.buffer = b""

    def send(self, data):
        self.sock.sendall(data)

    def _read(self, count):
        while len(self.buffer) < count:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("the TV closed the connection")
            self.buffer += chunk
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def receive(self):
        """One frame: (type, payload, the whole frame's bytes)."""
        header = self._read(9)
        version, message_type, length = struct.unpack(">BII", header)
        assert version == 1, f"frame version {version}"
        payload = self._read(length)
        return message_type, payload, header + payload

    def close(self):
        self.sock.close()


class Identity:
    """§3: an Ed25519 identity key, a device id and a name."""

    def __init__(self, name, seed=None):
        self.key = Ed25519PrivateKey.from_private_bytes(seed) if seed else Ed25519PrivateKey.generate()
        self.device_id = str(uuid.uuid4())
        self.name = name

    @property
    def public(self):
        return raw(self.key)


class Link:
    """An established link: the socket and the two directions."""

    def __init__(self, connection, secret, transcript, peer_key):
        self.connection = connection
        outbound, inbound = channel_keys(secret, transcript)
        self.outbound, self.inbound = Direction(outbound), Direction(inbound)
        self.peer_key = peer_key

    def send(self, message_type, obj):
        self.connection.send(self.outbound.seal(message_type, json.dumps(obj).encode()))

    def receive(self):
        """The next application message (heartbeats answered by nothing, skipped)."""
        while True:
            message_type, payload, _ = self.connection.receive()
            plaintext = self.inbound.open(message_type, payload)
            if message_type in (HEARTBEAT,):
                continue
            if message_type == GOODBYE:
                raise ConnectionError("the TV said goodbye")
            return message_type, json.loads(plaintext) if plaintext else None

    def receive_type(self, wanted):
        """The next application message of type `wanted`, skipping others (nowPlaying, …)."""
        while True:
            message_type, body = self.receive()
            if message_type == wanted:
                return body

    def goodbye(self):
        self.connection.send(self.outbound.seal(GOODBYE, b""))
        self.connection.close()


def handshake(connection, identity, service="remote", purpose="pair", paired_key=None, approve=None,
              ephemeral=None, nonce=None, session=None):
    """§4 as the initiator. `approve(code)` is asked in mode `pair` (True to approve);
    `paired_key` is the TV's identity key from an earlier pairing (mode `authenticate`).
    Returns (Link, the TV's identity key)."""
    ephemeral = ephemeral or X25519PrivateKey.generate()
    nonce = nonce or os.urandom(16)
    hello = frame(HELLO, json.dumps({
        "v": 1, "deviceID": identity.device_id, "name": identity.name, "platform": "linux",
        "identityKey": b64(identity.public), "service": service, "session": session or str(uuid.uuid4()),
        "purpose": purpose, "commitment": b64(hashlib.sha256(raw(ephemeral) + nonce).digest()),
    }).encode())
    connection.send(hello)
    message_type, payload, reply_frame = connection.receive()
    if message_type == REFUSAL:
        raise Refused(json.loads(payload))
    assert message_type == HELLO_REPLY, message_type
    reply = json.loads(payload)
    tv_key = unb64(reply["identityKey"])
    if reply["trustsYou"] and paired_key == tv_key:
        mode = "authenticate"
    elif purpose == "pair":
        mode = "pair"
    else:
        connection.send(frame(REFUSAL, json.dumps({"reason": "not-paired"}).encode()))
        raise Refused({"reason": "not-paired"})
    reveal = frame(REVEAL, json.dumps({"ephemeralKey": b64(raw(ephemeral)), "nonce": b64(nonce), "mode": mode}).encode())
    connection.send(reveal)
    secret = ephemeral.exchange(X25519PublicKey.from_public_bytes(unb64(reply["ephemeralKey"])))
    transcript = hashlib.sha256(hello + reply_frame + reveal).digest()
    tv_public = Ed25519PublicKey.from_public_bytes(tv_key)
    my_signature = identity.key.sign(signed_bytes("initiator", transcript))

    if mode == "authenticate":
        connection.send(frame(AUTHENTICATE, json.dumps({"signature": b64(my_signature)}).encode()))
        message_type, payload, _ = connection.receive()
        if message_type == REFUSAL:
            raise Refused(json.loads(payload))
        assert message_type == AUTHENTICATE, message_type
        tv_public.verify(unb64(json.loads(payload)["signature"]), signed_bytes("responder", transcript))
        return Link(connection, secret, transcript, tv_key), tv_key

    code = pairing_code(secret, transcript)
    if not approve(code):
        connection.send(frame(APPROVAL, json.dumps({"approved": False}).encode()))
        raise Refused({"reason": "rejected"})
    connection.send(frame(APPROVAL, json.dumps({"approved": True, "signature": b64(my_signature)}).encode()))
    message_type, payload, _ = connection.receive()
    if message_type == REFUSAL:
        raise Refused(json.loads(payload))
    assert message_type == APPROVAL, message_type
    approval = json.loads(payload)
    if not approval["approved"]:
        raise Refused({"reason": "rejected"})
    tv_public.verify(unb64(approval["signature"]), signed_bytes("responder", transcript))
    return Link(connection, secret, transcript, tv_key), tv_key


def vectors():
    """§7's vectors, from its fixed inputs."""
    initiator = Identity("Vector phone", seed=bytes([1]) * 32)
    initiator.device_id = "00000000-0000-4000-8000-000000000001"
    responder = Ed25519PrivateKey.from_private_bytes(bytes([2]) * 32)
    i_eph = X25519PrivateKey.from_private_bytes(bytes([3]) * 32)
    r_eph = X25519PrivateKey.from_private_bytes(bytes([4]) * 32)
    nonce = bytes([5]) * 16
    hello = frame(HELLO, json.dumps({
        "v": 1, "deviceID": initiator.device_id, "name": initiator.name, "platform": "linux",
        "identityKey": b64(initiator.public), "service": "remote", "session": "vector-session", "purpose": "pair",
        "commitment": b64(hashlib.sha256(raw(i_eph) + nonce).digest())}, sort_keys=True).encode())
    reply = frame(HELLO_REPLY, json.dumps({
        "deviceID": "00000000-0000-4000-8000-000000000002", "name": "Vector TV", "platform": "linux",
        "identityKey": b64(raw(responder)), "ephemeralKey": b64(raw(r_eph)), "trustsYou": False}, sort_keys=True).encode())
    reveal = frame(REVEAL, json.dumps({"ephemeralKey": b64(raw(i_eph)), "nonce": b64(nonce), "mode": "pair"},
                                      sort_keys=True).encode())
    secret = i_eph.exchange(X25519PublicKey.from_public_bytes(raw(r_eph)))
    transcript = hashlib.sha256(hello + reply + reveal).digest()
    i2r, r2i = channel_keys(secret, transcript)
    intent = Direction(i2r).seal(INTENT, b'{"v":1,"type":"intent","id":1,"intent":"play"}')
    return {
        "initiatorIdentityKey": initiator.public.hex(), "responderIdentityKey": raw(responder).hex(),
        "initiatorFingerprint": hashlib.sha256(initiator.public).digest()[:16].hex(),
        "initiatorEphemeralKey": raw(i_eph).hex(), "responderEphemeralKey": raw(r_eph).hex(),
        "commitment": hashlib.sha256(raw(i_eph) + nonce).hexdigest(),
        "helloFrame": hello.hex(), "helloReplyFrame": reply.hex(), "revealFrame": reveal.hex(),
        "sharedSecret": secret.hex(), "transcript": transcript.hex(), "code": pairing_code(secret, transcript),
        "initiatorToResponderKey": i2r.hex(), "responderToInitiatorKey": r2i.hex(),
        "initiatorSignature": initiator.key.sign(signed_bytes("initiator", transcript)).hex(),
        "responderSignature": responder.sign(signed_bytes("responder", transcript)).hex(),
        "sealedIntentFrame": intent.hex(),
    }


if __name__ == "__main__" and "--vectors" in sys.argv:
    print(json.dumps(vectors(), indent=2, sort_keys=True))
