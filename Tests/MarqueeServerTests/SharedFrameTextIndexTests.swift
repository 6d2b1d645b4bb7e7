import Foundation
import Hummingbird
import HummingbirdTesting
import MediaTesting
import PostgreSQLStores
import ServiceTesting
import Testing
import VisualAnalysis

@testable import Library
@testable import MarqueeServer

/// Live Text in a cluster: two indexers (nodes or workers, each with its own data directory and
/// frame cache) on one PostgreSQL library read an asset's frames once between them, and a
/// search through either finds what the other read; an indexer that claimed an asset and died
/// leaves it to another once its claim lapses.
@Suite("Live Text indexed once per cluster, searched from every node", .serialized)
struct SharedFrameTextIndexTests {
    struct Node {
        let library: MediaLibrary
        let service: LiveTextService
    }

    struct SearchBody: Decodable {
        struct Frame: Decodable {
            var assetID: String
            var text: String
        }
        var frames: [Frame]
    }

    func database() async throws -> PostgresConnectionInfo {
        guard case .postgres(let info) = try DatabaseLocation(parsing: try await ThrowawayPostgreSQL.shared.makeDatabase()) else {
            throw CancellationError()
        }
        return info
    }

    /// A node of its own data directory under `root` on the database `info`.
    func node(_ name: String, root: URL, on info: PostgresConnectionInfo, lease: Duration = .seconds(60)) async throws -> Node {
        let store = try await PostgreSQLLibraryStore.open(info, timeout: .testStoreOpening)
        let library = try MediaLibrary(location: LibraryLocation(dataDirectory: root.appendingPathComponent(name)), store: store)
        let service = try LiveTextService(
            library: library, searchIndex: PostgreSQLFrameTextIndex(sharing: store),
            analyzer: FrameTextAnalyzer(recognizer: TextRecognizer(threadCount: 1)), indexer: name, indexingLease: lease)
        return Node(library: library, service: service)
    }

    /// A 2-second clip showing `text` and a large number that turns every half second (so
    /// several frames are read), added through `node` and packaged.
    func addClip(_ text: String, root: URL, through node: Node) async throws -> String {
        let path = root.appendingPathComponent("\(UUID().uuidString).mp4").path
        let font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
        try await ProcessRunner(executable: "/usr/bin/ffmpeg").run([
            "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "color=c=white:size=640x360:rate=24:duration=2",
            "-vf",
            "drawtext=fontfile=\(font):text='\(text)':fontsize=28:fontcolor=black:x=30:y=100,"
                + "drawtext=fontfile=\(font):text='%{eif\\:floor(t*2)+1\\:d}':fontsize=150:fontcolor=black:x=300:y=160",
            "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", path,
        ])
        let asset = try await node.library.add(paths: [path])[0]
        await node.library.worker.drain()
        return asset.id
    }

    func searchedFrames(_ query: String, through node: Node) async throws -> [SearchBody.Frame] {
        try await MarqueeServer(library: node.library, liveText: node.service).application(host: "127.0.0.1", port: 0).test(.router) { client in
            try await client.execute(uri: "/api/search?q=\(query)", method: .get) { response throws in
                #expect(response.status == .ok, "\(response.text)")
                return try response.json(SearchBody.self).frames
            }
        }
    }

    @Test("Two indexers on one database read an asset's frames once, and a search through either finds it")
    func twoIndexersReadAnAssetOnce() async throws {
        let root = try temporaryDirectory()
        let info = try await database()
        let a = try await node("node-a", root: root, on: info)
        let b = try await node("node-b", root: root, on: info)
        let assetID = try await addClip("Bergamot ledger", root: root, through: a)

        await a.service.startIndexing()
        await b.service.startIndexing()
        defer {
            Task {
                await a.service.stopIndexing()
                await b.service.stopIndexing()
            }
        }
        try await eventually("the asset is indexed", within: .seconds(60), pollingEvery: .milliseconds(100)) {
            try await a.service.searchIndex.isIndexed(assetID: assetID)
        }
        let counts = [await a.service.analysedFrames, await b.service.analysedFrames]
        #expect(counts.min() == 0 && counts.max()! >= 2, "one indexer read the frames, the other none: \(counts)")
        // Each node's index is the other's: both see it indexed, and each one's search finds the text.
        #expect(try await b.service.searchIndex.isIndexed(assetID: assetID))
        for node in [a, b] {
            let frames = try await searchedFrames("bergamot", through: node)
            #expect(frames.contains { $0.assetID == assetID && $0.text.contains("Bergamot ledger") }, "\(frames.map(\.text))")
        }
        // A change to the asset later (another node's NOTIFY) does not read it again.
        try await a.library.setOverride(MetadataOverride(assetID: assetID, title: "Ledger"))
        try await Task.sleep(for: .milliseconds(500))
        #expect([await a.service.analysedFrames, await b.service.analysedFrames] == counts)
    }

