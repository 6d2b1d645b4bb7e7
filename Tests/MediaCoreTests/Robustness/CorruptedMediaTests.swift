import Foundation
import MediaTesting
import Testing

@testable import MediaCore

/// Damaged media through probing and thumbnails: every file ends in a result or a typed
/// error within a time limit; nothing crashes or hangs.
@Suite struct CorruptedMediaTests {

    enum Damage: String, CaseIterable {
        case flip10, flip200, flip5000, truncate10, truncate50, truncate90, zeroLength, wrongExtension,
            garbageHeader, randomBytes
    }

    /// Writes the damaged copy of `source` and returns its path.
    static func damage(_ source: String, _ damage: Damage, seed: UInt64) throws -> String {
        var random = SplitMix64(seed: seed)
        var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: source)))
        let name = URL(fileURLWithPath: source).deletingPathExtension().lastPathComponent
        var ext = URL(fileURLWithPath: source).pathExtension
        func flip(_ count: Int) {
            for _ in 0..<count {
                let index = Int.random(in: 0..<bytes.count, using: &random)
                bytes[index] ^= UInt8(1 << Int.random(in: 0..<8, using: &random))
            }
        }
        switch damage {
        case .flip10: flip(10)
        case .flip200: flip(200)
        case .flip5000: flip(5000)
        case .truncate10: bytes = Array(bytes.prefix(bytes.count / 10))
        case .truncate50: bytes = Array(bytes.prefix(bytes.count / 2))
        case .truncate90: bytes = Array(bytes.prefix(bytes.count * 9 / 10))
        case .zeroLength: bytes = []
        case .wrongExtension: ext = ext == "mp3" ? "mp4" : "mp3"
        case .garbageHeader:
            for index in 0..<min(4096, bytes.count) { bytes[index] = UInt8.random(in: 0...255, using: &random) }
        case .randomBytes: bytes = (0..<200_000).map { _ in UInt8.random(in: 0...255, using: &random) }
        }
        let path = MediaFixtures.shared.scratch("\(name)-\(damage.rawValue).\(ext)")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    static let sources = ["counter", "multiLanguage", "taggedMP3", "hevc10bit", "variableFrameRate"]

    static func source(_ name: String) async throws -> String {
        let fixtures = MediaFixtures.shared
        switch name {
        case "counter": return try await fixtures.counter()
        case "multiLanguage": return try await fixtures.multiLanguage()
        case "taggedMP3": return try await fixtures.taggedMP3()
        case "hevc10bit": return try await fixtures.hevc10bit()
        default: return try await fixtures.variableFrameRate()
        }
    }

    /// Runs `work` with a deadline; true when it finished in time.
    static func finishes(within limit: Duration, _ work: @escaping @Sendable () async -> Void) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await work()
                return true
            }
            group.addTask {
                try? await Task.sleep(for: limit)  // the bound itself: real time is what it limits
                return false
            }
            let first = await group.next()!
            group.cancelAll()
            return first
        }
    }

    static func isTyped(_ error: any Error) -> Bool {
        error is MediaError || error is CancellationError
    }

    @Test(arguments: sources)
    func damagedCopiesEndInAResultOrATypedError(sourceName: String) async throws {
        let source = try await Self.source(sourceName)
        var outcomes: [String] = []
        for (offset, damage) in Damage.allCases.enumerated() {
            let path = try Self.damage(source, damage, seed: UInt64(offset * 7919 + sourceName.count))
            let record = OutcomeLog()
            let finished = await Self.finishes(within: .seconds(30)) {
                let asset = MediaAsset(path: path)
                do {
                    let (duration, tracks) = try await asset.load(.duration, .tracks)
                    record.add("probe ok \(duration.seconds)s \(tracks.count) tracks")
                } catch {
                    record.add(Self.isTyped(error) ? "probe \((error as? MediaError)?.kind.rawValue ?? "cancelled")" : "UNTYPED probe \(error)")
                }
                for tolerance in [MediaTime.zero, MediaTime(seconds: 1), .positiveInfinity] {
                    var generator = ImageGenerator(asset: asset)
                    generator.setTolerance(tolerance)
                    generator.maximumSize = PixelSize(width: 64, height: 64)
                    let times = [0, 0.5, 1.7, 3, 1000].map { MediaTime(seconds: $0) }
                    var count = 0
                    for await result in generator.images(for: times) {
                        count += 1
                        do {
                            let image = try result.image
                            if image.width < 1 || image.width > 64 || image.height > 64 { record.add("BAD SIZE \(image.size)") }
                        } catch {
                            if !Self.isTyped(error) { record.add("UNTYPED image \(error)") }
                        }
                    }
                    if count != times.count { record.add("MISSING results: \(count) of \(times.count)") }
                }
            }
            #expect(finished, "\(path) did not finish within 30 s")
            let log = record.entries
            #expect(
                !log.contains { $0.hasPrefix("UNTYPED") || $0.hasPrefix("BAD") || $0.hasPrefix("MISSING") },
                "\(damage.rawValue): \(log)")
            outcomes.append("\(damage.rawValue): \(log.first ?? "-")")
        }
        // A zero-length file never probes as media; random bytes do not either, except under an
        // .mp3 name, where FFmpeg's MP3 demuxer accepts anything by extension.
        #expect(outcomes.contains { $0.hasPrefix("zeroLength: probe open") || $0.hasPrefix("zeroLength: probe streamInfo") })
        if !source.hasSuffix(".mp3") {
            #expect(outcomes.contains { $0.hasPrefix("randomBytes: probe ") && !$0.contains("probe ok") }, "\(outcomes)")
        }
        if ProcessInfo.processInfo.environment["MARQUEE_TEST_VERBOSE"] != nil { print(sourceName, outcomes) }
    }
}

/// Collects outcome notes from a task.
final class OutcomeLog: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func add(_ entry: String) {
        lock.lock()
        items.append(entry)
        lock.unlock()
    }
    var entries: [String] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }
}
