import Foundation

/// Runs a `PairingHandshake` over a transport: sends what it says, shows the code through
/// `approve` (racing the peer's answer, so a rejection on the other device ends the wait),
/// and gives up after `timeout`.
public enum LinkHandshake {
    /// Asks the person whether both devices show `code`, for `peer` asking for a service.
    public typealias Approver = @Sendable (PairingCode, PeerIdentity, String) async -> Bool

    private enum Next: Sendable {
        case frame(Frame?)
        case frameError(LinkClosed)
        case decision(Bool)
    }

    /// Drives `handshake` (after `first` frames are sent) until it establishes or fails.
    /// `firstFrameTimeout`, when given, is how long the peer has to send its first frame (a
    /// responder's short wait for the hello: a connection that says nothing is closed long
    /// before `timeout`, which leaves people time to compare codes). `failed` hears how a
    /// failed handshake ended and who the peer said it was, before the error is thrown.
    public static func run(
        _ handshake: PairingHandshake, sending first: [Frame], transport: any LinkTransport, reader: FrameReader,
        timeout: Duration = .seconds(120), firstFrameTimeout: Duration? = nil, approve: @escaping Approver,
        failed: (@Sendable (HandshakeFailure, PeerIdentity?) async -> Void)? = nil
    ) async throws -> LinkEstablishment {
        var handshake = handshake
        let deadline = ContinuousClock.now + timeout
        let timer = Task {
            try await Task.sleep(for: timeout)
            await transport.close()
        }
        let silence = SilenceWatch()
        let firstFrameTimer = firstFrameTimeout.map { limit in
            Task {
                try await Task.sleep(for: limit)
                await silence.expire()
                await transport.close()
            }
        }
        var pendingDecision: Task<Next, Never>?
        defer {
            timer.cancel()
            firstFrameTimer?.cancel()
            pendingDecision?.cancel()
        }
        var actions: [PairingHandshake.Action] = first.map { .send($0) }
        var pendingFrame: Task<Next, Never>?
        while true {
            for action in actions {
                switch action {
                case .send(let frame):
                    try await transport.send(frame.encoded)
                case .showCode(let code, let peer, let service):
                    pendingDecision = Task { .decision(await approve(code, peer, service)) }
                case .established(let establishment):
                    pendingDecision?.cancel()
                    return establishment
                case .failed(let failure):
                    pendingDecision?.cancel()
                    await failed?(failure, handshake.helloPeer)
                    throw LinkClosed.handshake(failure)
                }
            }
            let next: Next
            if !handshake.expectsPeerMessage, pendingFrame == nil, let decision = pendingDecision {
                // Only our person's answer is missing; the peer's next frame belongs to the channel.
                next = await decision.value
            } else {
                let frameTask =
                    pendingFrame
                    ?? Task {
                        do { return .frame(try await reader.next()) } catch let error as FrameError {
                            return .frameError(.frame(error))
                        } catch let error as LinkClosed { return .frameError(error) } catch { return .frameError(.transportAborted) }
                    }
                pendingFrame = frameTask
                next = await firstOf(frameTask, pendingDecision)
            }
            switch next {
            case .decision(let approved):
                pendingDecision = nil
                actions = handshake.decide(approved: approved)
            case .frame(let frame):
                pendingFrame = nil
                guard let frame else {
                    let silent = await silence.expired
                    throw ContinuousClock.now >= deadline || silent ? LinkClosed.handshakeTimedOut : LinkClosed.transportAborted
                }
                if await silence.heard() { firstFrameTimer?.cancel() }
                actions = handshake.receive(frame)
            case .frameError(let error):
                throw await silence.expired ? LinkClosed.handshakeTimedOut : error
            }
        }
    }

    private static func firstOf(_ frame: Task<Next, Never>, _ decision: Task<Next, Never>?) async -> Next {
        guard let decision else { return await frame.value }
        let (stream, continuation) = AsyncStream.makeStream(of: Next.self)
        let a = Task { continuation.yield(await frame.value) }
        let b = Task { continuation.yield(await decision.value) }
        defer {
            a.cancel()
            b.cancel()
        }
        for await next in stream { return next }
        return await frame.value
    }
}

/// Whether the peer's first frame came before the first-frame limit.
private actor SilenceWatch {
    private(set) var expired = false
    private var spoke = false

    func expire() { if !spoke { expired = true } }

    /// Notes the first frame; true if the limit had not passed yet.
    func heard() -> Bool {
        spoke = true
        return !expired
    }
}
