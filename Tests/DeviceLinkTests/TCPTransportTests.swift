import Foundation
import Testing

@testable import DeviceLink

@Suite struct TCPTransportTests {
    @Test func pairsAndReconnectsOverLoopbackTCP() async throws {
        let board = CodeBoard()
        let tv = TestTV(trust: try DeviceTrust(), approve: board.approver("tv", other: "phone"))
        let listener = try await TCPLinkListener.bind(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        Task { for await transport in listener.transports { Task { await tv.accept(transport) } } }
        let phone = LinkClient(
            identity: phoneIdentity(), trust: try DeviceTrust(), service: "remote",
            backoff: ReconnectBackoff(initial: .milliseconds(20), maximum: .milliseconds(100)),
            connect: { try await TCPTransport.connect(host: "127.0.0.1", port: listener.port) },
            approve: board.approver("phone", other: "tv"))
        await phone.start()
        await phone.send(.intent, Array("one".utf8))
        try await tv.waitForMessages(1)
        // Cut the TCP connection under the link: the phone reconnects without asking anyone.
        await phone.current?.abort()
        await phone.send(.intent, Array("two".utf8))
        try await tv.waitForMessages(2)
        #expect(await tv.messages.map { String(decoding: $0.message.payload, as: UTF8.self) } == ["one", "two"])
        #expect(await board.asked == 2)
        #expect(await phone.connectionCount == 2)
        await phone.stop()
    }

    @Test func aLargeMessageCrossesInManyTCPReads() async throws {
        let listener = try await TCPLinkListener.bind(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        let payload = (0..<60_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let received = Task { () -> Frame? in
            for await transport in listener.transports { return try? await FrameReader(transport: transport).next() }
            return nil
        }
        let client = try await TCPTransport.connect(host: "127.0.0.1", port: listener.port)
        try await client.send(Frame(.intent, payload: payload).encoded)
        #expect(await received.value == Frame(.intent, payload: payload))
        await client.close()
    }
}
