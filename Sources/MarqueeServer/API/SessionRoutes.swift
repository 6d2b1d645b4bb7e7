import Foundation
import Hummingbird
import HummingbirdWebSocket
import Library
import NIOCore
import NIOWebSocket
import Playback

/// `/api/sessions`: create a playback session for an asset, read it, send it intents
/// (remotes), and the renderer WebSocket a player page connects to.
struct SessionRoutes: Sendable {
    let library: MediaLibrary
    let sessions: PlaybackSessions
    let manifests: PlaybackManifestStore
    /// Stores where each viewer stops, from the renderer's reports, for resuming.
    var positions: PlaybackPositionRecorder? = nil

    /// The body of `POST /api/sessions`.
    struct CreateRequest: Decodable {
        var assetID: String
        /// "en" or "ja", or the browser's `navigator.languages`; else `Accept-Language` decides.
        var language: String?
        var languages: [String]?
        /// Rates for this player's speed menu; `[]` hides it; absent uses the player settings.
        var speeds: [Double]?
        /// The `?speeds=` text of a player address ("0.5,1,2"), read leniently when `speeds` is
        /// absent: entries that are not speeds are left out and reported in the answer's `warnings`.
        var speedList: String?
        /// `false` turns Live Text off for this player (`?allowsVideoFrameAnalysis=false`);
        /// absent uses the player settings. Protected assets never allow it.
        var allowsVideoFrameAnalysis: Bool?
    }

    /// The body of `POST /api/sessions/{id}/intents`: the same fields as a renderer intent frame.
    struct IntentRequest: Decodable {
        var intent: String
        var seconds: Double?
        var time: Double?
        var fraction: Double?
        var rate: Double?
        var step: Int?
        var rendition: String?
        var direction: Int?
    }

    struct IntentResponse: ResponseEncodable {
        var commands: [CommandPayload]
        var state: SessionSnapshot
    }

