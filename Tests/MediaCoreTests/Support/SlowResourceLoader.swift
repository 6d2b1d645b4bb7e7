import Synchronization

@testable import MediaCore

/// Wraps a loader and delays every read, like a slow network or a busy database.
final class SlowResourceLoader: ResourceLoader {
    let base: any ResourceLoader
    let delay: Duration
    private let count = Atomic<Int>(0)

    init(base: any ResourceLoader, delay: Duration) {
        self.base = base
        self.delay = delay
    }

    var reads: Int { count.load(ordering: .relaxed) }
    var resourceDescription: String { "slow " + base.resourceDescription }
    var entireLengthAvailableOnDemand: Bool { true }
    func contentLength() async throws -> Int64 { try await base.contentLength() }
    func read(offset: Int64, length: Int) async throws -> [UInt8] {
        count.add(1, ordering: .relaxed)
        try await Task.sleep(for: delay)  // the slowness it stands for: real time, as a network's
        return try await base.read(offset: offset, length: length)
    }
}
