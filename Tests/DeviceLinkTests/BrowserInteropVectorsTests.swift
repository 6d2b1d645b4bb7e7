import Crypto
import Foundation
import Testing

@testable import DeviceLink

/// The browser's implementation of the protocol (Sources/MarqueeServer/Public/js/devicelink)
/// must derive and seal exactly what this one does. Fixed keys go in; the pairing code, both
/// channel keys, sealed frames and an identity signature come out, and must equal the vectors
/// in tests-js/vectors/devicelink-swift.json, which tests-js/devicelink-interop.test.mjs checks
/// the JavaScript against. `MARQUEE_WRITE_INTEROP_VECTORS=1` rewrites the file.
@Suite struct BrowserInteropVectorsTests {
    struct SealedFrame: Codable, Equatable {
        var direction: String
        var counter: Int
        var type: UInt32
        var plaintext: String
        var wire: String
    }

    struct Vectors: Codable, Equatable {
        var initiatorPrivateKey: String
        var responderPrivateKey: String
        var initiatorPublicKey: String
        var responderPublicKey: String
        var sharedSecret: String
        var transcript: String
        var pairingCode: String
        var initiatorToResponderKey: String
        var responderToInitiatorKey: String
        var frames: [SealedFrame]
        var identitySeed: String
        var identityPublicKey: String
        var identityFingerprint: String
        var signedMessage: String
        var signature: String
    }

    static let vectorsURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("tests-js/vectors/devicelink-swift.json")

    static func hex(_ bytes: some Sequence<UInt8>) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
    static func bytes(_ count: Int, from start: UInt8) -> [UInt8] { (0..<count).map { start &+ UInt8($0) &* 7 } }

    static func compute() throws -> Vectors {
        let initiator = try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: bytes(32, from: 1))
        let responder = try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: bytes(32, from: 101))
        let shared = try initiator.sharedSecretFromKeyAgreement(with: responder.publicKey)
        let transcript = Array(SHA256.hash(data: Array("hello|helloReply|reveal".utf8)))
        let keys = LinkKeys(sharedSecret: shared, transcript: transcript)
        var phone = SecureChannel(keys: keys, isInitiator: true)
        var tv = SecureChannel(keys: keys, isInitiator: false)
        var frames: [SealedFrame] = []
        func record(_ direction: String, _ channel: inout SecureChannel, _ type: LinkMessageType, _ text: String) throws {
            let counter = Int(channel.outbound.counter)
            let frame = try channel.seal(type, Array(text.utf8))
            frames.append(SealedFrame(direction: direction, counter: counter, type: type.rawValue, plaintext: text, wire: hex(frame.encoded)))
        }
        try record("initiator", &phone, .intent, #"{"v":1,"type":"intent","id":1,"intent":"toggle-play-pause"}"#)
        try record("initiator", &phone, .heartbeat, "")
        try record("initiator", &phone, .intent, #"{"v":1,"type":"intent","id":2,"intent":"seek","time":20}"#)
        try record("responder", &tv, .nowPlaying, #"{"session":null}"#)
        try record("responder", &tv, .intentResult, String(repeating: "x", count: 200))

        let seed = bytes(32, from: 201)
        let identity = try Curve25519.Signing.PrivateKey(rawRepresentation: seed)
        let message = Array("marquee devicelink v1 initiator".utf8) + transcript
        return Vectors(
            initiatorPrivateKey: hex(initiator.rawRepresentation), responderPrivateKey: hex(responder.rawRepresentation),
            initiatorPublicKey: hex(initiator.publicKey.rawRepresentation), responderPublicKey: hex(responder.publicKey.rawRepresentation),
            sharedSecret: shared.withUnsafeBytes { hex($0) }, transcript: hex(transcript),
            pairingCode: PairingCode(sharedSecret: shared, transcript: transcript).digits,
            initiatorToResponderKey: keys.initiatorToResponder.withUnsafeBytes { hex($0) },
            responderToInitiatorKey: keys.responderToInitiator.withUnsafeBytes { hex($0) },
            frames: frames, identitySeed: hex(seed), identityPublicKey: hex(identity.publicKey.rawRepresentation),
            identityFingerprint: IdentityFingerprint.of(Array(identity.publicKey.rawRepresentation)),
            signedMessage: hex(message), signature: hex(try identity.signature(for: message)))
    }

    @Test func theBrowsersVectorsAreWhatThisImplementationComputes() throws {
        let computed = try Self.compute()
        if ProcessInfo.processInfo.environment["MARQUEE_WRITE_INTEROP_VECTORS"] != nil {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(computed).write(to: Self.vectorsURL)
        }
        let stored = try JSONDecoder().decode(Vectors.self, from: Data(contentsOf: Self.vectorsURL))
        #expect(stored == computed)
        // Ed25519 is deterministic, so the browser's signature (checked equal in the node test)
        // is this one; it verifies here.
        let key = try Curve25519.Signing.PublicKey(rawRepresentation: Data(hexBytes(stored.identityPublicKey)))
        #expect(key.isValidSignature(Data(hexBytes(stored.signature)), for: Data(hexBytes(stored.signedMessage))))
    }

    @Test func framesSealedByTheBrowserOpenHere() throws {
        let stored = try JSONDecoder().decode(Vectors.self, from: Data(contentsOf: Self.vectorsURL))
        let keys = LinkKeys(
            initiatorToResponder: SymmetricKey(data: hexBytes(stored.initiatorToResponderKey)),
            responderToInitiator: SymmetricKey(data: hexBytes(stored.responderToInitiatorKey)))
        var tv = SecureChannel(keys: keys, isInitiator: false)
        var phone = SecureChannel(keys: keys, isInitiator: true)
        for frame in stored.frames {
            var decoder = FrameDecoder()
            decoder.append(hexBytes(frame.wire))
            let decoded = try #require(try decoder.next())
            let opened = frame.direction == "initiator" ? try tv.open(decoded) : try phone.open(decoded)
            #expect(String(decoding: opened, as: UTF8.self) == frame.plaintext)
        }
    }
}

func hexBytes(_ text: String) -> [UInt8] {
    var bytes: [UInt8] = []
    var index = text.startIndex
    while index < text.endIndex {
        let next = text.index(index, offsetBy: 2)
        bytes.append(UInt8(text[index..<next], radix: 16)!)
        index = next
    }
    return bytes
}
