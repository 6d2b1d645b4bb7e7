import DeviceLink
import Foundation
import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// `/api/devices`: this TV's nearby-device identity and application services, the pairings
/// waiting for approval (with their codes), the paired devices, and revoking one. On the
/// normal router, so access control covers it like every other route.
struct NearbyRoutes: Sendable {
    let devices: NearbyDevices
    let webRoot: URL
    let responder: MediaFileResponder

    struct Overview: ResponseEncodable {
        struct Service: Codable {
            var identifier: String
            var usageDescription: [String: String]
            var platforms: [String]
        }
        struct Paired: Codable {
            var id: String
            var name: String
            var platform: String
            var fingerprint: String
            var services: [String]
            var pairedAt: Date
        }
        var name: String
        var deviceID: String
        var fingerprint: String
        /// The TCP port nearby devices connect to (`marquee remote --connect HOST:PORT`).
        var port: Int?
        var advertised: Bool
        var advertisingProblem: String?
        var services: [Service]
        var pending: [NearbyDevices.PendingPairing]
        /// Pairings this TV started with a device chosen on `/devices`, the newest first.
        var outgoing: [NearbyDevices.OutgoingPairing]
        var paired: [Paired]
        /// Seconds until pairing opens again after too many failed attempts, or null.
        var pairingLockedFor: Double?
        /// Tic-Tac-Toe games against the TV, the most recently played first.
        var games: [Game]
        /// The addresses a phone on the local network opens the web remote at (`http://ADDRESS:PORT/remote`,
        /// with this server's HTTP port); empty when the server listens on loopback only.
        var webRemoteAddresses: [String]
    }

    struct Game: Codable {
        var device: String
        var board: [String]
        var phone: String?
        var tv: String?
        var outcome: String
    }

    /// `GET /api/devices/nearby`: the Marquee devices DNS-SD finds on the local network (not this
    /// TV), filtered by application service and platform; `problem` says why none could be looked for.
    struct NearbyList: ResponseEncodable {
        struct Device: Codable {
            var name: String
            var deviceID: String?
            var platform: String?
            var services: [String]
            var fingerprint: String?
            var host: String
            var port: Int
            var addresses: [String]
            /// `remote` for a `marquee remote --listen`, `tv` for a Marquee server.
            var role: String
        }
        var devices: [Device]
        var problem: String?
    }

    struct Answer: Decodable {
        var approved: Bool
    }

    struct PlayOnBody: Decodable {
        var deviceID: String
        var assetID: String
        var time: Double
        var rate: Double
    }

    struct PlayOnTargets: ResponseEncodable {
        var tvs: [NearbyDevices.PlayOnTarget]
    }

