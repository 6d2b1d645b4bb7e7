import DeviceLink
import Foundation

/// `marquee remote --listen`: the remote waits to be chosen, like an iPhone app advertising
/// its application service to a TV's picker. It listens for device links (and advertises
/// `_marquee._tcp` with `role=remote` unless it listens on loopback); the TV that connects asks
/// to pair, both show the six digits and each person approves. The link the TV started then
/// carries this remote's intents (or game moves) and the TV's answers, like a link the remote
/// started itself; the TV reconnects after an abort. Later, `marquee remote --connect` reaches
/// the same TV without approving again.
struct ListeningRemote {
    var identity: DeviceIdentity
    var trust: DeviceTrust
    var service: String
    var host: String
    var port: Int
    var advertise: Bool

    /// Lets a TV's answers through: `intentResult` and `nowPlaying` for `remote`, `gameState`
    /// for `tictactoe`, from a TV paired for that service.
    struct TVAnswers: LinkAuthorization {
        func mayPerform(_ type: LinkMessageType, service: ApplicationService, device: PairedDevice) async -> Bool {
            guard device.services.contains(service.identifier) else { return false }
            switch service.identifier {
            case "remote": return type == .intentResult || type == .nowPlaying
            case "tictactoe": return type == .gameState
            default: return false
            }
        }
    }

    /// The link the remote sends on: the latest one a TV established.
    actor CurrentLink {
        private var connection: LinkConnection?
        func set(_ connection: LinkConnection?) { self.connection = connection }
        func send(_ type: LinkMessageType, _ payload: [UInt8]) async -> Bool {
            guard let connection, (try? await connection.send(type, payload)) != nil else { return false }
            return true
        }
        func close() async { await connection?.close() }
    }

    func run(input: LineInput, output: RemoteOutput) async throws {
        let listener: TCPLinkListener
        do {
            listener = try await TCPLinkListener.bind(host: host, port: port)
        } catch {
            throw RemoteListenError(description: "cannot listen on \(host):\(port): \(error)")
        }
        defer { listener.close() }
        var line = "Waiting for a TV to choose “\(identity.name)” on port \(listener.port) (\(identity.fingerprint.prefix(8)))"
        var advertisement: DNSSDAdvertisement?
        let loopback = host == "localhost" || host.hasPrefix("127.") || host == "::1"
        if advertise && !loopback {
            do {
                advertisement = try await DNSSDAdvertisement.register(
                    name: identity.name, port: listener.port,
                    txt: [
                        ("txtvers", "1"), ("id", identity.deviceID), ("fp", identity.fingerprint), ("pf", identity.platform),
                        ("name", identity.name), ("services", service), ("role", "remote"),
                    ])
                line += "; advertised nearby"
            } catch {
                line += "; not advertised: \(error)"
            }
        } else {
            line += "; not advertised (\(loopback ? "listening on loopback" : "--no-advertise"))"
        }
        defer { advertisement?.stop() }
        output.say(line)

        let offered = ApplicationServices(ApplicationServices.marquee.services.filter { $0.identifier == service })
        let responder = LinkResponder(identity: identity, services: offered, trust: trust, authorization: TVAnswers())
        let current = CurrentLink()
        let accepting = Task {
            for await transport in listener.transports {
                do {
                    let connection = try await responder.accept(transport) { code, peer, _ in
                        let question = "Pairing with “\(peer.name)”: both screens show \(code). Same code on the TV? [y/N]"
                        let answer = await input.ask(question, on: output)?.trimmingCharacters(in: .whitespaces).lowercased()
                        return answer == "y" || answer == "yes"
                    }
                    output.say(connection.newlyPaired ? "Paired with “\(connection.peer.name)”." : "Connected to “\(connection.peer.name)”.")
                    await current.set(connection)
                    Task {
                        do {
                            for try await message in connection.messages { output.show(message) }
                            output.say("Disconnected: \(await connection.closeReason ?? .closedByPeer)")
                        } catch {
                            output.say("Disconnected: \(error)")
                        }
                    }
                } catch {
                    output.say("Stopped: \(error)")
                }
            }
        }
        defer { accepting.cancel() }
        let loop = RemoteCommandLoop(
            commands: RemoteCommands(service: service), output: output,
            notConnected: "No TV is connected yet: choose this remote on the TV's Nearby devices page.")
        await loop.run(input.commands) { type, payload in await current.send(type, payload) }
        await current.close()
    }
}

struct RemoteListenError: Error, CustomStringConvertible {
    var description: String
}
