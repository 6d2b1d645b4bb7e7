public import NIOPosix

/// The one way Marquee runs a blocking call that is not media work — file-system calls,
/// copying a bundle, reading a journal, hashing a file — so that it never lands on Swift's
/// cooperative pool or on an event loop.
///
/// Work runs on a thread pool of its own (eight threads), so a long copy during an import
/// cannot hold up the server's file serving, which keeps NIO's shared pool. FFmpeg work has
/// its own pool in MediaCore (`MediaThreadPool`), which also runs the file work of a
/// packaging step. A task cancelled before its work starts does not run it.
public enum BlockingWork {
    /// The pool, started on first use and kept for the life of the process.
    public static let threadPool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 8)
        pool.start()
        return pool
    }()

    /// Runs `body` on the pool and returns its result (or rethrows its error).
    public static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await threadPool.runIfActive(body)
    }

    /// A started pool of `threads` threads of its own, for blocking work that must be bounded
    /// apart from everything else (password hashing runs one at a time, so a burst of sign-ins
    /// never holds more than one hash's memory). Kept for the life of the process.
    public static func dedicatedPool(threads: Int) -> NIOThreadPool {
        let pool = NIOThreadPool(numberOfThreads: threads)
        pool.start()
        return pool
    }
}
