import Foundation
import Hummingbird
import Library
import NIOCore

/// The library page's calls beyond plain assets: the shelf (sorted, filtered, series grouped
/// into one item each), the episode that comes next, restoring a deleted asset, where a
/// viewer stopped, and artwork uploaded for an asset.
struct ShelfRoutes: Sendable {
    let library: MediaLibrary
    /// Largest artwork image accepted.
    static let artworkLimit = 8 << 20

    func register(on router: Router<MarqueeRequestContext>) {
        let api = router.group("api")
        api.get("library", use: shelf)
        api.get("assets/{id}/up-next", use: upNext)
        api.post("assets/{id}/restore", use: restore)
        api.get("assets/{id}/position", use: position)
        api.put("assets/{id}/position", use: setPosition)
        api.delete("assets/{id}/position", use: forgetPosition)
        api.put("assets/{id}/artwork", use: setArtwork)
    }

    /// `GET /api/library?sort=&badge=&q=`: the shelf, a series as one item.
    @Sendable func shelf(_ request: Request, context: MarqueeRequestContext) async throws -> ShelfResponse {
        let parameters = request.uri.queryParameters
        let orderName = parameters.get("sort") ?? ShelfOrder.recentlyAdded.rawValue
        guard let order = ShelfOrder(rawValue: orderName) else {
            throw APIError(.badRequest, "\"sort\" must be one of \(ShelfOrder.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let badges = parameters.getAll("badge").flatMap { String($0).components(separatedBy: ",") }.filter { !$0.isEmpty }
        let items = try await library.shelf(matching: parameters.get("q"), order: order, badges: badges)
        return try await ShelfResponse(items, library: library, viewer: context.viewerKey)
    }

    /// `GET /api/assets/{id}/up-next`: the episode that comes next in its series, if any.
    @Sendable func upNext(_ request: Request, context: MarqueeRequestContext) async throws -> UpNextResponse {
        let asset = try await asset(context)
        let next = try await library.nextEpisode(after: asset.id)
        let resource: AssetResource? = if let next { try await AssetResource.make([next], library: library, viewer: context.viewerKey).first } else { nil }
        return UpNextResponse(next: resource)
    }

    /// `POST /api/assets/{id}/restore`: an asset back from the trash.
    @Sendable func restore(_ request: Request, context: MarqueeRequestContext) async throws -> AssetResource {
        let restored = try await library.restore(assetID: try context.parameters.require("id"))
        return try await AssetResource.make(restored, library: library, viewer: context.viewerKey)
    }

    /// `GET /api/assets/{id}/position`: where the viewer stopped.
    @Sendable func position(_ request: Request, context: MarqueeRequestContext) async throws -> PositionResource {
        let asset = try await asset(context)
        return PositionResource(try await library.position(for: asset.id), asset: asset)
    }

    /// `PUT /api/assets/{id}/position`: seconds from 0; a position past the end is the end.
    @Sendable func setPosition(_ request: Request, context: MarqueeRequestContext) async throws -> PositionResource {
        let asset = try await asset(context)
        let body = try await request.decode(as: PositionRequest.self, context: context)
        guard body.position.isFinite, body.position >= 0 else { throw APIError(.badRequest, "\"position\" must be seconds, 0 or more") }
        // More than 0, as openapi.json's exclusiveMinimum says (0 was taken).
        if let given = body.duration, !(given.isFinite && given > 0) {
            throw APIError(.badRequest, "\"duration\" must be seconds, more than 0")
        }
        let duration = body.duration ?? asset.duration
        // Past the end is the end (a player's last report can overshoot; numbers the document
        // cannot relate to each other are not refused).
        let at = duration.map { min(body.position, $0) } ?? body.position
        let position = PlaybackPosition(assetID: asset.id, position: at, duration: duration)
        if let viewer = context.viewerKey {
            try await library.recordViewing(ViewingProgress(viewer: viewer, assetID: asset.id, position: at, duration: duration))
        }
        try await library.setPosition(position, for: asset.id)
        return PositionResource(position, asset: asset)
    }

    @Sendable func forgetPosition(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        let asset = try await asset(context)
        try await library.setPosition(nil, for: asset.id)
        return Response(status: .noContent)
    }

    /// `PUT /api/assets/{id}/artwork`: a JPEG, PNG or WebP image of at most `artworkLimit` bytes.
    @Sendable func setArtwork(_ request: Request, context: MarqueeRequestContext) async throws -> AssetResource {
        let asset = try await asset(context)
        guard asset.status == .ready else {
            throw APIError(.conflict, "\(asset.title) is still being prepared; set its artwork when it is ready")
        }
        let bytes: ByteBuffer
        do {
            bytes = try await request.body.collect(upTo: Self.artworkLimit)
        } catch {
            throw APIError(.contentTooLarge, "Artwork must be an image of at most \(Self.artworkLimit >> 20) MB")
        }
        guard let kind = ArtworkKind(bytes.readableBytesView.prefix(12)) else {
            throw APIError(.unsupportedMediaType, "Artwork must be a JPEG, PNG or WebP image")
        }
        try await library.setArtwork(Data(bytes.readableBytesView), fileExtension: kind.rawValue, for: asset.id)
        return try await AssetResource.make(asset, library: library, viewer: context.viewerKey)
    }

    func asset(_ context: MarqueeRequestContext) async throws -> Asset {
        let id = try context.parameters.require("id")
        guard let asset = try await library.asset(id: id) else { throw LibraryError.assetNotFound(id) }
        return asset
    }
}

/// The image formats artwork may come in, known by their first bytes.
enum ArtworkKind: String {
    case jpg, png, webp

    init?(_ head: some Collection<UInt8>) {
        let bytes = Array(head)
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpg
        } else if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            self = .png
        } else if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) {
            self = .webp
        } else {
            return nil
        }
    }
}

