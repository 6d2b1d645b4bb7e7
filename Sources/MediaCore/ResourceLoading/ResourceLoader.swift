/// A custom source of media bytes: in-memory data, a file inside an archive or database, an
/// encrypted local store — the role `AVAssetResourceLoader`'s delegate plays.
///
/// MediaCore asks for the total length once and then for byte ranges. A loader whose whole
/// length can be read at any moment without waiting (memory, a local file, a local database)
/// says so with `entireLengthAvailableOnDemand`; MediaCore then reads straight through with no
/// read-ahead cache and opening starts at once. Other loaders get a read-ahead cache as
/// network sources do.
public protocol ResourceLoader: Sendable {
    /// Names the resource in errors and logs.
    var resourceDescription: String { get }
    /// True when any byte range can be read at once; turns the read-ahead cache off.
    var entireLengthAvailableOnDemand: Bool { get }
    /// The resource's total length in bytes.
    func contentLength() async throws -> Int64
    /// Up to `length` bytes starting at `offset`; fewer only at the end of the resource.
    func read(offset: Int64, length: Int) async throws -> [UInt8]
}
