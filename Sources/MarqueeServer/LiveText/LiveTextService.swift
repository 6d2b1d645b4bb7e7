import BlockingWork
import CoreMetrics
import EventFeed
import Foundation
import HLS
public import Library
import Logging
import MediaCore
import NIOPosix
public import VisualAnalysis

/// Live Text for the player and frame text for search: analyses the frame a paused player
/// shows (cached per asset and frame time), drops a request once its frame is no longer on
/// screen, and never analyses a protected asset or one whose session disallows it.
public actor LiveTextService {
    /// Where indexing reports a frame-text index it could not change.
    static let logger = Logger(label: "marquee.live-text")

    public let library: MediaLibrary
    /// This node's cache of analysed frames (and, on one machine, the search index too).
    public let store: FrameTextStore
    /// Where indexing writes and search reads: `store` on one machine, the library's
    /// PostgreSQL database in a cluster (`PostgreSQLFrameTextIndex`), shared by every indexer.
    public nonisolated let searchIndex: any FrameTextIndex
    /// Names this service in the claims it takes on assets to index ("host:pid:random").
    public nonisolated let indexer: String
    /// How long a claim on an asset holds without being renewed (every third of it while
    /// indexing); an indexer that died leaves its asset to another after this. Also how often
    /// assets not indexed yet are looked for again.
    public nonisolated let indexingLease: Duration
    public let analyzer: FrameTextAnalyzer
    public let sampling: FrameSampling
    /// Indexing for search decodes and reads on low-priority threads of its own.
    let indexAnalyzer = FrameTextAnalyzer(recognizer: TextRecognizer(backgroundNamed: "marquee.index-ocr"))
    let indexDecoding = BackgroundThreads.pool(name: "marquee.index")
    /// The request each player (session) is waiting for, so a newer one replaces it.
    private var inFlight: [String: (number: UInt64, task: Task<FrameText, any Error>)] = [:]
    /// The newest request of each session, numbered as they arrive: one that waited its turn
    /// (for the asset or the cache) while a newer one came in never starts reading.
    private var newestRequest: [String: UInt64] = [:]
    private var requestsReceived: UInt64 = 0
    /// The indexing loop and what feeds it, while `startIndexing` runs.
    var indexing: [Task<Void, Never>] = []
    /// A sweep for assets to index is waiting in the indexing loop (one is enough).
    var sweepQueued = false
    /// Whether the indexing loop reads frames, or only keeps this node's caches in step.
    var readsFramesForIndex = true
    /// How many frames were actually analysed (cache misses), for tests.
    public internal(set) var analysedFrames = 0
    /// Readings in progress per client, bounded (`RecognitionAdmission`).
    private var admission: RecognitionAdmission
    /// The time of each asset's last frame, learned when a time at or past it was read: any
    /// later time shows that frame, so it is answered from the cache.
    private var lastFrameTime: [String: Double] = [:]

    /// A service over `library`, caching frames in `store` (`frame-text.sqlite` in the data
    /// directory when nil) and indexing into `searchIndex` (`store` when nil), claiming each
    /// asset as `indexer` for `indexingLease` at a time.
    public init(
        library: MediaLibrary, store: FrameTextStore? = nil, searchIndex: (any FrameTextIndex)? = nil,
        analyzer: FrameTextAnalyzer = FrameTextAnalyzer(), sampling: FrameSampling = FrameSampling(), readingsPerClient: Int = 2,
        indexer: String = IngestWorker.defaultWorkerID(), indexingLease: Duration = .seconds(60)
    ) throws {
        admission = RecognitionAdmission(limitPerClient: readingsPerClient)
        self.library = library
        let store = try store ?? FrameTextStore(url: library.location.dataDirectory.appendingPathComponent("frame-text.sqlite"))
        self.store = store
        self.searchIndex = searchIndex ?? store
        self.indexer = indexer
        self.indexingLease = indexingLease
        self.analyzer = analyzer
        self.sampling = sampling
    }

    /// What a frame-text request answers: the frame's text and whether it came from the cache.
    public struct Answer: Sendable {
        public var frame: FrameText
        public var cached: Bool
    }

    /// Whether a request of `sessionID` is reading a frame now.
    func isReading(sessionID: String) -> Bool { inFlight[sessionID] != nil }

    /// Whether `client` is reading a frame now (for tests that wait for it).
    func isReading(client: String) -> Bool { admission.reading[client] != nil }

    /// The text of the frame of `assetID` on screen at `time`. With a `sessionID`, a newer
    /// request of the same session cancels this one, and so does the session starting to
    /// play or moving away from the frame (`isStale` is asked every 100 ms).
    ///
    /// A time past the end reads the last frame and is answered from the cache after the
    /// first time. With a `client`, at most `readingsPerClient` frames not in the cache are
    /// read for it at once; another is refused with `LiveTextError.busy`.
    public func frameText(
        assetID: String, at requestedTime: Double, sessionID: String? = nil, client: String? = nil,
        isStale: @escaping @Sendable () async -> Bool = { false }
    ) async throws -> Answer {
        guard requestedTime.isFinite, requestedTime >= 0 else { throw LiveTextError.badTime(requestedTime) }
        requestsReceived += 1
        let number = requestsReceived
        if let sessionID { newestRequest[sessionID] = number }
        defer { if let sessionID, newestRequest[sessionID] == number { newestRequest[sessionID] = nil } }
        let asset = try await analysableAsset(assetID)
        let time = resolvedTime(requestedTime, of: asset)
        if let hit = try await store.cachedFrame(assetID: asset.id, at: time) { return Answer(frame: hit, cached: true) }
        if let client {
            guard admission.admit(client) else { throw LiveTextError.busy(admission.limitPerClient) }
        }
        defer { if let client { admission.finished(client) } }
        // The player may have moved on while this request waited its turn.
        if await isStale() { throw LiveTextError.superseded }
        let source = try await frameSource(for: asset, around: time)
        // A newer request of this session arrived while this one waited: it wants another frame.
        if let sessionID, newestRequest[sessionID] != number { throw LiveTextError.superseded }
        let analyzer = self.analyzer
        let task = Task { try await analyzer.analyze(source, at: time) }
        if let sessionID {
            inFlight[sessionID]?.task.cancel()
            inFlight[sessionID] = (number, task)
        }
        let watcher = Task {
            while !Task.isCancelled {
                if await isStale() {
                    task.cancel()
                    return
                }
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
        defer {
            watcher.cancel()
            if let sessionID, inFlight[sessionID]?.number == number { inFlight[sessionID] = nil }
        }
        let frame: FrameText
        do {
            frame = try await withTaskCancellationHandler {
                try await task.value
            } onCancel: {
                task.cancel()
            }
        } catch is CancellationError {
            throw LiveTextError.superseded
        } catch let error as MediaError where task.isCancelled {
            _ = error
            throw LiveTextError.superseded
        }
        analysedFrames += 1
        Counter(label: "marquee_live_text_frames_read_total", dimensions: [("purpose", "pause")]).increment()
        try await store.cache(frame, assetID: asset.id)
        // The time asked for lies past the frame read: that frame is the last one.
        if time >= frame.frameTime + max(frame.frameDuration, 0.001) - 0.0005 { lastFrameTime[asset.id] = frame.frameTime }
        // Kept for a later pause on this frame, but not answered to a player that has left it.
        if task.isCancelled { throw LiveTextError.superseded }
        return Answer(frame: frame, cached: false)
    }

    /// The time whose frame answers a request for `time`: within the asset's duration, and the
    /// last frame's own time for any time at or past it (once that frame has been read).
    func resolvedTime(_ time: Double, of asset: Library.Asset) -> Double {
        var resolved = time
        if let duration = asset.duration, duration > 0, resolved >= duration { resolved = max(0, duration - 0.001) }
        if let last = lastFrameTime[asset.id], resolved >= last { resolved = last }
        return resolved
    }

    /// The asset when its frames may be analysed: it exists, is ready, and is not protected.
    func analysableAsset(_ id: String) async throws -> Library.Asset {
        guard let asset = try await library.asset(id: id) else { throw LibraryError.assetNotFound(id) }
        guard !asset.isProtected else { throw LiveTextError.protected(asset.title) }
        guard asset.status == .ready else { throw LiveTextError.notReady(asset.title, asset.status.rawValue) }
        return asset
    }

    /// The media to read a frame from: the source file when it is still there (full
    /// resolution, indexed for exact seeks), else the largest video variant of the bundle. When
    /// the bundle is in object storage, the segments around `time` (every segment when `nil`)
    /// are fetched into a local file first (`StoredFrameWindows`).
    func frameSource(for asset: Library.Asset, around time: Double? = nil, pool: MediaThreadPool = .shared) async throws -> MediaAsset {
        let bundle = library.location.bundleDirectory(for: asset.id)
        let sourcePath = asset.sourcePath
        let sourceFile: URL? = try await BlockingWork.run {
            guard let sourcePath, !sourcePath.contains("://") else { return nil }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: sourcePath, isDirectory: &isDirectory), !isDirectory.boolValue else { return nil }
            return URL(fileURLWithPath: sourcePath)
        }
        if sourceFile == nil, !library.media.isLocal {
            let windows = StoredFrameWindows(media: library.media, dataDirectory: library.location.dataDirectory)
            guard let file = try await windows.file(assetID: asset.id, around: time) else { throw LiveTextError.noVideo(asset.title) }
            return MediaAsset(isolatedFile: file, pool: pool)
        }
        let url: URL? = try await BlockingWork.run {
            if let sourceFile { return sourceFile }
            let master = bundle.appendingPathComponent(BundleLayout.multivariantPlaylist)
            guard let multivariant = try? PlaybackManifest.multivariantPlaylist(at: master) else { return nil }
            let largest = multivariant.inspectedVariants().max { a, b in
                let sizeA = a.videoAttributes?.presentationSize
                let sizeB = b.videoAttributes?.presentationSize
                return (sizeA?.width ?? 0) * (sizeA?.height ?? 0) < (sizeB?.width ?? 0) * (sizeB?.height ?? 0)
            }
            return largest.map { bundle.appendingPathComponent($0.stream.uri) }
        }
        guard let url else { throw LiveTextError.noVideo(asset.title) }
        return url.pathExtension == "m3u8" ? MediaAsset(url: url, pool: pool) : MediaAsset(isolatedFile: url, pool: pool)
    }

    // MARK: Protection

    /// Marks an asset protected (forgetting any text read from it) or not.
    public func setProtected(_ isProtected: Bool, assetID: String) async throws {
        try await library.setProtected(isProtected, assetID: assetID)
        if isProtected { try await forgetText(of: assetID) }
    }
}

/// Why a frame could not be analysed, as the API says it.
public enum LiveTextError: Error, Sendable, CustomStringConvertible {
    case protected(String)
    case notReady(String, String)
    case noVideo(String)
    case badTime(Double)
    case disallowed(String)
    case superseded
    /// The client already has this many frames being read.
    case busy(Int)

    public var description: String {
        switch self {
        case .protected(let title): "\(title) is protected: its frames are never analysed for text"
        case .notReady(let title, let status): "\(title) is not ready yet (\(status)); its frames cannot be analysed"
        case .noVideo(let title): "\(title) has no video to read text from"
        case .badTime(let time): "time must be a number of seconds from 0; got \(time)"
        case .disallowed(let session): "Video frame analysis is turned off for playback session \(session) (allowsVideoFrameAnalysis is false)"
        case .busy(let limit):
            "This client already has \(limit) frames being read for Live Text; wait for one of them to finish, then ask again"
        case .superseded: "The frame is no longer on screen (the player moved on or asked for another frame); the request was dropped"
        }
    }
}
