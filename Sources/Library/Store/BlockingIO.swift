import Dispatch

/// Runs blocking file-system work (copying or deleting whole bundles, walking folders) on a
/// dispatch queue of its own, so it never occupies a thread of the cooperative pool.
enum BlockingIO {
    private static let queue = DispatchQueue(label: "marquee.library.blocking-io", attributes: .concurrent)

    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body() }) }
        }
    }
}
