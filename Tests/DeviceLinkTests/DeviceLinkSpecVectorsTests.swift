import Crypto
import Foundation
import Testing

@testable import DeviceLink

/// The test vectors of docs/device-link-protocol.md (made by the Python client written from
/// that document) agree with this implementation: keys, commitment, transcript, code, channel
/// keys, signature labels, the sealed frame, and the JSON of the handshake messages.
@Suite("DeviceLinkSpecVectors")
struct DeviceLinkSpecVectorsTests {
    struct Vectors: Decodable {
        var initiatorIdentityKey, responderIdentityKey, initiatorFingerprint, initiatorEphemeralKey, responderEphemeralKey: String
        var commitment, helloFrame, helloReplyFrame, revealFrame, sharedSecret, transcript, code: String
        var initiatorToResponderKey, responderToInitiatorKey, initiatorSignature, responderSignature, sealedIntentFrame: String
    }

    static func bytes(_ hex: String) -> [UInt8] {
        var result: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            result.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return result
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    static func load() throws -> Vectors {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("DeviceLinkSpecVectors.json")
        return try JSONDecoder().decode(Vectors.self, from: Data(contentsOf: url))
    }

    @Test("Keys, commitment, transcript, code and channel keys match the document")
    func derivations() throws {
        let v = try Self.load()
        let initiator = try Curve25519.Signing.PrivateKey(rawRepresentation: [UInt8](repeating: 1, count: 32))
        let responder = try Curve25519.Signing.PrivateKey(rawRepresentation: [UInt8](repeating: 2, count: 32))
        #expect(Self.hex(initiator.publicKey.rawRepresentation) == v.initiatorIdentityKey)
        #expect(Self.hex(responder.publicKey.rawRepresentation) == v.responderIdentityKey)
        #expect(IdentityFingerprint.of(Array(initiator.publicKey.rawRepresentation)) == v.initiatorFingerprint)
        let initiatorEphemeral = try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: [UInt8](repeating: 3, count: 32))
        let responderEphemeral = try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: [UInt8](repeating: 4, count: 32))
        #expect(Self.hex(initiatorEphemeral.publicKey.rawRepresentation) == v.initiatorEphemeralKey)
        #expect(Self.hex(responderEphemeral.publicKey.rawRepresentation) == v.responderEphemeralKey)
        let nonce = [UInt8](repeating: 5, count: 16)
        #expect(Self.hex(SHA256.hash(data: Array(initiatorEphemeral.publicKey.rawRepresentation) + nonce)) == v.commitment)
        let secret = try initiatorEphemeral.sharedSecretFromKeyAgreement(with: responderEphemeral.publicKey)
        #expect(secret.withUnsafeBytes { Self.hex($0) } == v.sharedSecret)
        let transcript = Array(SHA256.hash(data: Self.bytes(v.helloFrame) + Self.bytes(v.helloReplyFrame) + Self.bytes(v.revealFrame)))
        #expect(Self.hex(transcript) == v.transcript)
        #expect(PairingCode(sharedSecret: secret, transcript: transcript).digits == v.code)
        let keys = LinkKeys(sharedSecret: secret, transcript: transcript)
        #expect(keys.initiatorToResponder.withUnsafeBytes { Self.hex($0) } == v.initiatorToResponderKey)
        #expect(keys.responderToInitiator.withUnsafeBytes { Self.hex($0) } == v.responderToInitiatorKey)
        var direction = ChannelDirection(key: keys.initiatorToResponder)
        let sealed = try direction.seal(LinkMessageType.intent.rawValue, Array(#"{"v":1,"type":"intent","id":1,"intent":"play"}"#.utf8))
        #expect(Self.hex(sealed.encoded) == v.sealedIntentFrame)
    }

    @Test("The document's signatures verify over this implementation's signed bytes, by role")
    func signatures() throws {
        let v = try Self.load()
        let transcript = Self.bytes(v.transcript)
        let initiator = try Curve25519.Signing.PublicKey(rawRepresentation: Self.bytes(v.initiatorIdentityKey))
        let responder = try Curve25519.Signing.PublicKey(rawRepresentation: Self.bytes(v.responderIdentityKey))
        let initiatorBytes = PairingHandshake.signedBytes(by: .initiator, transcript: transcript)
        let responderBytes = PairingHandshake.signedBytes(by: .responder, transcript: transcript)
        #expect(initiator.isValidSignature(Self.bytes(v.initiatorSignature), for: initiatorBytes))
        #expect(responder.isValidSignature(Self.bytes(v.responderSignature), for: responderBytes))
        #expect(!initiator.isValidSignature(Self.bytes(v.initiatorSignature), for: responderBytes))
    }

    @Test("The document's handshake frames decode as this implementation's messages")
    func messages() throws {
        let v = try Self.load()
        let hello = Frame(type: LinkMessageType.hello.rawValue, payload: Array(Self.bytes(v.helloFrame).dropFirst(Frame.headerSize)))
        let decoded = try #require(HandshakeMessage.decode(HandshakeMessage.Hello.self, from: hello))
        #expect(decoded.v == 1 && decoded.purpose == .pair && decoded.service == "remote")
        #expect(Self.hex(decoded.commitment) == v.commitment && Self.hex(decoded.identityKey) == v.initiatorIdentityKey)
        #expect(hello.encoded == Self.bytes(v.helloFrame))
        let reveal = Frame(type: LinkMessageType.reveal.rawValue, payload: Array(Self.bytes(v.revealFrame).dropFirst(Frame.headerSize)))
        let revealed = try #require(HandshakeMessage.decode(HandshakeMessage.Reveal.self, from: reveal))
        #expect(revealed.mode == .pair && Self.hex(revealed.ephemeralKey) == v.initiatorEphemeralKey)
    }
}