/// `GET /api/library`: the shelf, each item a single asset or a whole series.
struct ShelfResponse: ResponseEncodable {
    struct Item: Encodable {
        /// "asset" or "series".
        var kind: String
        var asset: AssetResource?
        var series: SeriesResource?
    }

    struct SeriesResource: Encodable {
        struct Season: Encodable {
            var number: Int?
            var episodes: [AssetResource]
        }

        /// A stable key for the page (the series title, folded).
        var id: String
        var title: String
        var artworkURL: String?
        var episodeCount: Int
        var duration: Double
        var badges: [String]
        var createdAt: Date
        var seasons: [Season]
    }

    var items: [Item]
    /// Sample clips are being made for this empty library (see `MediaLibrary.isMakingSamples`).
    var makingSamples: Bool

    init(_ shelf: [ShelfItem], library: MediaLibrary, viewer: String?) async throws {
        var items: [Item] = []
        for entry in shelf {
            switch entry {
            case .asset(let shown):
                items.append(Item(kind: "asset", asset: try await AssetResource.make([shown], library: library, viewer: viewer)[0]))
            case .series(let series):
                var seasons: [SeriesResource.Season] = []
                for season in series.seasons {
                    seasons.append(.init(number: season.number, episodes: try await AssetResource.make(season.episodes, library: library, viewer: viewer)))
                }
                let episodes = series.episodes
                var badges: [String] = []
                for badge in episodes.flatMap(\.asset.badges) where !badges.contains(badge) { badges.append(badge) }
                items.append(
                    Item(
                        kind: "series",
                        series: SeriesResource(
                            id: "series-"
                                + series.title.lowercased().unicodeScalars.map { CharacterSet.alphanumerics.contains($0) ? String($0) : "-" }.joined(),
                            title: series.title,
                            artworkURL: episodes.first(where: { $0.artworkURL != nil })?.artworkURL,
                            episodeCount: episodes.count, duration: series.totalDuration, badges: badges,
                            createdAt: series.newest, seasons: seasons)))
            }
        }
        self.items = items
        makingSamples = library.isMakingSamples
    }
}

struct UpNextResponse: ResponseEncodable {
    var next: AssetResource?
}

struct PositionRequest: Decodable {
    var position: Double
    /// Absent or `null` (the player does not know it yet): the asset's own duration, as
    /// openapi.json says.
    var duration: Double?
}

/// Where a viewer stopped; `position` is 0 and `resumeTime` null when nothing is stored.
struct PositionResource: ResponseEncodable {
    var assetID: String
    var position: Double
    var duration: Double?
    var fraction: Double?
    var resumeTime: Double?
    var updatedAt: Date?

    init(_ stored: PlaybackPosition?, asset: Asset) {
        assetID = asset.id
        position = stored?.position ?? 0
        duration = stored?.duration ?? asset.duration
        fraction = stored?.fraction
        resumeTime = stored?.resumeTime
        updatedAt = stored?.updatedAt
    }
}
