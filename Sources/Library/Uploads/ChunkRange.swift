import Foundation

/// Which bytes of an upload one `PUT` carries, from its `Content-Range` header
/// (`bytes 0-8388607/2147483648`, total `*` when unknown) or from an `offset` alone.
public struct ChunkRange: Sendable, Hashable {
    public var start: Int64
    /// The last byte, inclusive; `nil` when only the start is known (the body's length decides).
    public var end: Int64?
    /// The whole file's length, when the client says it.
    public var total: Int64?

    public init(start: Int64, end: Int64? = nil, total: Int64? = nil) {
        self.start = start
        self.end = end
        self.total = total
    }

    /// The largest byte position a range may name. One less than `Int64.max`, so that a
    /// chunk's byte count (`end - start + 1`) and every sum of positions fit in an `Int64`.
    public static let maximumPosition: Int64 = .max - 1

    /// How many bytes the chunk says it carries, when it says. Never traps: a range built by
    /// hand past `maximumPosition` counts as `Int64.max` bytes (more than any upload allows).
    public var count: Int64? {
        end.map { end in
            let (count, overflow) = (end - start).addingReportingOverflow(1)
            return overflow || end < start ? .max : count
        }
    }

    /// The shape of a `Content-Range` the server reads, as `openapi.json` states it (positions
    /// of up to 19 digits; `parse` also refuses one past `maximumPosition`, a last byte before
    /// the first, and a last byte at or past the total).
    public static let contentRangePattern = #"^bytes [0-9]{1,19}-[0-9]{1,19}/([0-9]{1,19}|\*)$"#

    /// Parses a `Content-Range` request header.
    public static func parse(contentRange header: String) throws(UploadError) -> ChunkRange {
        let text = header.trimmingCharacters(in: .whitespaces)
        guard text.lowercased().hasPrefix("bytes ") else { throw .invalidRange("Content-Range must start with \"bytes \": \(header)") }
        let spec = text.dropFirst(6).trimmingCharacters(in: .whitespaces)
        let halves = spec.split(separator: "/", omittingEmptySubsequences: false)
        guard halves.count == 2 else { throw .invalidRange("Content-Range needs start-end/total: \(header)") }
        let total: Int64?
        if halves[1] == "*" {
            total = nil
        } else {
            guard let value = position(halves[1]) else { throw .invalidRange("the total in Content-Range is not a number: \(header)") }
            total = value
        }
        let bounds = halves[0].split(separator: "-", omittingEmptySubsequences: false)
        guard bounds.count == 2, let start = position(bounds[0]), let end = position(bounds[1]), end >= start else {
            throw .invalidRange("Content-Range needs a first and last byte, first ≤ last: \(header)")
        }
        if let total, end >= total { throw .invalidRange("Content-Range ends past the total length: \(header)") }
        guard end <= maximumPosition, (total ?? 0) <= maximumPosition else {
            throw .invalidRange("Content-Range names a byte past the largest file the server can take: \(header)")
        }
        return ChunkRange(start: start, end: end, total: total)
    }

    /// A byte position: ASCII digits only (no sign, no spaces), as RFC 9110 writes them;
    /// nil when it is not one or does not fit in an `Int64`.
    static func position(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return Int64(text)
    }

    /// Checks the chunk against what the server has: it must start exactly at `received`
    /// (so a resumed client first asks for the offset) and stay within the upload's length.
    /// Returns how many bytes of body may be written at most (`nil`: no limit).
    public func check(received: Int64, declaredLength: Int64?) throws(UploadError) -> Int64? {
        guard start == received else { throw .offsetMismatch(expected: received, got: start) }
        if let total, let declaredLength, total != declaredLength {
            throw .invalidRange("Content-Range says the file is \(total) bytes, the upload was created for \(declaredLength)")
        }
        let length = declaredLength ?? total
        if let end, let length, end >= length { throw .invalidRange("bytes \(start)-\(end) go past the end of a \(length)-byte file") }
        let limit: Int64? =
            switch (count, length) {
            case (let count?, _): count
            case (nil, let length?): length - start
            case (nil, nil): nil
            }
        return limit
    }
}

/// What can go wrong with an upload, each with the sentence the API sends.
public enum UploadError: Error, Sendable, Equatable, CustomStringConvertible {
    case notFound(String)
    case invalidRange(String)
    case offsetMismatch(expected: Int64, got: Int64)
    case chunkTooLong(limit: Int64)
    case busy(String)
    case incomplete(received: Int64, length: Int64)
    case invalidFileName(String)
    case insufficientSpace(needed: Int64, available: Int64)

    public var description: String {
        switch self {
        case .notFound(let id):
            "No upload with id \(id) on this server (it may have finished, been cancelled or expired; behind a load balancer, every request of an upload must reach the node that started it)"
        case .invalidRange(let reason): reason
        case .offsetMismatch(let expected, let got):
            "This chunk starts at byte \(got) but the server has \(expected) bytes; send from \(expected)"
        case .chunkTooLong(let limit): "The body is longer than its Content-Range (\(limit) bytes) or the upload's length"
        case .busy(let id): "Upload \(id) is busy: another request is writing a chunk of it or completing it; wait for that to finish"
        case .incomplete(let received, let length): "Only \(received) of \(length) bytes have arrived; send the rest first"
        case .invalidFileName(let name):
            "\"\(name.prefix(300))\" is not a usable file name: use a plain name of 1 to 255 characters, without / or \\ or control characters, not starting with \".\""
        case .insufficientSpace(let needed, let available):
            "Not enough disk space: the file needs \(needed) bytes and \(available) are free"
        }
    }
}