    func register(on router: Router<MarqueeRequestContext>) {
        router.get("devices") { request, context in
            try await responder.page("devices.html", in: webRoot, request: request, context: context)
        }
        // The web remote a phone opens (from the TV's QR code) before it has any account: it
        // pairs over the device link, which needs the TV person's approval.
        router.get("remote") { request, context in
            try await responder.page("remote.html", in: webRoot, request: request, context: context)
        }
        let api = router.group("api")
        api.get("devices") { _, _ -> Overview in
            let trusted = await devices.trust.devices
            return Overview(
                name: devices.identity.name, deviceID: devices.identity.deviceID, fingerprint: devices.identity.fingerprint,
                port: await devices.port, advertised: await devices.isAdvertised, advertisingProblem: await devices.advertisingProblem,
                services: devices.services.services.map { .init(identifier: $0.identifier, usageDescription: $0.usageDescription, platforms: $0.platforms) },
                pending: await devices.pendingPairings,
                outgoing: await devices.outgoingPairings,
                paired: trusted.map {
                    .init(
                        id: $0.id, name: $0.peer.name, platform: $0.peer.platform, fingerprint: $0.fingerprint,
                        services: $0.services, pairedAt: $0.pairedAt)
                },
                pairingLockedFor: await devices.trust.pairingLockedFor,
                games: await devices.currentGames.map { entry in
                    Game(
                        device: entry.device, board: entry.game.board.map { $0?.rawValue ?? "" }, phone: entry.game.phone?.rawValue,
                        tv: entry.game.tv?.rawValue, outcome: entry.game.outcome.rawValue)
                },
                webRemoteAddresses: WebRemoteAddresses.forListening(on: await devices.listeningHost))
        }
        api.get("devices/nearby") { request, _ -> NearbyList in
            let service = request.uri.queryParameters.get("service")
            let platform = request.uri.queryParameters.get("platform")
            if let service, devices.services[service] == nil {
                throw APIError(
                    .badRequest,
                    "Unknown application service \"\(service)\"; this TV offers \(devices.services.services.map(\.identifier).joined(separator: ", "))")
            }
            let found: [DiscoveredDevice]
            do {
                found = try await DNSSDBrowser.browse(for: 1.5, service: service)
            } catch {
                return NearbyList(devices: [], problem: "Cannot browse the local network: \(error) (is avahi-daemon running?)")
            }
            let own = devices.identity.deviceID
            return NearbyList(
                devices: found.filter { $0.deviceID != own && (platform == nil || $0.platform == platform) }.map {
                    .init(
                        name: $0.friendlyName, deviceID: $0.deviceID, platform: $0.platform, services: $0.services, fingerprint: $0.fingerprint,
                        host: $0.host, port: $0.port, addresses: $0.addresses, role: $0.txt["role"] ?? "tv")
                })
        }
        // The TV asks a device the person chose (found nearby, or typed) to pair.
        api.post("devices/pairings") { request, context -> Response in
            let target = try await request.decode(as: NearbyDevices.PairingTarget.self, context: context)
            let started: NearbyDevices.OutgoingPairing
            do {
                started = try await devices.startPairing(with: target)
            } catch let error as NearbyDevices.ChoosingError {
                switch error {
                case .badTarget(let problem): throw APIError(.badRequest, problem)
                case .locked: throw APIError(.tooManyRequests, error.description)
                }
            }
            return try NearbyJSON(started).response(from: request, context: context).with(status: .accepted)
        }
        // "Play on…": the other TVs this one paired with, and handing an item to one.
        api.get("devices/tvs") { _, _ -> PlayOnTargets in
            PlayOnTargets(tvs: await devices.playOnTargets)
        }
        api.post("devices/play-on") { request, context -> NearbyJSON<NearbyDevices.PlayOnAnswer> in
            let body = try await request.decode(as: PlayOnBody.self, context: context)
            do {
                return NearbyJSON(try await devices.playOn(deviceID: body.deviceID, assetID: body.assetID, time: body.time, rate: body.rate))
            } catch let error as NearbyDevices.PlayOnError {
                switch error {
                case .unknownTV, .unknownItem: throw APIError(.notFound, error.description)
                case .badRequest: throw APIError(.badRequest, error.description)
                case .unreachable: throw APIError(.badGateway, error.description)
                case .refused: throw APIError(.conflict, error.description)
                }
            }
        }
        api.post("devices/pairings/{id}") { request, context -> Response in
            let id = try context.parameters.require("id")
            let answer = try await request.decode(as: Answer.self, context: context)
            guard await devices.answer(id, approved: answer.approved) else {
                throw APIError(.notFound, "No pairing \(id) is waiting for approval (it may have been cancelled or timed out)")
            }
            return Response(status: .noContent)
        }
        // The device link over WebSocket (browsers): binary messages carry the same frames as TCP.
        router.ws("api/devices/link") { request, _ in
            // A plain GET (no upgrade) is not an empty 200.
            guard request.headers[.upgrade]?.lowercased() == "websocket" else {
                throw APIError(.upgradeRequired, "This is the device link WebSocket: connect with Upgrade: websocket")
            }
            return .upgrade([:])
        } onUpgrade: { inbound, outbound, _ in
            let transport = BridgedTransport()
            // The link ends the socket when it closes; a socket that drops (or a server shutting
            // down) ends the link. Neither is an error for the server.
            do {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for await bytes in transport.outbound { try await outbound.write(.binary(ByteBuffer(bytes: bytes))) }
                        // Closed only once everything the link sent (a refusal, a goodbye) is written.
                        try? await outbound.close(.normalClosure, reason: nil)
                    }
                    group.addTask {
                        await devices.accept(transport)
                        await transport.close()
                    }
                    for try await message in inbound.messages(maxSize: Frame.defaultMaximumPayload + Frame.headerSize + 64) {
                        if case .binary(let buffer) = message { await transport.inbound.push(Array(buffer.readableBytesView)) }
                    }
                    await transport.inbound.finish()
                    try await group.waitForAll()
                }
            } catch {
                await transport.close()
            }
        }
        // The TV's own pages listen here for "Play on…" (text messages: a PlayRequest as JSON).
        router.ws("api/devices/screen") { request, _ in
            guard request.headers[.upgrade]?.lowercased() == "websocket" else {
                throw APIError(.upgradeRequired, "This is the TV screen's WebSocket: connect with Upgrade: websocket")
            }
            return .upgrade([:])
        } onUpgrade: { inbound, outbound, _ in
            let (id, requests) = await devices.screens.open()
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await request in requests {
                        guard let data = try? encoder.encode(request) else { continue }
                        do { try await outbound.write(.text(String(decoding: data, as: UTF8.self))) } catch { break }
                    }
                }
                // The page sends nothing; its socket closing ends the screen.
                do { for try await _ in inbound.messages(maxSize: 1024) {} } catch {}
                await devices.screens.close(id)
                group.cancelAll()
            }
        }
        api.delete("devices/{id}") { _, context -> Response in
            let id = try context.parameters.require("id")
            guard await devices.revoke(id: id) != nil else { throw APIError(.notFound, "No paired device \(id)") }
            return Response(status: .noContent)
        }
    }
}

/// A Codable value as a JSON response (for types defined outside this module).
struct NearbyJSON<Value: Encodable & Sendable>: ResponseEncodable {
    var value: Value
    init(_ value: Value) { self.value = value }
    func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
}
