import Foundation
import HTTPTypes
import Testing
import VisualAnalysis

@testable import MarqueeServer

@Suite("Live Text past the end and per-client reading limits (issue 24, item 5)", .serialized)
struct LiveTextAdmissionTests {
    /// A service over the shared library with a frames cache of its own, so its counts and
    /// cache do not mix with the other Live Text tests running beside it.
    static func ownService(_ fixture: LiveTextFixture, readingsPerClient: Int = 2) throws -> LiveTextService {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-admission-\(UUID().uuidString).sqlite")
        return try LiveTextService(
            library: fixture.library, store: FrameTextStore(url: cache),
            analyzer: FrameTextAnalyzer(recognizer: TextRecognizer(threadCount: 1)), readingsPerClient: readingsPerClient)
    }

    @Test("Times past the end all show the last frame, read once: later ones are answered from the cache")
    func pastTheEndIsCachedByTheResolvedFrame() async throws {
        let fixture = try await LiveTextFixture.shared.value
        let service = try Self.ownService(fixture)
        let before = await service.analysedFrames
        var answers: [LiveTextService.Answer] = []
        for time in [50.0, 5_000, 1e6, 3.5] {
            answers.append(try await service.frameText(assetID: fixture.textID, at: time))
        }
        #expect(answers.allSatisfy { $0.frame.text.text.contains("Frame 71") }, "\(answers.map(\.frame.text.text))")
        #expect(Set(answers.map(\.frame.frameTime)).count == 1)
        #expect(answers.dropFirst().allSatisfy { $0.cached }, "every time after the first past the end is a cache hit")
        let analysed = await service.analysedFrames
        #expect(analysed - before <= 1)
    }

    @Test("A client reading as many frames as it may is refused another until one finishes; other clients are not")
    func readingsPerClientAreLimited() async throws {
        let fixture = try await LiveTextFixture.shared.value
        let service = try Self.ownService(fixture, readingsPerClient: 1)
        // Frames nothing has read yet (the fixture's clip has 72 frames at 24 fps).
        var unread: [Double] = []
        for frame in stride(from: 5, to: 70, by: 3) where unread.count < 4 {
            let time = (Double(frame) + 0.5) / 24
            if try await service.store.cachedFrame(assetID: fixture.textID, at: time) == nil { unread.append(time) }
        }
        try #require(unread.count == 4)
        let times = unread
        let assetID = fixture.textID
        // The first reading is held at its start (its staleness check) until the test lets it go.
        let (gate, open) = AsyncStream<Void>.makeStream()
        let heldTime = times[0]
        let held = Task {
            try await service.frameText(assetID: assetID, at: heldTime, client: "192.0.2.1") {
                for await _ in gate {}
                return false
            }
        }
        while await !service.isReading(client: "192.0.2.1") { await Task.yield() }

        do {
            _ = try await service.frameText(assetID: fixture.textID, at: times[1], client: "192.0.2.1")
            Issue.record("a second uncached reading for the same client was admitted")
        } catch let error as LiveTextError {
            guard case .busy(1) = error else { throw error }
            #expect(APIError.from(error).status == .tooManyRequests)
        }
        // Another client is admitted (it gives up at once: its frame is said to be stale).
        await #expect(throws: LiveTextError.self) {
            _ = try await service.frameText(assetID: fixture.textID, at: times[2], client: "192.0.2.2") { true }
        }
        let otherReading = await service.isReading(client: "192.0.2.2")
        #expect(!otherReading)

        open.finish()
        let answer = try await held.value
        #expect(answer.frame.text.text.contains("Quarterly"))
        let stillReading = await service.isReading(client: "192.0.2.1")
        #expect(!stillReading)
        // Its reading done, the client may read again.
        let next = try await service.frameText(assetID: fixture.textID, at: times[3], client: "192.0.2.1")
        #expect(!next.cached)
    }

    @Test("The admission state machine: a limit per client, released by finishing")
    func admissionMachine() {
        var admission = RecognitionAdmission(limitPerClient: 2)
        let (first, second, third) = (admission.admit("a"), admission.admit("a"), admission.admit("a"))
        #expect(first && second && !third)
        let other = admission.admit("b")
        #expect(other)
        admission.finished("a")
        let again = admission.admit("a")
        #expect(again)
        admission.finished("a")
        admission.finished("a")
        admission.finished("b")
        #expect(admission.reading.isEmpty)
    }
}
