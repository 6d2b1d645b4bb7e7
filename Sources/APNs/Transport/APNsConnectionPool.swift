import Foundation
import NIOCore
import NIOSSL

/// HTTP/2 connections to APNs' origins, and the queue of requests waiting for a stream.
///
/// A request gets a stream only when a connection has one free under the server's
/// SETTINGS_MAX_CONCURRENT_STREAMS; the rest wait here, in order, and their time limit has
/// not started. When every connection to an origin is full and requests wait, another
/// connection is opened, up to `maximumConnections`. A connection that is going away (GOAWAY)
/// or closed takes no new streams and leaves the pool.
actor APNsConnectionPool {
    /// How many connections may be open to one origin at once.
    let maximumConnections: Int
    let connectTimeout: TimeAmount
    private let tls: NIOSSLContext
    private var origins: [APNsOrigin: OriginState] = [:]
    private var isShutDown = false

    /// The connections to one origin, how many streams each has open, and who waits. A class,
    /// changed in place: as a value in the dictionary, every change would copy the queue of
    /// waiting requests (100,000 of them in a large send).
    final class OriginState {
        var connections: [Slot] = []
        var connecting = 0
        var waiting = CircularBuffer<CheckedContinuation<APNsConnection?, Never>>()
        /// Why the last attempt to connect failed (given to whoever waited for it).
        var lastConnectFailure: String?
    }

    struct Slot {
        let connection: APNsConnection
        var open = 0
    }

    init(tls: NIOSSLContext, maximumConnections: Int, connectTimeout: TimeAmount) {
        self.tls = tls
        self.maximumConnections = max(1, maximumConnections)
        self.connectTimeout = connectTimeout
    }

    /// Waits for a free stream to `origin`, sends `request` on it, and returns the outcome;
    /// `timeout` counts only from the moment the stream opens.
    func execute(_ request: APNsWireRequest, on origin: APNsOrigin, timeout: TimeAmount) async -> APNsWireOutcome {
        guard !isShutDown else { return .notProcessed("the APNs client has been shut down") }
        guard let connection = await acquire(origin) else {
            let reason = origins[origin]?.lastConnectFailure ?? "no connection"
            return .notProcessed("could not connect to APNs at \(origin): \(reason)")
        }
        let outcome = await connection.perform(request, timeout: timeout)
        release(connection)
        return outcome
    }

    /// Open connections to `origin` (tests check that a saturated connection gets company).
    func connectionCount(_ origin: APNsOrigin) -> Int { origins[origin]?.connections.count ?? 0 }

    /// Closes every connection; later requests are refused.
    func shutdown() async {
        isShutDown = true
        let all = origins.values.flatMap { $0.connections.map(\.connection) }
        for state in origins.values { for waiter in state.waiting { waiter.resume(returning: nil) } }
        origins = [:]
        for connection in all { await connection.close() }
    }

    // MARK: Streams

    private func state(_ origin: APNsOrigin) -> OriginState {
        if let state = origins[origin] { return state }
        let state = OriginState()
        origins[origin] = state
        return state
    }

    private func acquire(_ origin: APNsOrigin) async -> APNsConnection? {
        let state = state(origin)
        if state.waiting.isEmpty, let connection = takeFreeStream(state) { return connection }
        return await withCheckedContinuation { continuation in
            state.waiting.append(continuation)
            pump(origin)
        }
    }

    /// A connection with a free stream, which is then counted as open; nil when none has one.
    private func takeFreeStream(_ state: OriginState) -> APNsConnection? {
        if state.connections.contains(where: { !$0.connection.currentStatus.isUsable && $0.open == 0 }) {
            let finished = state.connections.filter { !$0.connection.currentStatus.isUsable && $0.open == 0 }
            state.connections.removeAll { !$0.connection.currentStatus.isUsable && $0.open == 0 }
            // A connection going away (GOAWAY) with no stream left is closed here.
            Task { for slot in finished { await slot.connection.close() } }
        }
        var best: Int?
        for index in state.connections.indices {
            let slot = state.connections[index]
            let status = slot.connection.currentStatus
            guard status.isUsable, let limit = status.maxConcurrentStreams, slot.open < limit else { continue }
            if best == nil || slot.open < state.connections[best!].open { best = index }
        }
        guard let best else { return nil }
        state.connections[best].open += 1
        return state.connections[best].connection
    }

    private func release(_ connection: APNsConnection) {
        let origin = connection.origin
        guard let state = origins[origin], let index = state.connections.firstIndex(where: { $0.connection === connection }) else { return }
        state.connections[index].open -= 1
        pump(origin)
    }

    /// Hands free streams to waiting requests, in order, and opens another connection when
    /// requests still wait and every connection is full.
    private func pump(_ origin: APNsOrigin) {
        guard let state = origins[origin] else { return }
        while !state.waiting.isEmpty, let connection = takeFreeStream(state) {
            state.waiting.removeFirst().resume(returning: connection)
        }
        guard !state.waiting.isEmpty, !isShutDown else { return }
        let usable = state.connections.filter { $0.connection.currentStatus.isUsable }.count
        guard state.connecting == 0, usable + state.connecting < maximumConnections else { return }
        state.connecting += 1
        Task { await self.open(origin) }
    }

    private func open(_ origin: APNsOrigin) async {
        let state = state(origin)
        do {
            let connection = try await APNsConnection.connect(to: origin, tls: tls, timeout: connectTimeout) { [weak self] in
                guard let self else { return }
                Task { await self.connectionChanged(origin) }
            }
            state.connecting -= 1
            if isShutDown {
                await connection.close()
                return
            }
            state.connections.append(Slot(connection: connection))
            state.lastConnectFailure = nil
            pump(origin)
        } catch {
            state.connecting -= 1
            state.lastConnectFailure = String(describing: error)
            // Nothing to wait for when no connection is left: the waiting requests fail now
            // (their sender retries with back-off) instead of hanging.
            if !state.connections.contains(where: { $0.connection.currentStatus.isUsable }) {
                let waiting = state.waiting
                state.waiting.removeAll()
                for waiter in waiting { waiter.resume(returning: nil) }
            }
        }
    }

    private func connectionChanged(_ origin: APNsOrigin) {
        pump(origin)
    }
}
