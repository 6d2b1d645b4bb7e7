import Crypto
import Testing

@testable import DeviceLink

/// Keys as the handshake would derive them (any 32 bytes each).
func testKeys() -> LinkKeys {
    LinkKeys(initiatorToResponder: .init(size: .bits256), responderToInitiator: .init(size: .bits256))
}

@Suite struct SecureChannelTests {
    @Test func eachDirectionHasItsOwnKeyAndCounter() throws {
        let keys = testKeys()
        var phone = SecureChannel(keys: keys, isInitiator: true)
        var tv = SecureChannel(keys: keys, isInitiator: false)
        for index in 0..<3 { #expect(try tv.open(phone.seal(.intent, [UInt8(index)])) == [UInt8(index)]) }
        #expect(try phone.open(tv.seal(.nowPlaying, Array("hi".utf8))) == Array("hi".utf8))
        #expect(phone.outbound.counter == 3 && tv.outbound.counter == 1)
        // A frame sealed for one direction does not open in the other.
        var phone2 = SecureChannel(keys: keys, isInitiator: true)
        #expect(throws: ChannelError.authenticationFailed(counter: 0)) { try phone2.open(phone.seal(.intent, [9])) }
    }

    @Test func theSamePlaintextSealsDifferentlyEachTime() throws {
        var phone = SecureChannel(keys: testKeys(), isInitiator: true)
        let a = try phone.seal(.intent, [1, 2, 3])
        let b = try phone.seal(.intent, [1, 2, 3])
        #expect(a.payload != b.payload)
    }

    @Test func aReplayedFrameFails() throws {
        let keys = testKeys()
        var phone = SecureChannel(keys: keys, isInitiator: true)
        var tv = SecureChannel(keys: keys, isInitiator: false)
        let first = try phone.seal(.intent, Array("play".utf8))
        _ = try tv.open(first)
        #expect(throws: ChannelError.authenticationFailed(counter: 1)) { try tv.open(first) }
    }

    @Test func reorderedFramesFail() throws {
        let keys = testKeys()
        var phone = SecureChannel(keys: keys, isInitiator: true)
        var tv = SecureChannel(keys: keys, isInitiator: false)
        let first = try phone.seal(.intent, [1])
        let second = try phone.seal(.intent, [2])
        #expect(throws: ChannelError.authenticationFailed(counter: 0)) { try tv.open(second) }
        _ = first
    }

    @Test(arguments: [0, 5, 17])
    func anAlteredByteFails(index: Int) throws {
        let keys = testKeys()
        var phone = SecureChannel(keys: keys, isInitiator: true)
        var tv = SecureChannel(keys: keys, isInitiator: false)
        var frame = try phone.seal(.intent, Array("seek 120".utf8))
        frame.payload[index % frame.payload.count] ^= 0x01
        #expect(throws: ChannelError.authenticationFailed(counter: 0)) { try tv.open(frame) }
    }

    @Test func aSwappedMessageTypeFails() throws {
        let keys = testKeys()
        var phone = SecureChannel(keys: keys, isInitiator: true)
        var tv = SecureChannel(keys: keys, isInitiator: false)
        var frame = try phone.seal(.move, [4])
        frame.type = LinkMessageType.intent.rawValue
        #expect(throws: ChannelError.authenticationFailed(counter: 0)) { try tv.open(frame) }
    }

    @Test func aTruncatedFrameFails() throws {
        let keys = testKeys()
        var tv = SecureChannel(keys: keys, isInitiator: false)
        #expect(throws: ChannelError.frameTooShort(3)) { try tv.open(Frame(.intent, payload: [1, 2, 3])) }
    }

    @Test func handshakeMessagesAreNotAcceptedOnAnEstablishedChannel() {
        var tv = SecureChannel(keys: testKeys(), isInitiator: false)
        #expect(throws: ChannelError.unexpectedHandshakeMessage(LinkMessageType.hello.rawValue)) {
            try tv.open(Frame(.hello, payload: Array(repeating: 0, count: 40)))
        }
    }

    @Test func sendingStopsWhenTheNoncesRunOut() throws {
        let keys = testKeys()
        var phone = SecureChannel(keys: keys, isInitiator: true, frameLimit: 3)
        var tv = SecureChannel(keys: keys, isInitiator: false, frameLimit: 3)
        for _ in 0..<3 { _ = try tv.open(phone.seal(.intent, [0])) }
        #expect(throws: ChannelError.nonceExhausted) { try phone.seal(.intent, [0]) }
        // Nor does the receiver accept a fourth (it would reuse a nonce).
        var other = SecureChannel(keys: keys, isInitiator: true, frameLimit: 4)
        for _ in 0..<3 { _ = try other.seal(.intent, [0]) }
        #expect(throws: ChannelError.nonceExhausted) { try tv.open(other.seal(.intent, [0])) }
    }
}
