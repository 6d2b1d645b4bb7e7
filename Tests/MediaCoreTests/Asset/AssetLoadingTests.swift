import Foundation
import MediaTesting
import Testing

@testable import MediaCore

@Suite struct AssetLoadingTests {
    @Test func loadReturnsATypedTupleOfDurationTracksAndMetadata() async throws {
        let asset = MediaAsset(path: try await MediaFixtures.shared.counter())
        let (duration, tracks, metadata) = try await asset.load(.duration, .tracks, .metadata)
        #expect(abs(duration.seconds - 10) < 0.1)
        let video = try #require(tracks.first { $0.mediaType == .video })
        #expect(video.codec == "h264")
        #expect(video.naturalSize == PixelSize(width: 320, height: 240))
        #expect(abs((video.nominalFrameRate ?? 0) - 30) < 0.01)
        let audio = try #require(tracks.first { $0.mediaType == .audio })
        #expect(audio.codec == "aac")
        #expect(audio.sampleRate == 48_000)
        #expect(audio.channelCount == 1)
        #expect(metadata.first(.title)?.stringValue == "Counting Frames")
        #expect(metadata.first(.description)?.stringValue == "A test of frame accuracy")
        #expect(metadata.first(.artist)?.stringValue == "Marquee Tests")
    }

    @Test func statusMovesFromNotYetLoadedToLoaded() async throws {
        let asset = MediaAsset(path: try await MediaFixtures.shared.videoOnly())
        guard case .notYetLoaded = asset.status(of: .duration) else {
            Issue.record("a fresh asset must not have loaded anything")
            return
        }
        let tracks = try await asset.load(.tracks)
        #expect(tracks.count == 1)
        guard case .loaded(let loaded) = asset.status(of: .tracks) else {
            Issue.record("tracks must be loaded after load(.tracks)")
            return
        }
        #expect(loaded == tracks)
        // Only what was asked for counts as loaded.
        guard case .notYetLoaded = asset.status(of: .chapters) else {
            Issue.record("chapters were never requested")
            return
        }
    }

    @Test func concurrentLoadsShareOneOpen() async throws {
        let asset = MediaAsset(path: try await MediaFixtures.shared.counter())
        let durations = try await withThrowingTaskGroup(of: Double.self) { group in
            for index in 0..<16 {
                group.addTask {
                    index.isMultiple(of: 2)
                        ? try await asset.load(.duration).seconds
                        : try await asset.load(.tracks, .duration).1.seconds
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(durations.count == 16)
        #expect(Set(durations).count == 1)
        #expect(asset.inspectionCount == 1)
        _ = try await asset.load(.metadata)
        #expect(asset.inspectionCount == 1)
    }

    @Test func aMissingFileFailsWithATypedErrorNamingThePath() async throws {
        let path = "/nonexistent/marquee/movie.mp4"
        let asset = MediaAsset(path: path)
        do {
            _ = try await asset.load(.duration)
            Issue.record("loading a missing file must fail")
        } catch let error as MediaError {
            #expect(error.kind == .open)
            #expect(error.url == path)
            #expect(error.message.contains("No such file"))
        }
        guard case .failed(let error) = asset.status(of: .duration) else {
            Issue.record("status must report the failure")
            return
        }
        #expect(error is MediaError)
    }

    @Test func assetLoadsOverHTTPOnLoopback() async throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: try await MediaFixtures.shared.counter()))
        let server = try await LoopbackHLSServer.start(files: ["media": bytes])
        defer { Task { try? await server.stop() } }
        let asset = MediaAsset(url: server.url("media"))
        let (duration, tracks) = try await asset.load(.duration, .tracks)
        #expect(abs(duration.seconds - 10) < 0.1)
        #expect(tracks.map(\.mediaType) == [.video, .audio])
    }

    @Test func cancellingEndsAReadStalledOnTheNetwork() async throws {
        let server = try await LoopbackHLSServer.start()
        defer { Task { try? await server.stop() } }
        server.setFault("media", .stall)
        let asset = MediaAsset(url: server.url("media"))
        let started = ContinuousClock.now
        let task = Task { try await asset.load(.duration) }
        try await eventually("the read to reach the server") { server.requestCount("media") >= 1 }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        let elapsed = ContinuousClock.now - started
        // The server never answers: without cancellation the read would hang until the test runner
        // gives up. The bound only tells "ended" from "hung"; it is generous because the whole suite
        // runs in parallel on 2 cores (OCR, packaging), where the media pool can be busy for seconds.
        #expect(elapsed < .seconds(15), "cancellation must end the stalled read, took \(elapsed)")
        guard case .notYetLoaded = asset.status(of: .duration) else {
            Issue.record("a cancelled load leaves the property unloaded")
            return
        }
    }
}
