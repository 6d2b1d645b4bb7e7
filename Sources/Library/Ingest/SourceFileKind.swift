import Foundation

/// What a path names, with symbolic links followed: only regular files are media the library
/// may open. A FIFO, a device or a socket would block the ingest worker in `open()` (a FIFO
/// waits for a writer that never comes) or stream without end, so they are refused before
/// anything opens them.
enum SourceFileKind: Hashable, Sendable {
    case regularFile
    case directory
    case missing
    /// Anything else, named for a person: "a FIFO (named pipe)", "a character device"…
    case other(String)

    static func of(_ url: URL) -> SourceFileKind {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .regularFile
        case S_IFDIR: return .directory
        case S_IFIFO: return .other("a FIFO (named pipe)")
        case S_IFCHR: return .other("a character device")
        case S_IFBLK: return .other("a block device")
        case S_IFSOCK: return .other("a socket")
        default: return .other("not a regular file")
        }
    }

    /// The error for a path that is neither a regular file nor a folder.
    static func refusal(_ path: String, _ what: String) -> LibraryError {
        .invalidRequest("\(path) is \(what); only regular files are added")
    }
}
