public import Foundation

/// Some or all of the bytes of a published media file as they arrive from the store, for
/// answering a client without holding the whole file in memory.
public struct MediaFileStream: Sendable {
    /// The whole file's size, whatever part `chunks` carries.
    public var totalSize: Int
    /// The bytes `chunks` carries (inclusive bounds), or `nil` for an empty file.
    public var range: ClosedRange<Int>?
    /// A validator that changes when the file does (an object's ETag), quoted as in HTTP.
    public var eTag: String?
    /// The bytes in order; a store reads more only as the consumer asks for it.
    public var chunks: any AsyncSequence<Data, any Error> & Sendable

    public init(totalSize: Int, range: ClosedRange<Int>?, eTag: String?, chunks: any AsyncSequence<Data, any Error> & Sendable) {
        self.totalSize = totalSize
        self.range = range
        self.eTag = eTag
        self.chunks = chunks
    }
}

/// A file changed between reading its validator and reading its bytes (a stream asked for
/// with `ifMatch` found another version): the caller reads the validator again.
public struct MediaFileChanged: Error, Sendable, CustomStringConvertible {
    public let path: String
    public let assetID: String

    public init(path: String, assetID: String) {
        self.path = path
        self.assetID = assetID
    }

    public var description: String { "\(path) of asset \(assetID) changed while it was being read" }
}

/// A whole media file held in memory, with its validator (see `MediaStore.memoryCopy`).
public struct MediaMemoryCopy: Sendable {
    public var data: Data
    /// The store's validator for this version (an object's ETag, quoted as in HTTP).
    public var eTag: String?

    public init(data: Data, eTag: String?) {
        self.data = data
        self.eTag = eTag
    }
}

extension MediaStore {
    /// Media are served by the server itself unless a store says otherwise.
    public var directOrigin: String? { nil }

    /// Stores keep no copies in memory unless they say otherwise.
    public func memoryCopy(_ path: String, of assetID: String) async -> MediaMemoryCopy? { nil }

    /// The default for stores without a streaming read: the bytes read at once by
    /// `read(_:of:range:)`, handed on as one chunk (ignoring `ifMatch`).
    public func stream(_ path: String, of assetID: String, range: ClosedRange<Int>?, ifMatch: String?) async throws -> MediaFileStream? {
        guard let contents = try await read(path, of: assetID, range: range) else { return nil }
        let bytes = contents.data.isEmpty ? nil : (range?.lowerBound ?? 0)...((range?.lowerBound ?? 0) + contents.data.count - 1)
        let data = contents.data
        return MediaFileStream(
            totalSize: contents.totalSize, range: bytes, eTag: contents.eTag,
            chunks: AsyncThrowingStream<Data, any Error> { continuation in
                continuation.yield(data)
                continuation.finish()
            })
    }
}
