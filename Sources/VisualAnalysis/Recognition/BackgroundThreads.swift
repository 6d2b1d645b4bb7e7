import Foundation
public import MediaCore

/// Threads for work nobody is waiting for (reading frames for search at ingest): a one-thread
/// `MediaThreadPool` whose thread runs at the lowest scheduling priority, so indexing never
/// slows playback, scrubbing or a paused player's Live Text.
public enum BackgroundThreads {
    /// A one-thread pool at the lowest priority (nice 19 on Linux).
    public static func pool(name: String) -> MediaThreadPool {
        let pool = MediaThreadPool(threadCount: 1, name: name)
        lowerPriority(of: pool)
        return pool
    }

    /// Lowers the priority of a one-thread pool's thread; the job runs before any later one.
    static func lowerPriority(of pool: MediaThreadPool) {
        Task.detached {
            _ = try? await pool.run { _ in
                #if os(Linux)
                // On Linux the nice value belongs to the thread, and who = 0 names the calling one.
                _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
                #else
                _ = setpriority(PRIO_DARWIN_THREAD, 0, PRIO_DARWIN_BG)
                #endif
            }
        }
    }
}