    func register(on router: Router<MarqueeRequestContext>) {
        let api = router.group("api")
        api.post("sessions") { request, context -> Response in
            let body = try await request.decode(as: CreateRequest.self, context: context)
            let (session, warnings) = try await makeSession(body, acceptLanguage: request.headers[.acceptLanguage])
            await sessions.insert(session)
            var snapshot = SessionSnapshot(session)
            snapshot.warnings = warnings.isEmpty ? nil : warnings
            return try context.responseEncoder.encode(snapshot, from: request, context: context).with(status: .created)
        }
        api.get("sessions/{id}") { request, context -> Response in
            let id = try context.parameters.require("id")
            guard let session = await sessions.session(id: id) else { throw APIError(.notFound, "No playback session \(id)") }
            var response = try context.responseEncoder.encode(SessionSnapshot(session), from: request, context: context)
            response.headers[.cacheControl] = "no-store"
            return response
        }
        api.delete("sessions/{id}") { _, context -> Response in
            let id = try context.parameters.require("id")
            guard await sessions.remove(id: id) else { throw APIError(.notFound, "No playback session \(id)") }
            return Response(status: .noContent)
        }
        api.post("sessions/{id}/intents") { request, context -> IntentResponse in
            let id = try context.parameters.require("id")
            let body = try await request.decode(as: IntentRequest.self, context: context)
            let frame = InboundRendererMessage(
                v: RendererProtocol.version, type: "intent", intent: body.intent, seconds: body.seconds, time: body.time,
                fraction: body.fraction, rate: body.rate, step: body.step, rendition: body.rendition, direction: body.direction)
            guard case .intent(_, let intent) = try parse(frame) else { throw APIError(.badRequest, "Not an intent") }
            guard let result = await sessions.apply(intent, to: id) else { throw APIError(.notFound, "No playback session \(id)") }
            switch result {
            case .success(let commands):
                guard let session = await sessions.session(id: id) else { throw APIError(.notFound, "No playback session \(id)") }
                return IntentResponse(commands: commands.map(CommandPayload.init), state: SessionSnapshot(session))
            case .failure(let refusal):
                throw APIError(.conflict, "The session refused \(body.intent): \(refusal.rawValue)")
            }
        }

        router.ws("api/sessions/{id}/renderer") { request, context in
            // A plain GET (no upgrade) is not an empty 200.
            guard request.headers[.upgrade]?.lowercased() == "websocket" else {
                throw APIError(.upgradeRequired, "This is the renderer WebSocket: connect with Upgrade: websocket")
            }
            guard let id = context.parameters.get("id"), await sessions.session(id: id) != nil else { return .dontUpgrade }
            return .upgrade([:])
        } onUpgrade: { inbound, outbound, context in
            guard let id = context.requestContext.parameters.get("id"),
                let (rendererID, messages) = await sessions.attachRenderer(to: id)
            else { return }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            do {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for await message in messages {
                            let data = try encoder.encode(message)
                            try await outbound.write(.text(String(decoding: data, as: UTF8.self)))
                        }
                        // The stream ends when this renderer was replaced or dropped for not
                        // reading: close the socket so its reads end too.
                        try? await outbound.close(.goingAway, reason: "renderer replaced or not reading")
                    }
                    var budget = RendererFrameBudget.Bucket(sessions.rendererFrames)
                    for try await frame in inbound.messages(maxSize: 1 << 16) {
                        // A flood is closed before it costs the session anything.
                        guard budget.take() else {
                            try? await outbound.close(.policyViolation, reason: sessions.rendererFrames.closeReason)
                            break
                        }
                        guard case .text(let text) = frame else { continue }
                        // A replaced renderer's socket no longer drives the session.
                        guard await sessions.isAttached(rendererID, to: id) else { break }
                        do {
                            let message = try JSONDecoder().decode(InboundRendererMessage.self, from: Data(text.utf8))
                            switch try parse(message) {
                            case .intent(let replyTo, let intent):
                                _ = await sessions.apply(intent, to: id, replyTo: replyTo)
                                await positions?.observe(sessionID: id)
                            case .report(let report, let item):
                                await sessions.report(report, about: item, to: id)
                                await positions?.observe(sessionID: id)
                            }
                        } catch {
                            let reason = (error as? APIError)?.message ?? "unreadable frame: \(error)"
                            let data = try encoder.encode(OutboundRendererMessage.error(reason))
                            try await outbound.write(.text(String(decoding: data, as: UTF8.self)))
                        }
                    }
                    group.cancelAll()
                }
            } catch {
                // A connection that drops still leaves where the viewer stopped.
                await positions?.flush(sessionID: id)
                await sessions.detachRenderer(rendererID, from: id)
                throw error
            }
            await positions?.flush(sessionID: id)
            await sessions.detachRenderer(rendererID, from: id)
        }
    }

    func parse(_ message: InboundRendererMessage) throws -> InboundRendererMessage.Parsed {
        do {
            return try message.parsed()
        } catch let invalid as InboundRendererMessage.Invalid {
            throw APIError(.badRequest, invalid.reason)
        }
    }

    /// The session for `body`, and warnings about what was left out of it (a bad `speedList` entry).
    func makeSession(_ body: CreateRequest, acceptLanguage: String?) async throws -> (PlaybackSession, [String]) {
        let asset = try await manifests.playableAsset(id: body.assetID)
        let language: PlayerLanguage
        if let code = body.language {
            language = PlayerLanguage(preferred: [code])
        } else if let list = body.languages, !list.isEmpty {
            language = PlayerLanguage(preferred: list)
        } else {
            language = PlayerLanguage(acceptLanguage: acceptLanguage ?? "")
        }
        let settings = try await library.playerSettings()
        var warnings: [String] = []
        var requested = body.speeds
        if requested == nil, let text = body.speedList {
            let parsed = RequestedSpeeds(parsing: text)
            requested = parsed.rates
            if let warning = parsed.warning(in: language) { warnings.append(warning) }
        }
        let rates = requested ?? settings.speeds
        if let rates, rates.count > PlaybackSpeed.maximumCount {
            throw APIError(.badRequest, "\(rates.count) speeds given; a speed menu offers at most \(PlaybackSpeed.maximumCount)")
        }
        if let rates, let bad = rates.first(where: { !PlaybackSpeed.isOfferable($0) }) {
            throw APIError(.badRequest, "Speed \(bad) is not between 0 and 16")
        }
        let speeds = rates.map { $0.map { PlaybackSpeed(rate: $0, language: language) } }

        let manifest = try await manifests.manifest(for: asset)
        let audio = manifest.audio.map {
            MediaOption(id: $0.id, kind: .audio, name: $0.name ?? $0.language ?? $0.id, language: $0.language, isDefault: $0.isDefault ?? false)
        }
        let subtitles = manifest.subtitles.map {
            MediaOption(id: $0.id, kind: .subtitles, name: $0.name, language: $0.language, isDefault: $0.isDefault)
        }
        let events = try await SessionInterstitials(library: library).events(for: asset.id)
        let shown = try await library.displayed(asset)
        var session = PlaybackSession(
            id: UUID().uuidString.lowercased(), assetID: asset.id,
            metadata: DisplayMetadata(shown),
            language: language, speeds: speeds, audioOptions: audio, subtitleOptions: subtitles, interstitials: events)
        session.setSkipInterval(settings.skipInterval)
        // X-SNAP aligns breaks with the primary's segment boundaries (its first video variant's).
        session.setPrimarySegmentBoundaries(InterstitialSegmentBoundaries.of(manifest))
        session.allowsVideoFrameAnalysis = !asset.isProtected && (body.allowsVideoFrameAnalysis ?? settings.allowsVideoFrameAnalysis)
        return (session, warnings)
    }
}
