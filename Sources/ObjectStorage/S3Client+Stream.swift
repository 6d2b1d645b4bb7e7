public import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

extension S3Client {
    /// An object's bytes (or the requested range of them) as they arrive from the service,
    /// without holding the whole object in memory, and what the service said about it.
    public struct ObjectStream: Sendable {
        /// The whole object's size (from `Content-Range` for a range).
        public var totalSize: Int
        /// The bytes `body` carries (inclusive), within `0..<totalSize`; `nil` for an empty object.
        public var range: ClosedRange<Int>?
        public var contentType: String?
        public var etag: String?
        /// The bytes, read from the connection only as fast as they are consumed (the HTTP
        /// client's back-pressure), so memory stays at a few buffers whatever the size.
        public var body: HTTPClientResponse.Body
    }

    /// Streams the object at `key`, or the bytes in `range` of it (inclusive bounds, sent as
    /// HTTP's `Range`). With `ifMatch`, the service refuses (412, thrown) when the object's
    /// ETag is no longer that one. Returns `nil` when there is no such object. Connecting and
    /// the response's head are retried as any request is; once bytes flow, a failure ends the
    /// body with an error (the caller has already answered).
    public func stream(_ key: String, range: ClosedRange<Int>? = nil, ifMatch: String? = nil) async throws -> ObjectStream? {
        var headers: [String: String] = [:]
        if let range { headers["range"] = "bytes=\(range.lowerBound)-\(range.upperBound)" }
        if let ifMatch { headers["if-match"] = ifMatch }
        let target = url(for: key, query: [])
        let operation = "GET \(bucket)/\(key)"
        let payloadHash = SigV4Signer.hex(SHA256.hash(data: Data()))
        var attempt = 0
        while true {
            attempt += 1
            do {
                var request = HTTPClientRequest(url: target.absoluteString)
                request.method = .GET
                for (name, value) in signer.signedHeaders(method: "GET", url: target, headers: headers, payloadHash: payloadHash) where name != "host" {
                    request.headers.add(name: name, value: value)
                }
                // The deadline covers the response's head only: the body streams for as long as the client reads.
                let response = try await http.execute(request, timeout: timeAllowed(sending: 0))
                let status = Int(response.status.code)
                let header = { (name: String) in response.headers.first(name: name) }
                if status == 200 || status == 206 {
                    let length = header("content-length").flatMap(Int.init) ?? 0
                    let contentRange = header("content-range").flatMap(Self.parseContentRange)
                    let total = contentRange?.total ?? length
                    let bytes = contentRange?.range ?? (length > 0 ? 0...(length - 1) : nil)
                    return ObjectStream(totalSize: total, range: bytes, contentType: header("content-type"), etag: header("etag"), body: response.body)
                }
                let body = Data(buffer: try await response.body.collect(upTo: 1 << 20))
                if status == 404 { return nil }
                let error = S3Error(
                    operation: operation, status: status, code: S3XML.firstValue(of: "Code", in: body) ?? "HTTP\(status)",
                    message: S3XML.firstValue(of: "Message", in: body) ?? "")
                guard status >= 500 || status == 429, attempt < maximumAttempts else { throw error }
            } catch let error as S3Error {
                throw error
            } catch {
                if let failure = Self.finalNetworkFailure(error, attempt: attempt, of: maximumAttempts, operation: operation) { throw failure }
            }
            try await Task.sleep(for: .milliseconds(100 << min(attempt, 6)))
        }
    }

    /// `bytes FIRST-LAST/TOTAL` as sent with a 206.
    static func parseContentRange(_ value: String) -> (range: ClosedRange<Int>, total: Int)? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("bytes ") else { return nil }
        let parts = trimmed.dropFirst("bytes ".count).split(separator: "/")
        guard parts.count == 2, let total = Int(parts[1]) else { return nil }
        let bounds = parts[0].split(separator: "-")
        guard bounds.count == 2, let first = Int(bounds[0]), let last = Int(bounds[1]), first <= last else { return nil }
        return (first...last, total)
    }
}
