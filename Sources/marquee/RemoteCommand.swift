import ArgumentParser
import DeviceLink
import Foundation
import NIOCore

/// `marquee remote`: finds Marquee TVs nearby (DNS-SD), pairs with one (both show a 6-digit
/// code; approve on both), then controls its playback session or plays Tic-Tac-Toe.
struct RemoteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remote",
        abstract: "Control a Marquee TV nearby: find it, pair, then play/pause, skip, seek, speed, audio, subtitles and volume.",
        discussion: """
            Commands (one per line, also from a pipe): play, pause, toggle, +10, -10, skip SECONDS, seek TIME (seconds or m:ss), \
            speed RATE, audio ID, subs ID|off, volume PERCENT, mute, unmute, status, quit. With --game tictactoe: x or o to pick a character, 1–9 to play a square.
            """
    )

    @Option(help: "Connect to HOST:PORT instead of browsing (the port `marquee serve` prints for nearby devices).")
    var connect: String?

    @Option(help: "Which TV to use when several are found (its name or device id).")
    var device: String?

    @Option(help: "Play a game instead of controlling playback (tictactoe).")
    var game: String?

    @Option(help: "Seconds to browse for TVs.")
    var browseSeconds: Double = 3

    @Option(help: "Where this remote keeps its identity and paired TVs (default: $XDG_CONFIG_HOME/marquee/remote).")
    var config: String?

    @Option(help: "The name the TV shows for this remote (default: this machine's host name).")
    var name: String?

    @Option(help: "Join a watch-together group by its invitation link (http://HOST:PORT/together/TOKEN) and control it.")
    var together: String?

    @Option(help: "With --together: an API token of your account on that server (default: $MARQUEE_TOKEN; without one, the link admits you as a guest).")
    var token: String?

    @Flag(help: "Only list the TVs found, then exit.")
    var list = false

    @Flag(help: "Wait for a TV to choose this remote on its Nearby devices page (listen, and advertise unless on loopback).")
    var listen = false

    @Option(help: "With --listen: the address to listen on.")
    var listenHost: String = "0.0.0.0"

    @Option(help: "With --listen: the port to listen on (0 picks a free one, printed).")
    var listenPort: Int = 0

    @Flag(help: "With --listen: do not advertise over DNS-SD.")
    var noAdvertise = false

    func run() async throws {
        if let together {
            guard connect == nil, device == nil, game == nil, !list, !listen else {
                throw ValidationError("--together joins a group by its link; it does not go with --connect, --device, --game, --list or --listen")
            }
            let remote = TogetherRemote(
                link: together, name: name ?? ProcessInfo.processInfo.hostName,
                apiToken: token ?? ProcessInfo.processInfo.environment["MARQUEE_TOKEN"], output: RemoteOutput())
            do {
                try await remote.run(lines: LineInput().commands)
            } catch let failure as TogetherRemote.Failure {
                FileHandle.standardError.write(Data("Error: \(failure.description)\n".utf8))
                throw ExitCode.failure
            }
            return
        }
        let service = game ?? "remote"
        guard service == "remote" || service == "tictactoe" else { throw ValidationError("--game can be tictactoe") }
        let directory = config.map { URL(fileURLWithPath: $0) } ?? Self.defaultConfigDirectory()
        let identity = try StoredIdentity.loadOrCreate(
            at: directory.appendingPathComponent("identity.json"),
            name: name ?? ProcessInfo.processInfo.hostName, platform: Self.platform)
        let trust = try DeviceTrust(file: directory.appendingPathComponent("trusted-devices.json"))
        if listen {
            guard connect == nil, !list else { throw ValidationError("--listen waits for a TV; it does not go with --connect or --list") }
            guard (0...65535).contains(listenPort) else { throw ValidationError("--listen-port must be between 0 and 65535") }
            let remote = ListeningRemote(
                identity: identity, trust: trust, service: service, host: listenHost, port: listenPort, advertise: !noAdvertise)
            do {
                try await remote.run(input: LineInput(), output: RemoteOutput())
            } catch let error as RemoteListenError {
                throw ValidationError(error.description)
            }
            return
        }

        let target = try await chooseTarget(service: service)
        if list { return }
        guard let target else { return }
        let input = LineInput()
        let output = RemoteOutput()
        let client = LinkClient(
            identity: identity, trust: trust, service: service, expectedFingerprint: target.fingerprint,
            connect: { try await target.connect() },
            approve: { code, peer, _ in
                let question = "Pairing with “\(peer.name)”: both screens show \(code). Same code on the TV? [y/N]"
                let answer = await input.ask(question, on: output)?.trimmingCharacters(in: .whitespaces).lowercased()
                return answer == "y" || answer == "yes"
            })
        await client.start()
        let events = Task {
            for await event in client.events {
                switch event {
                case .connected(let peer, let newlyPaired):
                    output.say(newlyPaired ? "Paired with “\(peer.name)”." : "Connected to “\(peer.name)”.")
                case .disconnected(let reason): output.say("Disconnected: \(reason)")
                case .reconnecting(let attempt, let delay): output.say("Reconnecting (attempt \(attempt), in \(delay))…")
                case .stopped(let reason):
                    if reason != .closedLocally { output.say("Stopped: \(reason)") }
                    return reason == .closedLocally ? nil : reason
                }
            }
            return nil
        }
        let messages = Task { for await message in client.messages { output.show(message) } }
        // The client queues what is sent while it reconnects, so every line is taken.
        await RemoteCommandLoop(commands: RemoteCommands(service: service), output: output).run(input.commands) { type, payload in
            await client.send(type, payload)
            return true
        }
        await client.stop()
        messages.cancel()
        if let reason = await events.value { throw Self.exitStatus(for: reason).exitCode }
    }

    static var platform: String {
        #if os(macOS)
        "macos"
        #else
        "linux"
        #endif
    }

    static func defaultConfigDirectory() -> URL {
        let environment = ProcessInfo.processInfo.environment
        let base =
            environment["XDG_CONFIG_HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config")
        return base.appendingPathComponent("marquee/remote")
    }

    /// Where to connect: `--connect`, or a TV found by browsing.
    struct Target: Sendable {
        var name: String
        var fingerprint: String?
        var endpoints: [(host: String, port: Int)]

        /// Tries every address in turn.
        func connect() async throws -> any LinkTransport {
            var lastError: (any Error)?
            for endpoint in endpoints {
                do { return try await TCPTransport.connect(host: endpoint.host, port: endpoint.port, timeout: .seconds(3)) } catch { lastError = error }
            }
            throw lastError ?? LinkClosed.transportAborted
        }
    }

    private func chooseTarget(service: String) async throws -> Target? {
        if let connect {
            guard let colon = connect.lastIndex(of: ":"), let port = Int(connect[connect.index(after: colon)...]) else {
                throw ValidationError("--connect needs HOST:PORT, e.g. 192.168.1.20:7420")
            }
            let host = String(connect[..<colon]).trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
            return Target(name: host, fingerprint: nil, endpoints: [(host, port)])
        }
        let found: [DiscoveredDevice]
        do {
            found = try await DNSSDBrowser.browse(for: browseSeconds, service: service)
        } catch {
            throw ValidationError("cannot browse for TVs: \(error). Use --connect HOST:PORT instead.")
        }
        for device in found {
            RemoteOutput().say(
                "Found “\(device.friendlyName)” at \(device.addresses.joined(separator: ", ")) port \(device.port) (services: \(device.services.joined(separator: ", ")))"
            )
        }
        if list { return nil }
        let matching = found.filter { device == nil || $0.friendlyName == device || $0.deviceID == device || $0.name == device }
        guard let chosen = matching.first else {
            throw ValidationError(found.isEmpty ? "no Marquee TV offering \(service) was found nearby" : "no TV called \(device ?? "") was found")
        }
        if matching.count > 1 { throw ValidationError("several TVs found; choose one with --device NAME") }
        return Target(
            name: chosen.friendlyName, fingerprint: chosen.fingerprint,
            endpoints: chosen.addresses.map { ($0, chosen.port) } + [(chosen.host, chosen.port)])
    }

    /// The documented exit status for how the link ended (`docs/command-line.md`): the TV refused
    /// or revoked this device, or the pairing failed → 1; the TV stopped answering → 3.
    static func exitStatus(for reason: LinkClosed) -> ExitStatus {
        switch reason {
        case .handshake, .revoked, .notAllowed, .frame, .channel: .failed
        case .transportAborted, .truncatedFrame, .closedByPeer, .peerUnresponsive, .handshakeTimedOut: .unavailable
        case .closedLocally: .success
        }
    }
}

