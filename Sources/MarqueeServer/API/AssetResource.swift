public import Foundation
public import Hummingbird
public import Library

/// An asset as the REST API shows it: display metadata with overrides applied, playback
/// links, and the latest ingest job.
public struct AssetResource: ResponseEncodable, Decodable, Sendable, Hashable {
    /// The latest ingest (packaging) job of the asset.
    public struct JobSummary: Codable, Sendable, Hashable {
        /// The job's row ID; `nil` for a job not stored yet.
        public var id: Int64?
        /// `queued`, `running`, `succeeded` or `failed`.
        public var state: String
        /// How far the job is, 0...1 (meaningful while `running`).
        public var progress: Double
        /// The job's last message, with server file paths redacted.
        public var message: String?
        /// Why it failed, as a code the page translates (`notMedia`, `unreadable`…).
        public var reason: String?
        /// For a failed job: whether retrying can help (false when the file itself is the
        /// problem, so the page offers no Retry); `nil` for a job that has not failed.
        public var retryable: Bool?
    }

    /// The series an episode belongs to, and where in it.
    public struct SeriesInfo: Codable, Sendable, Hashable {
        /// The series title.
        public var title: String
        /// The season number; `nil` when the series has no seasons.
        public var season: Int?
        /// The episode number within the season; `nil` when unknown.
        public var episode: Int?
        /// The episode's own title, when it has one apart from the asset's.
        public var episodeTitle: String?
        /// "S1 · E2 — Title".
        public var label: String
    }

    /// How far a viewer got, for the card's progress bar and for resuming.
    public struct PlaybackSummary: Codable, Sendable, Hashable {
        /// Seconds into the asset where the viewer stopped.
        public var position: Double
        /// The asset's length in seconds as the player knew it, else the asset's own duration.
        public var duration: Double?
        /// How much is watched, 0...1; `nil` when the duration is unknown.
        public var fraction: Double?
        /// Where the player resumes; `nil` when it starts from the beginning.
        public var resumeTime: Double?
        /// When the position was saved.
        public var updatedAt: Date
    }

    /// The asset's ID (a lower-case UUID unless given), as in `/api/assets/{id}`.
    public var id: String
    /// The title to show, with the metadata override applied.
    public var title: String
    /// A second line under the title, with the override applied; `nil` when there is none.
    public var subtitle: String?
    /// The summary, with the override applied; `nil` when there is none.
    public var description: String?
    /// The artwork to show (the override's, else the asset's own); `nil` when there is none.
    public var artworkURL: String?
    /// Length in seconds; `nil` until packaging has measured it.
    public var duration: Double?
    /// The picture's width in pixels; `nil` when unknown.
    public var width: Int?
    /// The picture's height in pixels; `nil` when unknown.
    public var height: Int?
    /// Whether the picture is taller than it is wide (false when the size is unknown).
    public var portrait: Bool
    /// `pending`, `processing`, `ready` or `failed`.
    public var status: String
    /// `feature` (to watch) or `interstitial` (an ad to insert).
    public var role: String
    /// Badges from variant inspection ("4K", "HD", "HDR", "CC", "Multichannel"…).
    public var badges: [String]
    /// Set when the source file has gone; the packaged bundle stays playable.
    public var sourceMissing: Bool
    /// When the asset was added to the library.
    public var createdAt: Date
    /// The page that plays it: `/watch/{id}`.
    public var playerURL: String
    /// The playback manifest: `/api/assets/{id}/manifest.json`.
    public var manifestURL: String
    /// The latest ingest job; `nil` when the asset has none.
    public var job: JobSummary?
    /// The series and episode, when the asset is an episode.
    public var series: SeriesInfo?
    /// "2024-05-01", a year such as "2024", or an ISO 8601 date-time; `nil` when unknown.
    public var releaseDate: String?
    /// When a live event starts, for a "Live" or "Upcoming" label; `nil` for an ordinary asset.
    public var liveStartDate: Date?
    /// When a live event ended or ends; `nil` when unknown or not live.
    public var liveEndDate: Date?
    /// Where a viewer stopped; `nil` when it was never played (or the position was cleared).
    public var playback: PlaybackSummary?
    /// Protected content is never analysed for text (Live Text, frame-text search).
    public var protected: Bool?

    init(_ shown: DisplayedAsset, job: IngestJob?, position: PlaybackPosition? = nil) {
        let asset = shown.asset
        id = asset.id
        title = shown.title
        subtitle = shown.subtitle
        description = shown.summary
        artworkURL = shown.artworkURL
        duration = asset.duration
        width = asset.width
        height = asset.height
        portrait = asset.isPortrait
        status = asset.status.rawValue
        role = asset.role.rawValue
        badges = asset.badges
        sourceMissing = asset.sourceMissing
        createdAt = asset.createdAt
        playerURL = "/watch/\(asset.id)"
        manifestURL = "/api/assets/\(asset.id)/manifest.json"
        self.job = job.map {
            JobSummary(
                id: $0.id, state: $0.state.rawValue, progress: $0.progress, message: $0.message.map(ServerPathVisibility.redact), reason: $0.failureReason,
                retryable: $0.state == .failed ? $0.failureReason.flatMap(IngestFailure.Reason.init(rawValue:)).map(IngestFailure.retryCanHelp) ?? true : nil)
        }
        series = shown.episode.map {
            SeriesInfo(title: $0.seriesTitle, season: $0.season, episode: $0.number, episodeTitle: $0.title, label: $0.label)
        }
        releaseDate = shown.releaseDate
        liveStartDate = shown.liveStartDate
        liveEndDate = shown.liveEndDate
        protected = asset.isProtected
        playback = position.map {
            PlaybackSummary(
                position: $0.position, duration: $0.duration ?? asset.duration, fraction: $0.fraction,
                resumeTime: $0.resumeTime, updatedAt: $0.updatedAt)
        }
    }
}

