import Foundation
import Hummingbird
import Library
import MediaCore
import Playback
import VisualAnalysis

/// `GET /api/assets/{id}/frame-text` (Live Text for the frame a player shows),
/// `PUT /api/assets/{id}/protected`, and `GET /api/search` (titles, descriptions and the
/// text inside frames).
struct FrameTextRoutes: Sendable {
    let service: LiveTextService
    let sessions: PlaybackSessions

    /// The body of `PUT /api/assets/{id}/protected`.
    struct ProtectionRequest: Decodable {
        var protected: Bool
    }

    struct ProtectionResponse: ResponseEncodable {
        var assetID: String
        var protected: Bool
    }

    func register(on router: Router<MarqueeRequestContext>) {
        let api = router.group("api")
        api.get("assets/{id}/frame-text", use: frameText)
        api.put("assets/{id}/protected", use: setProtected)
        api.get("search", use: search)
    }

    /// `GET /api/assets/{id}/frame-text?time=&session=`: the text of the frame at `time`. With a
    /// session, the session must play this asset and allow frame analysis, and the reading is
    /// dropped once the frame is no longer on screen.
    @Sendable func frameText(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        let id = try context.parameters.require("id")
        let parameters = request.uri.queryParameters
        guard let text = parameters.get("time") else { throw APIError(.badRequest, "Give the frame's time in seconds as ?time=") }
        guard let time = Double(text), time.isFinite, time >= 0 else {
            throw APIError(.badRequest, "time must be a number of seconds from 0; got \"\(text.prefix(40))\"")
        }
        let sessionID = parameters.get("session")
        let isStale = try await staleness(sessionID: sessionID, assetID: id, time: time)
        let started = ContinuousClock.now
        let answer: LiveTextService.Answer
        do {
            answer = try await service.frameText(
                assetID: id, at: time, sessionID: sessionID, client: context.clientAddress, isStale: isStale)
        } catch let error as MediaError {
            // Said with the frame's time: the media error alone does not name it.
            throw APIError(.unprocessableContent, "The frame at \(time) s could not be read: \(error)")
        }
        let elapsed = ContinuousClock.now - started
        let body = FrameTextResponse(
            assetID: id, requestedTime: time, answer: answer,
            milliseconds: Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
        var response = try context.responseEncoder.encode(body, from: request, context: context)
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// Whether the frame a session asked for has left the screen (the player plays again or
    /// moved more than a second away); never, without a session. Checks the session first.
    func staleness(sessionID: String?, assetID: String, time: Double) async throws -> @Sendable () async -> Bool {
        guard let sessionID else { return { false } }
        guard let session = await sessions.session(id: sessionID) else {
            throw APIError(.notFound, "No playback session \(sessionID)")
        }
        guard session.assetID == assetID else {
            throw APIError(.badRequest, "Playback session \(sessionID) plays another asset")
        }
        guard session.allowsVideoFrameAnalysis else {
            throw APIError(.forbidden, LiveTextError.disallowed(sessionID).description)
        }
        let sessions = self.sessions
        return {
            guard let now = await sessions.session(id: sessionID) else { return true }
            return now.desiresPlayback || abs(now.currentTime - time) > 1
        }
    }

    /// `PUT /api/assets/{id}/protected`: a protected asset's frames are never analysed.
    @Sendable func setProtected(_ request: Request, context: MarqueeRequestContext) async throws -> ProtectionResponse {
        let id = try context.parameters.require("id")
        let body = try await request.decode(as: ProtectionRequest.self, context: context)
        try await service.setProtected(body.protected, assetID: id)
        return ProtectionResponse(assetID: id, protected: body.protected)
    }

    /// `GET /api/search?q=`: assets by title and description, and moments whose frames show the
    /// words (deleted, trashed, protected and unready assets left out).
    @Sendable func search(_ request: Request, context: MarqueeRequestContext) async throws -> SearchResponse {
        guard let query = request.uri.queryParameters.get("q")?.trimmingCharacters(in: .whitespacesAndNewlines), !query.isEmpty else {
            throw APIError(.badRequest, "Give something to search for as ?q=")
        }
        // NUL cannot reach the search index (it answered 500); openapi.json's pattern leaves it out.
        guard !query.unicodeScalars.contains("\0") else { throw APIError(.badRequest, "The search has a NUL character in it") }
        guard query.unicodeScalars.count <= LibrarySearch.maximumQueryLength else {
            throw APIError(
                .badRequest, "The search is \(query.unicodeScalars.count) characters long; at most \(LibrarySearch.maximumQueryLength) are accepted")
        }
        let library = service.library
        let assets = try await library.assets(matching: query)
        let overrides = try await library.overrides(for: assets.map(\.id))
        let posters = try await library.posterPaths(for: assets)
        let shown = assets.map { $0.displayed(with: overrides[$0.id], defaultArtworkURL: posters[$0.id]) }
        var frames: [SearchResponse.FrameHit] = []
        var titles: [String: Library.Asset?] = [:]
        for hit in try await service.searchIndex.search(query, limit: 50) {
            if titles[hit.assetID] == nil { titles[hit.assetID] = try await library.asset(id: hit.assetID) }
            guard let asset = titles[hit.assetID] ?? nil, !asset.isProtected, asset.status == .ready else { continue }
            let title = (try await library.override(for: asset.id))?.title ?? asset.title
            frames.append(
                .init(
                    assetID: asset.id, title: title, time: hit.time, endTime: hit.endTime, text: hit.text,
                    playerURL: "/watch/\(asset.id)?t=\(Self.formatted(hit.time))&autoplay=0"))
        }
        return SearchResponse(query: query, assets: try await AssetResource.make(shown, library: library, viewer: context.viewerKey), frames: frames)
    }

    static func formatted(_ time: Double) -> String {
        String(format: "%.3f", time)
    }
}

/// The answer of `GET /api/assets/{id}/frame-text`: the frame's text as blocks, lines and
/// words with boxes in the decoded frame's pixels (before `rotation`).
struct FrameTextResponse: ResponseEncodable {
    var assetID: String
    var requestedTime: Double
    var frameTime: Double
    var frameDuration: Double
    var frameSize: FrameSize
    var rotation: Int
    var text: String
    var blocks: [TextBlock]
    var cached: Bool
    var milliseconds: Double

    struct FrameSize: Encodable {
        var width: Int
        var height: Int
    }

    init(assetID: String, requestedTime: Double, answer: LiveTextService.Answer, milliseconds: Double) {
        self.assetID = assetID
        self.requestedTime = requestedTime
        frameTime = answer.frame.frameTime
        frameDuration = answer.frame.frameDuration
        frameSize = FrameSize(width: answer.frame.text.frameSize.width, height: answer.frame.text.frameSize.height)
        rotation = answer.frame.text.rotation
        text = answer.frame.text.text
        blocks = answer.frame.text.blocks
        cached = answer.cached
        self.milliseconds = (milliseconds * 10).rounded() / 10
    }
}

/// The answer of `GET /api/search`: matching assets, and frames whose text matches.
struct SearchResponse: ResponseEncodable {
    struct FrameHit: Encodable {
        var assetID: String
        var title: String
        var time: Double
        var endTime: Double
        var text: String
        /// Opens the player at the frame, paused.
        var playerURL: String
    }

    var query: String
    var assets: [AssetResource]
    var frames: [FrameHit]
}