/// Lines from standard input, read on a thread of their own (reading blocks). A line goes to
/// a waiting prompt (the pairing question) if there is one, otherwise to `commands`.
actor LineInput {
    nonisolated let commands: AsyncStream<String>
    private let continuation: AsyncStream<String>.Continuation
    private var prompt: CheckedContinuation<String?, Never>?
    private var ended = false

    init() {
        (commands, continuation) = AsyncStream.makeStream(of: String.self)
        let input = self
        Thread {
            while let line = readLine() {
                let semaphore = DispatchSemaphore(value: 0)
                Task {
                    await input.deliver(line)
                    semaphore.signal()
                }
                semaphore.wait()
            }
            Task { await input.end() }
        }.start()
    }

    /// Asks `question` on `output` and returns the next line typed. The answer is awaited
    /// before the question is shown, so an answer typed the moment it appears is never taken
    /// for a command.
    func ask(_ question: String, on output: RemoteOutput) async -> String? {
        if ended { return nil }
        return await withCheckedContinuation {
            prompt = $0
            output.say(question)
        }
    }

    private func deliver(_ line: String) {
        if let prompt {
            self.prompt = nil
            prompt.resume(returning: line)
        } else {
            continuation.yield(line)
        }
    }

    private func end() {
        ended = true
        prompt?.resume(returning: nil)
        prompt = nil
        continuation.finish()
    }
}