/// A list response: `{"assets": [...]}`.
struct AssetList: ResponseEncodable, Decodable {
    var assets: [AssetResource]
}

/// The body of `POST /api/assets`.
struct AddAssetsRequest: Decodable {
    var paths: [String]
}

/// The body of `PUT /api/assets/{id}/metadata`; `null` or missing fields clear an override.
struct MetadataOverrideRequest: Decodable {
    var title: String?
    var subtitle: String?
    var description: String?
    var artworkURL: String?
    var seriesTitle: String?
    var season: Int?
    var episode: Int?
    var episodeTitle: String?
    /// A year, a date or a date-time (`MetadataDates`).
    var releaseDate: String?
    var liveStartDate: String?
    var liveEndDate: String?

    /// The override this body asks for, with every field checked; empty strings clear.
    func override(for assetID: String) throws -> MetadataOverride {
        func text(_ value: String?, _ field: String, limit: Int = 500) throws -> String? {
            guard let trimmed = value?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
            guard trimmed.count <= limit else { throw APIError(.badRequest, "\"\(field)\" is longer than \(limit) characters") }
            return trimmed
        }
        func number(_ value: Int?, _ field: String) throws -> Int? {
            guard let value else { return nil }
            guard (0...9999).contains(value) else { throw APIError(.badRequest, "\"\(field)\" must be a number from 0 to 9999") }
            return value
        }
        let release = try MetadataDates.releaseDate(releaseDate)
        let start = try MetadataDates.liveDate(liveStartDate, field: "liveStartDate")
        let end = try MetadataDates.liveDate(liveEndDate, field: "liveEndDate")
        if let start, let end, end < start { throw APIError(.badRequest, "The live end date is before its start date") }
        if let artwork = try text(artworkURL, "artworkURL", limit: 2000) {
            guard artwork.hasPrefix("/") || artwork.hasPrefix("https://") || artwork.hasPrefix("http://") else {
                throw APIError(.badRequest, "\"artworkURL\" must be an http(s) URL or a path on this server")
            }
        }
        return MetadataOverride(
            assetID: assetID, title: try text(title, "title"), subtitle: try text(subtitle, "subtitle"),
            summary: try text(description, "description", limit: 10_000), artworkURL: try text(artworkURL, "artworkURL", limit: 2000),
            seriesTitle: try text(seriesTitle, "seriesTitle"), seasonNumber: try number(season, "season"),
            episodeNumber: try number(episode, "episode"), episodeTitle: try text(episodeTitle, "episodeTitle"),
            releaseDate: release, liveStartDate: start, liveEndDate: end)
    }
}

/// An override as the API shows it.
struct MetadataOverrideResource: ResponseEncodable {
    var assetID: String
    var title: String?
    var subtitle: String?
    var description: String?
    var artworkURL: String?
    var seriesTitle: String?
    var season: Int?
    var episode: Int?
    var episodeTitle: String?
    var releaseDate: String?
    var liveStartDate: Date?
    var liveEndDate: Date?

    init(_ override: MetadataOverride?, assetID: String) {
        self.assetID = assetID
        title = override?.title
        subtitle = override?.subtitle
        description = override?.summary
        artworkURL = override?.artworkURL
        seriesTitle = override?.seriesTitle
        season = override?.seasonNumber
        episode = override?.episodeNumber
        episodeTitle = override?.episodeTitle
        releaseDate = override?.releaseDate
        liveStartDate = override?.liveStartDate
        liveEndDate = override?.liveEndDate
    }
}

extension IngestJob: ResponseEncodable {
    /// The job with server paths left out of its message unless the request is the owner's.
    var redactedForRequest: IngestJob {
        var job = self
        job.message = job.message.map(ServerPathVisibility.redact)
        return job
    }
}
extension PlayerSettings: ResponseEncodable {}

struct JobList: ResponseEncodable {
    var jobs: [IngestJob]
}

extension AssetResource {
    /// One asset as the API shows it to `viewer` (`MarqueeRequestContext.viewerKey`), with its
    /// overrides, latest job and that viewer's playback.
    static func make(_ asset: Asset, library: MediaLibrary, viewer: String?) async throws -> AssetResource {
        try await make([library.displayed(asset)], library: library, viewer: viewer)[0]
    }

    /// Displayed assets with their latest jobs and `viewer`'s playback, in the same order.
    ///
    /// Whose progress a card shows (one rule, here): a signed-in account sees its own viewing
    /// progress, never another person's; the local user of a server without sign-in sees the
    /// item's position (theirs: nobody else watches there, and it holds what was watched
    /// before per-viewer progress existed); a guest watching together sees none.
    static func make(_ shown: [DisplayedAsset], library: MediaLibrary, viewer: String?) async throws -> [AssetResource] {
        let ids = shown.map(\.asset.id)
        let jobs = try await library.latestJobs(for: ids)
        switch viewer {
        case "local"?:
            let positions = try await library.positions(for: ids)
            return shown.map { AssetResource($0, job: jobs[$0.asset.id], position: positions[$0.asset.id]) }
        case let account?:
            let progress = try await library.viewingProgress(viewer: account, assetIDs: ids)
            return shown.map { AssetResource($0, job: jobs[$0.asset.id]).withPlayback(progress[$0.asset.id]) }
        case nil:
            return shown.map { AssetResource($0, job: jobs[$0.asset.id]) }
        }
    }
}