    @Test("An asset claimed by an indexer that died is taken over once the claim lapses; a live claim is refused")
    func aLapsedClaimIsTakenOver() async throws {
        let root = try temporaryDirectory()
        let info = try await database()
        let a = try await node("node-a", root: root, on: info, lease: .seconds(1))
        let assetID = try await addClip("Quince harbour", root: root, through: a)
        let index = a.service.searchIndex

        // An indexer claims the asset and dies: its claim holds others off until it lapses.
        #expect(try await index.claimIndexing(assetID: assetID, indexer: "crashed", lease: .seconds(2)))
        #expect(try await index.claimIndexing(assetID: assetID, indexer: "another", lease: .seconds(60)) == false)
        #expect(try await index.renewIndexingClaim(assetID: assetID, indexer: "another", lease: .seconds(60)) == false)

        await a.service.startIndexing()
        defer { Task { await a.service.stopIndexing() } }
        try await eventually("node A takes the asset over", within: .seconds(60), pollingEvery: .milliseconds(100)) {
            try await index.isIndexed(assetID: assetID)
        }
        #expect(await a.service.analysedFrames > 0)
        #expect(try await index.search("quince", limit: 10).contains { $0.assetID == assetID && $0.text.contains("Quince harbour") })
        // Indexed: nobody claims it again, not even once the claims have lapsed.
        #expect(try await index.claimIndexing(assetID: assetID, indexer: "crashed", lease: .seconds(1)) == false)

        // Deleted for good: its index goes with its row.
        try await a.library.trash(assetID: assetID)
        try await a.library.purgeTrash(before: Date().addingTimeInterval(60))
        #expect(try await index.search("quince", limit: 10).isEmpty)
        #expect(try await index.isIndexed(assetID: assetID) == false)
    }

    @Test("A node that leaves reading to the workers reads nothing for the index, and forgets its cached frames of an asset protected through another node")
    func aNodeThatLeavesReadingToWorkersKeepsItsCacheInStep() async throws {
        let root = try temporaryDirectory()
        let info = try await database()
        let worker = try await node("worker", root: root, on: info)
        let serving = try await node("serving", root: root, on: info)
        let assetID = try await addClip("Tamarind atlas", root: root, through: worker)
        await serving.service.startIndexing(readingFrames: false)
        await worker.service.startIndexing()
        defer {
            Task {
                await serving.service.stopIndexing()
                await worker.service.stopIndexing()
            }
        }
        try await eventually("the worker indexes the asset", within: .seconds(60), pollingEvery: .milliseconds(100)) {
            try await worker.service.searchIndex.isIndexed(assetID: assetID)
        }
        #expect(await serving.service.analysedFrames == 0)
        // A viewer pauses on the serving node: that frame is read there and kept in its cache.
        _ = try await serving.service.frameText(assetID: assetID, at: 0.2)
        #expect(try await serving.service.store.cachedFrameCount(assetID: assetID) == 1)

        // Protected through the worker's library (another process): the serving node hears of it
        // (NOTIFY) and forgets what it read; the shared index forgets the asset too.
        try await worker.service.setProtected(true, assetID: assetID)
        try await eventually("the serving node forgets its cached frame", within: .seconds(10), pollingEvery: .milliseconds(50)) {
            try await serving.service.store.cachedFrameCount(assetID: assetID) == 0
        }
        #expect(try await serving.service.searchIndex.search("tamarind", limit: 10).isEmpty)
        #expect(await serving.service.analysedFrames == 1)
    }
}
