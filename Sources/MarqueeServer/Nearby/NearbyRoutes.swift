import DeviceLink
import Foundation
import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// `/api/devices`: this TV's nearby-device identity and application services, the pairings
/// waiting for approval (with their codes), the paired devices, and revoking one. On the
/// normal router, so access control covers it like every other route. The WebSocket routes
/// (the device link, the screen) are in `NearbyRoutes+Sockets.swift`.
struct NearbyRoutes: Sendable {
    let devices: NearbyDevices
    /// The web app's pages.
    let pages: WebPages

    func register(on router: Router<MarqueeRequestContext>) {
        router.get("devices", use: devicesPage)
        // The web remote a phone opens (from the TV's QR code) before it has any account: it
        // pairs over the device link, which needs the TV person's approval.
        router.get("remote", use: remotePage)
        let api = router.group("api")
        api.get("devices", use: overview)
        api.get("devices/nearby", use: nearby)
        // The TV asks a device the person chose (found nearby, or typed) to pair.
        api.post("devices/pairings", use: startPairing)
        // "Play on…": the other TVs this one paired with, and handing an item to one.
        api.get("devices/tvs", use: playOnTargets)
        api.post("devices/play-on", use: playOn)
        api.post("devices/pairings/{id}", use: answerPairing)
        router.ws("api/devices/link", shouldUpgrade: Self.upgradeDeviceLink, onUpgrade: deviceLink)
        router.ws("api/devices/screen", shouldUpgrade: Self.upgradeScreen, onUpgrade: screen)
        api.delete("devices/{id}", use: revoke)
    }

    @Sendable func devicesPage(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        try await pages.page("devices.html", request: request, context: context)
    }

    @Sendable func remotePage(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        try await pages.page("remote.html", request: request, context: context)
    }

    /// `GET /api/devices`: identity, services, pairings waiting and started, paired devices, games.
    @Sendable func overview(_ request: Request, context: MarqueeRequestContext) async throws -> Overview {
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

    /// `GET /api/devices/nearby`: what DNS-SD finds, filtered by `service` and `platform`.
    @Sendable func nearby(_ request: Request, context: MarqueeRequestContext) async throws -> NearbyList {
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

    /// `POST /api/devices/pairings`: `202` with the pairing started.
    @Sendable func startPairing(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        let target = try await request.decode(as: NearbyDevices.PairingTarget.self, context: context)
        let started = try await devices.startPairing(with: target)
        return try NearbyJSON(started).response(from: request, context: context).with(status: .accepted)
    }

    @Sendable func playOnTargets(_ request: Request, context: MarqueeRequestContext) async throws -> PlayOnTargets {
        PlayOnTargets(tvs: await devices.playOnTargets)
    }

    @Sendable func playOn(_ request: Request, context: MarqueeRequestContext) async throws -> NearbyJSON<NearbyDevices.PlayOnAnswer> {
        let body = try await request.decode(as: PlayOnBody.self, context: context)
        return NearbyJSON(try await devices.playOn(deviceID: body.deviceID, assetID: body.assetID, time: body.time, rate: body.rate))
    }

    /// `POST /api/devices/pairings/{id}` with `{"approved": …}`: the person's answer to a code.
    @Sendable func answerPairing(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        let id = try context.parameters.require("id")
        let answer = try await request.decode(as: Answer.self, context: context)
        guard await devices.answer(id, approved: answer.approved) else {
            // A pairing this TV started that is not at its code (still connecting, or ended)
            // is there to see in GET /api/devices: a conflict with its state, not a 404.
            if let started = await devices.outgoingPairings.first(where: { $0.id == id }) {
                throw APIError(.conflict, Self.notWaitingSentence(started), code: "pairing-not-waiting")
            }
            throw APIError(.notFound, "No pairing \(id) is waiting for approval (it may have been cancelled or timed out)")
        }
        return Response(status: .noContent)
    }

    /// Why a pairing this TV started cannot take an answer now, in words.
    static func notWaitingSentence(_ pairing: NearbyDevices.OutgoingPairing) -> String {
        switch pairing.state {
        case .connecting: "The pairing with \(pairing.name) has no code to answer yet: it is still connecting"
        case .confirming: "The pairing with \(pairing.name) was already answered here; it waits for the other device"
        case .paired: "The pairing with \(pairing.name) is already complete"
        case .failed: "The pairing with \(pairing.name) has ended: \(pairing.message ?? "it failed")"
        }
    }

    @Sendable func revoke(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        let id = try context.parameters.require("id")
        guard await devices.revoke(id: id) != nil else { throw APIError(.notFound, "No paired device \(id)") }
        return Response(status: .noContent)
    }
}
