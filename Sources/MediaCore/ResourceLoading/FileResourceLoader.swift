import Foundation

/// A resource loader over a local file, read with positioned reads.
///
/// `entireLengthAvailableOnDemand` is configurable so the two ways of reading (straight
/// through, or through the read-ahead cache used for network-like sources) can be compared
/// on the same file.
public final class FileResourceLoader: ResourceLoader, Sendable {
    public let path: String
    public let entireLengthAvailableOnDemand: Bool
    private let descriptor: Int32

    public init(path: String, entireLengthAvailableOnDemand: Bool = true) throws {
        self.path = path
        self.entireLengthAvailableOnDemand = entireLengthAvailableOnDemand
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw MediaError(.open, url: path, message: String(cString: strerror(errno)))
        }
    }

    deinit { close(descriptor) }

    public var resourceDescription: String { path }

    public func contentLength() async throws -> Int64 {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw MediaError(.read, url: path, message: String(cString: strerror(errno)))
        }
        return Int64(info.st_size)
    }

    public func read(offset: Int64, length: Int) async throws -> [UInt8] {
        guard length > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: length)
        var filled = 0
        while filled < length {
            let count = buffer.withUnsafeMutableBytes { raw in
                pread(descriptor, raw.baseAddress! + filled, length - filled, off_t(offset) + off_t(filled))
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw MediaError(.read, url: path, message: String(cString: strerror(errno)))
            }
            if count == 0 { break }
            filled += count
        }
        if filled < length { buffer.removeSubrange(filled...) }
        return buffer
    }
}
