import Accounts
import Clocks
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
        /// Start where the viewer stopped last time (`?resume=1`), when a position is stored;
        /// else at `startTime`.
        var resume: Bool?
        /// Seconds into the item to start at (a search hit's `?t=`).
        var startTime: Double?
        /// The rate to play at, when the player offers it (a "Play on…" hand-over's `?rate=`).
        var rate: Double?
        /// `true` plays by itself once the renderer is ready (the web player sends it unless
        /// `?autoplay=0`); absent or `false` waits for a play intent, as before this field.
        var autoplay: Bool?
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
        var volume: Double?
        var muted: Bool?
        var choice: String?
    }

    struct IntentResponse: ResponseEncodable {
        var commands: [CommandPayload]
        var state: SessionSnapshot
    }

    func register(on router: Router<MarqueeRequestContext>) {
        let api = router.group("api")
        api.post("sessions", use: create)
        api.get("sessions/{id}", use: show)
        api.delete("sessions/{id}", use: remove)
        api.post("sessions/{id}/intents", use: intent)
        router.ws("api/sessions/{id}/renderer", shouldUpgrade: upgradeRenderer, onUpgrade: renderer)
    }

    /// `POST /api/sessions`: `201` with the new session's snapshot (and `warnings` about what
    /// of the request was left out).
    @Sendable func create(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        let body = try await request.decode(as: CreateRequest.self, context: context)
        let (session, warnings) = try await makeSession(body, acceptLanguage: request.headers[.acceptLanguage], viewer: context.viewerKey)
        await sessions.insert(session)
        await positions?.register(sessionID: session.id, viewer: context.viewerKey)
        guard var snapshot = await sessions.snapshot(id: session.id) else { throw APIError(.notFound, "No playback session \(session.id)") }
        snapshot.warnings = warnings.isEmpty ? nil : warnings
        return try context.responseEncoder.encode(snapshot, from: request, context: context).with(status: .created)
    }

    @Sendable func show(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        let id = try context.parameters.require("id")
        guard let snapshot = await sessions.snapshot(id: id) else { throw APIError(.notFound, "No playback session \(id)") }
        var response = try context.responseEncoder.encode(snapshot, from: request, context: context)
        response.headers[.cacheControl] = "no-store"
        return response
    }

    @Sendable func remove(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        let id = try context.parameters.require("id")
        guard await sessions.remove(id: id) else { throw APIError(.notFound, "No playback session \(id)") }
        return Response(status: .noContent)
    }

    /// `POST /api/sessions/{id}/intents`: a viewer's intent (as a renderer's intent frame); the
    /// commands it caused and the new state, or `409` with the session's refusal.
    @Sendable func intent(_ request: Request, context: MarqueeRequestContext) async throws -> IntentResponse {
        let id = try context.parameters.require("id")
        let body = try await request.decode(as: IntentRequest.self, context: context)
        let frame = InboundRendererMessage(
            v: RendererProtocol.version, type: "intent", intent: body.intent, seconds: body.seconds, time: body.time,
            fraction: body.fraction, rate: body.rate, step: body.step, rendition: body.rendition, direction: body.direction,
            volume: body.volume, muted: body.muted, choice: body.choice)
        guard case .intent(_, let intent) = try parse(frame) else { throw APIError(.badRequest, "Not an intent") }
        guard let result = await sessions.apply(intent, to: id) else { throw APIError(.notFound, "No playback session \(id)") }
        switch result {
        case .success(let commands):
            guard let snapshot = await sessions.snapshot(id: id) else { throw APIError(.notFound, "No playback session \(id)") }
            return IntentResponse(commands: commands.map(CommandPayload.init), state: snapshot)
        case .failure(let refusal):
            throw APIError(.conflict, "The session refused \(body.intent): \(refusal.rawValue)")
        }
    }

    /// A plain GET (no upgrade) of the renderer socket is a 426, not an empty 200; an unknown
    /// session is not upgraded.
    @Sendable func upgradeRenderer(_ request: Request, context: MarqueeRequestContext) async throws -> RouterShouldUpgrade {
        guard request.headers[.upgrade]?.lowercased() == "websocket" else {
            throw APIError(.upgradeRequired, "This is the renderer WebSocket: connect with Upgrade: websocket")
        }
        guard let id = context.parameters.get("id"), await sessions.session(id: id) != nil else { return .dontUpgrade }
        // A guest renders as the participant they joined as, never as anyone else (nor as the
        // session's one renderer, which would push everyone else's out).
        if let guest = context.guest {
            let participant = request.uri.queryParameters.get("participant").map { String($0) }
            guard let participant, participant == guest.participantID else {
                throw APIError(.forbidden, "Join the group from the invitation link before connecting a player to it", code: "guest-scope")
            }
        }
        return .upgrade([:])
    }

    /// The renderer socket: the session's state and commands out, the renderer's reports and
    /// intents in (a flood is closed; a replaced renderer's socket stops driving the session).
    @Sendable func renderer(
        _ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter, _ context: WebSocketRouterContext<MarqueeRequestContext>
    ) async throws {
        let participant: String? = context.request.uri.queryParameters.get("participant").map { String($0) }
        guard let id = context.requestContext.parameters.get("id"),
            let (rendererID, messages) = await sessions.attachRenderer(to: id, participantID: participant)
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
                    // A clock probe is answered at once, beside the session's queue, so its
                    // round trip measures the network and not the session's work.
                    await sessions.heard(rendererID, in: id)
                    if let probe = ClockProbe(text) {
                        let data = try encoder.encode(OutboundRendererMessage.clock(t0: probe.t0, server: sessions.clock.now))
                        try await outbound.write(.text(String(decoding: data, as: UTF8.self)))
                        continue
                    }
                    do {
                        try await receive(text, from: id, renderer: rendererID)
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

    /// One text frame from a renderer: an intent or a report, applied to session `id`.
    func receive(_ text: String, from id: String, renderer: UUID? = nil) async throws {
        let message = try JSONDecoder().decode(InboundRendererMessage.self, from: Data(text.utf8))
        switch try parse(message) {
        case .intent(let replyTo, let intent):
            _ = await sessions.apply(intent, to: id, replyTo: replyTo, from: renderer)
        case .report(let report, let item):
            await sessions.report(report, about: item, to: id, from: renderer)
        }
        await positions?.observe(sessionID: id)
    }

    func parse(_ message: InboundRendererMessage) throws -> InboundRendererMessage.Parsed {
        do {
            return try message.parsed()
        } catch let invalid as InboundRendererMessage.Invalid {
            throw APIError(.badRequest, invalid.reason)
        }
    }

    /// The session for `body`, and warnings about what was left out of it (a bad `speedList` entry).
    func makeSession(_ body: CreateRequest, acceptLanguage: String?, viewer: String?) async throws -> (PlaybackSession, [String]) {
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
        // How it begins: carried out by the session when the renderer is first ready.
        if let time = body.startTime, !(time.isFinite && time >= 0) { throw APIError(.badRequest, "\"startTime\" must be seconds, 0 or more") }
        if let rate = body.rate, !(rate.isFinite && rate > 0) { throw APIError(.badRequest, "\"rate\" must be more than 0") }
        let resumed = body.resume == true ? try await Self.resumeTime(of: asset.id, for: viewer, in: library) : nil
        warnings += session.begin(with: PlaybackStart(time: resumed ?? body.startTime, rate: body.rate, autoplay: body.autoplay ?? false))
        return (session, warnings)
    }
}

/// A renderer's clock probe, `{"v":1,"type":"clock","t0":<its time in ms>}`.
struct ClockProbe: Decodable {
    var t0: Double

    /// The probe in `text`, or nil when `text` is another frame.
    init?(_ text: String) {
        guard text.utf8.count < 256, text.contains("\"clock\""),
            let frame = try? JSONDecoder().decode(Frame.self, from: Data(text.utf8)), frame.type == "clock", let t0 = frame.t0, t0.isFinite
        else { return nil }
        self.t0 = t0
    }

    private struct Frame: Decodable {
        var type: String
        var t0: Double?
    }
}

extension SessionRoutes {
    /// Where `?resume=1` starts `viewer` (`MarqueeRequestContext.viewerKey`), by the same rule
    /// as the cards' progress (`AssetResource.make`): an account's own progress, the item's
    /// position for the local user of a server without sign-in, nothing for a guest.
    static func resumeTime(of assetID: String, for viewer: String?, in library: MediaLibrary) async throws -> Double? {
        switch viewer {
        case "local"?:
            return try await library.position(for: assetID)?.resumeTime
        case let account?:
            guard let progress = try await library.viewingProgress(viewer: account, assetIDs: [assetID])[assetID],
                !progress.finished
            else { return nil }
            return PlaybackPosition(assetID: assetID, position: progress.position, duration: progress.duration).resumeTime
        case nil:
            return nil
        }
    }
}
