public import Foundation

/// What a person asked to download: the stream and the variant choice — one variant by its
/// URI, or a predicate in the qualifier language (`VariantQualifier(format:)`), or neither
/// for the best variant — with the audio and subtitle languages to take along.
public struct DownloadRequest: Codable, Sendable, Hashable {
    /// The multivariant (master) playlist's absolute http(s) URL.
    public var url: String
    /// The URI of the chosen variant, as the inspection listed it.
    public var variant: String?
    /// Its position in the inspection's list: tells apart variants that share a URI (one video
    /// declared with several audio groups). Ignored when the playlist no longer has that URI there.
    public var variantIndex: Int?
    /// A variant qualifier predicate, e.g. `peakBitRate < 2000000`.
    public var predicate: String?
    /// Audio languages (e.g. `["en", "fr"]`); none takes the variant's default audio.
    public var audio: [String]?
    /// Subtitle languages to take along (e.g. `["en"]`); none takes no subtitles.
    public var subtitles: [String]?
    /// The name to list it under; empty or `nil` takes one suggested from the URL.
    public var title: String?
    /// Files fetched at once (1–16, default 4).
    public var concurrency: Int?

    /// A request with every choice given; the service checks it when it starts the download.
    public init(
        url: String, variant: String? = nil, variantIndex: Int? = nil, predicate: String? = nil, audio: [String]? = nil,
        subtitles: [String]? = nil, title: String? = nil, concurrency: Int? = nil
    ) {
        self.url = url
        self.variant = variant
        self.variantIndex = variantIndex
        self.predicate = predicate
        self.audio = audio
        self.subtitles = subtitles
        self.title = title
        self.concurrency = concurrency
    }
}

/// Counters of a download as last seen: files and bytes on disk, the size expected.
public struct DownloadFigures: Codable, Sendable, Hashable {
    /// Files (playlists and media segments) fully on disk.
    public var completedFiles = 0
    /// Files the download needs in all; 0 until the playlists are read.
    public var totalFiles = 0
    /// Bytes written to disk so far.
    public var bytesWritten: Int64 = 0
    /// The expected total size in bytes; `nil` when the playlists do not tell it.
    public var expectedBytes: Int64?

    /// Zero counters, for a download that has not started.
    public init() {}

    /// 0…1, by files: the count whose total is fixed once the playlists are read (the size in
    /// bytes is an estimate until the end), so "40%" and "4 of 10 files" agree.
    public var fraction: Double {
        totalFiles == 0 ? 0 : min(1, Double(completedFiles) / Double(totalFiles))
    }
}

/// One download as the server keeps it on disk (`download.json` in its folder): the request,
/// the state, and the last counters, so it is listed and resumed after a restart.
public struct DownloadRecord: Codable, Sendable, Hashable, Identifiable {
    /// A lower-case UUID; also the download's folder name and its `/api/downloads/{id}` path.
    public var id: String
    /// What was asked for, with the title filled in.
    public var request: DownloadRequest
    /// The name it is listed under.
    public var title: String
    /// Where it is in its lifecycle; see `DownloadLifecycle` for the moves allowed.
    public var state: DownloadState
    /// The counters as last saved.
    public var figures: DownloadFigures
    /// When it was requested.
    public var createdAt: Date
    /// When the record last changed.
    public var updatedAt: Date

    /// A new record with zero counters, `updatedAt` equal to `createdAt`.
    public init(
        id: String = UUID().uuidString.lowercased(), request: DownloadRequest, title: String,
        state: DownloadState = .queued, createdAt: Date = Date()
    ) {
        self.id = id
        self.request = request
        self.title = title
        self.state = state
        self.figures = DownloadFigures()
        self.createdAt = createdAt
        self.updatedAt = createdAt
    }
}

/// A download as the API and the page see it: the record plus live throughput.
public struct DownloadSnapshot: Codable, Sendable, Hashable {
    /// The download's ID, as in `/api/downloads/{id}`.
    public var id: String
    /// The playlist URL it downloads.
    public var url: String
    /// The name it is listed under.
    public var title: String
    /// `queued`, `downloading`, `pausing` (paused while the files in flight finish), `paused`,
    /// `importing`, `finished`, `failed` or `cancelled`.
    public var state: String
    /// Why it failed, in plain words.
    public var message: String?
    /// The library asset, once the finished bundle is in the library.
    public var assetID: String?
    /// Where to watch it: while downloading, the part on disk; when finished, the library asset.
    public var playerURL: String?
    /// What was asked for.
    public var request: DownloadRequest
    /// 0...1: files on disk over files in all (see `DownloadFigures.fraction`); 1 once finished.
    public var progress: Double
    /// Files fully on disk.
    public var completedFiles: Int
    /// Files needed in all; 0 until the playlists are read.
    public var totalFiles: Int
    /// Bytes on disk so far.
    public var bytesWritten: Int64
    /// The expected total in bytes; `nil` when unknown.
    public var expectedBytes: Int64?
    /// Current throughput in bytes per second; 0 when it is not downloading.
    public var bytesPerSecond: Double
    /// Estimated seconds to finish; `nil` when it cannot be estimated.
    public var secondsRemaining: Double?
    /// When it was requested.
    public var createdAt: Date
    /// When the record last changed.
    public var updatedAt: Date
    /// Rises with every snapshot the service makes: a page that gets an answer and a pushed
    /// event out of order keeps the newer one (an answer to Retry could otherwise land after
    /// the pushed "failed" and leave the row showing a download that is not running).
    public var revision: Int
    /// What a person may do with it now (`pause`, `resume`, `cancel`, `retry`, `delete`), as
    /// `DownloadLifecycle` decides: the page shows these buttons and no others.
    public var allowedActions: [String]
}
