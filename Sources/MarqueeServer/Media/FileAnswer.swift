import HTTPTypes
import NIOCore

/// What a request for a known file gets — 304, a HEAD answer, 416, bytes from memory, or
/// bytes from the file — decided from the request's validators and range alone. Both the
/// routed path (`MediaFileResponder`) and the event-loop path (`CachedMediaHandler`) answer
/// from it, so they cannot disagree about ranges, validators or headers.
enum FileAnswer {
    /// `If-None-Match` matched: `304` with the file's headers.
    case notModified(HTTPFields)
    /// `HEAD`: `200` with the headers (and length) a `GET` would have.
    case headOnly(HTTPFields)
    /// The range cannot be served from a file of this size (`416`).
    case unsatisfiable(size: Int)
    /// The body is (a slice of) the bytes kept in memory.
    case bytes(HTTPResponse.Status, HTTPFields, ByteBuffer)
    /// The body comes from the file: `range` (inclusive) or all of it when nil.
    case fromFile(HTTPResponse.Status, HTTPFields, range: ClosedRange<Int>?)

    init(file: ServedFile, method: HTTPRequest.Method, headers request: HTTPFields) {
        var headers = file.headers
        if let match = request[.ifNoneMatch], match == file.eTag || match == "*" {
            self = .notModified(headers)
            return
        }
        var range = ByteRangeRequest(header: request[.range], size: file.size)
        if let ifRange = request[.ifRange], ifRange != file.eTag { range = .whole }
        if method == .head {
            headers[.contentLength] = String(file.size)
            self = .headOnly(headers)
            return
        }
        switch range {
        case .unsatisfiable:
            self = .unsatisfiable(size: file.size)
        case .partial(let bytes):
            headers[.contentRange] = "bytes \(bytes.lowerBound)-\(bytes.upperBound)/\(file.size)"
            headers[.contentLength] = String(bytes.count)
            if let buffer = file.bytes, let slice = buffer.getSlice(at: buffer.readerIndex + bytes.lowerBound, length: bytes.count) {
                self = .bytes(.partialContent, headers, slice)
            } else {
                self = .fromFile(.partialContent, headers, range: bytes)
            }
        case .whole:
            headers[.contentLength] = String(file.size)
            if let buffer = file.bytes {
                self = .bytes(.ok, headers, buffer)
            } else {
                self = .fromFile(.ok, headers, range: nil)
            }
        }
    }
}
