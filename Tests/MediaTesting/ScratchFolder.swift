public import Foundation
import Synchronization

/// Temporary folders for tests that are removed when the test process exits, so a test that
/// fails (or forgets its `defer`) leaves nothing behind in the temporary directory.
public enum ScratchFolder {
    private static let folders = Mutex<[URL]>([])
    private static let exitHandler: Void = {
        atexit {
            for folder in ScratchFolder.folders.withLock({ $0 }) { try? FileManager.default.removeItem(at: folder) }
        }
    }()

    /// A new, empty folder `prefix-UUID` in the temporary directory, removed at exit.
    public static func make(_ prefix: String) throws -> URL {
        let folder = reserve(prefix)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The path of a folder `prefix-UUID` in the temporary directory, not created, removed at
    /// exit if something creates it.
    public static func reserve(_ prefix: String) -> URL {
        _ = exitHandler
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        folders.withLock { $0.append(folder) }
        return folder
    }
}
