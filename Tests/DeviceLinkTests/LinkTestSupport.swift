import Foundation
import Testing

@testable import DeviceLink

/// Where the two people look: each device posts the code it shows and gets the other
/// device's code, then approves only if they are the same (what a person does).
actor CodeBoard {
    private var codes: [String: PairingCode] = [:]
    private var waiters: [String: CheckedContinuation<PairingCode, Never>] = [:]
    private(set) var asked = 0

    func post(_ side: String, _ code: PairingCode, other: String) async -> PairingCode {
        asked += 1
        codes[side] = code
        if let waiter = waiters.removeValue(forKey: other) { waiter.resume(returning: code) }
        if let theirs = codes[other] { return theirs }
        return await withCheckedContinuation { waiters[side] = $0 }
    }

    /// An approver for `side` that compares with `other`'s code.
    nonisolated func approver(_ side: String, other: String) -> LinkHandshake.Approver {
        { code, _, _ in await self.post(side, code, other: other) == code }
    }
}

/// A TV in memory: a responder that accepts every transport handed to it and keeps the connections.
actor TestTV {
    let responder: LinkResponder
    let approve: LinkHandshake.Approver
    private(set) var connections: [LinkConnection] = []
    private(set) var failures: [LinkClosed] = []
    private var received: [(session: String, message: LinkMessage)] = []
    private var waiters: [(Int, CheckedContinuation<Void, Never>)] = []

    init(
        identity: DeviceIdentity = tvIdentity(), trust: DeviceTrust, heartbeat: HeartbeatPolicy = HeartbeatPolicy(),
        approve: @escaping LinkHandshake.Approver
    ) {
        // The handshake timeout only bounds a failing run: with 10 s, a full parallel run on two
        // loaded cores once aborted healthy handshakes (tests of the timeout use their own responder).
        responder = LinkResponder(identity: identity, services: .marquee, trust: trust, heartbeat: heartbeat, handshakeTimeout: .seconds(60))
        self.approve = approve
    }

    /// Joins a new in-memory transport to this TV and returns the other end.
    nonisolated func dial() -> any LinkTransport {
        let (client, server) = InMemoryTransport.pair()
        Task { await self.accept(server) }
        return client
    }

    func accept(_ transport: any LinkTransport) async {
        do {
            let connection = try await responder.accept(transport, approve: approve)
            connections.append(connection)
            Task {
                do { for try await message in connection.messages { self.record(connection.session, message) } } catch {}
            }
        } catch {
            failures.append(error as? LinkClosed ?? .transportAborted)
        }
    }

    private func record(_ session: String, _ message: LinkMessage) {
        received.append((session, message))
        for (count, waiter) in waiters where received.count >= count { waiter.resume() }
        waiters.removeAll { received.count >= $0.0 }
    }

    var messages: [(session: String, message: LinkMessage)] { received }

    /// Waits (up to a minute, which only bounds a failing run) until `count` messages have arrived.
    func waitForMessages(_ count: Int) async throws {
        if received.count >= count { return }
        let tv = self
        let timeout = Task {
            try await Task.sleep(for: .seconds(60))  // the bound on a failing wait, not a wait itself
            await tv.releaseWaiters()
        }
        await withCheckedContinuation { waiters.append((count, $0)) }
        timeout.cancel()
        try #require(received.count >= count, "timed out waiting for \(count) messages, got \(received.count)")
    }

    private func releaseWaiters() {
        for (_, waiter) in waiters { waiter.resume() }
        waiters = []
    }
}

/// A transport between two others that can misbehave on command: alter, replay, hold back
/// (reorder) or swallow what the phone sends.
actor Meddler {
    enum Mode { case pass, flipByteInNext, replayNext, holdNextThenSwapWithFollowing, swallowEverything }
    var mode = Mode.pass
    private var held: [UInt8]?

    func set(_ mode: Mode) { self.mode = mode }

    func chunks(for bytes: [UInt8]) -> [[UInt8]] {
        switch mode {
        case .pass: return [bytes]
        case .flipByteInNext:
            mode = .pass
            var altered = bytes
            altered[altered.count - 1] ^= 0x20
            return [altered]
        case .replayNext:
            mode = .pass
            return [bytes, bytes]
        case .holdNextThenSwapWithFollowing:
            if let held {
                mode = .pass
                self.held = nil
                return [bytes, held]
            }
            held = bytes
            return []
        case .swallowEverything: return []
        }
    }
}

struct MeddlingTransport: LinkTransport {
    let inner: any LinkTransport
    let meddler: Meddler

    func send(_ bytes: [UInt8]) async throws {
        for chunk in await meddler.chunks(for: bytes) { try await inner.send(chunk) }
    }

    func receive() async throws -> [UInt8]? { try await inner.receive() }
    func close() async { await inner.close() }
}
