import Foundation
import Hummingbird
import Library
import NIOCore
import NIOFoundationCompat

/// Answers `/media/{asset}/…` when the media are not files on this machine (object storage):
/// streamed through the server with the same content types, caching headers, ETags and byte
/// ranges as files from the media folder, or sent by redirect to the store's direct URL
/// (presigned, or a CDN) when it gives one.
///
/// Playlists are always streamed through the server: their relative URIs must resolve
/// against `/media/…`, and interstitials are written into them before this is reached.
struct ObjectMediaResponder: Sendable {
    let media: any MediaStore

    /// How long a client may keep a redirect: well inside a presigned URL's life.
    static let redirectCaching = "private, max-age=300"

    func respond(assetID: String, path: String, request: Request) async throws -> Response {
        guard MediaPath.components(path, assetID: assetID) != nil else { throw APIError(.notFound, "No such file") }
        let fileExtension = (path as NSString).pathExtension
        let kind = ServedFileKind.forExtension(fileExtension)
        if fileExtension.lowercased() != "m3u8", let direct = media.directURL(for: path, of: assetID) {
            var headers = HTTPFields()
            headers[.location] = direct.absoluteString
            headers[.cacheControl] = Self.redirectCaching
            return Response(status: .found, headers: headers)
        }
        var headers = HTTPFields()
        headers[.contentType] = kind.contentType
        headers[.cacheControl] = kind.cacheControl
        headers[.acceptRanges] = "bytes"
        let wantsRange = request.headers[.range] != nil && request.method != .head
        if !wantsRange, request.method != .head, request.headers[.ifNoneMatch] == nil {
            // The usual case (a whole segment): one request to the store, streamed through.
            guard let stream = try await media.stream(path, of: assetID, range: nil, ifMatch: nil) else { throw APIError(.notFound, "No such file") }
            if let eTag = stream.eTag { headers[.eTag] = eTag }
            return Self.streamed(stream, status: .ok, headers: headers)
        }
        return try await Self.sameFile { try await validated(assetID: assetID, path: path, request: request, headers: headers) }
    }

    /// Reads what a conditional or ranged request needs — the file's size and validator, then
    /// the bytes of that same version (`If-Match` to the store) — again if the file was
    /// replaced in between (a re-publish); a file replaced twice in a row gets a 503 the client
    /// may retry.
    static func sameFile(_ answer: () async throws -> Response) async throws -> Response {
        do {
            return try await answer()
        } catch is MediaFileChanged {
            do {
                return try await answer()
            } catch let changed as MediaFileChanged {
                throw APIError(.serviceUnavailable, "\(changed); try again", headers: [.retryAfter: "1"])
            }
        }
    }

    /// The answer to a ranged, conditional or HEAD request, from the file's current validator.
    private func validated(assetID: String, path: String, request: Request, headers: HTTPFields) async throws -> Response {
        var headers = headers
        guard let info = try await media.info(path, of: assetID) else { throw APIError(.notFound, "No such file") }
        if let eTag = info.eTag { headers[.eTag] = eTag }
        if let match = request.headers[.ifNoneMatch], match == info.eTag || match == "*" {
            return Response(status: .notModified, headers: headers)
        }
        if request.method == .head {
            headers[.contentLength] = String(info.size)
            return Response(status: .ok, headers: headers)
        }
        var range = ByteRangeRequest(header: request.headers[.range], size: info.size)
        if let ifRange = request.headers[.ifRange], ifRange != info.eTag { range = .whole }
        switch range {
        case .unsatisfiable:
            throw APIError(
                .rangeNotSatisfiable, "Range not satisfiable for a file of \(info.size) bytes",
                headers: [.contentRange: "bytes */\(info.size)"])
        case .partial(let bytes):
            // The client's range goes to the store as a ranged GET, on the object `info` described.
            guard let stream = try await media.stream(path, of: assetID, range: bytes, ifMatch: info.eTag) else {
                throw APIError(.notFound, "No such file")
            }
            let sent = stream.range ?? bytes
            headers[.contentRange] = "bytes \(sent.lowerBound)-\(sent.upperBound)/\(stream.totalSize)"
            return Self.streamed(stream, status: .partialContent, headers: headers)
        case .whole:
            guard let stream = try await media.stream(path, of: assetID, range: nil, ifMatch: info.eTag) else {
                throw APIError(.notFound, "No such file")
            }
            return Self.streamed(stream, status: .ok, headers: headers)
        }
    }

    /// A response whose body is copied from the store as the client reads it: a chunk is
    /// asked for only after the previous one was written, so a slow client slows the read
    /// from the store instead of the node buffering the file.
    static func streamed(_ stream: MediaFileStream, status: HTTPResponse.Status, headers: HTTPFields) -> Response {
        var headers = headers
        let length = stream.range.map { $0.count } ?? 0
        headers[.contentLength] = String(length)
        let chunks = stream.chunks
        return Response(
            status: status, headers: headers,
            body: ResponseBody(contentLength: length) { writer in
                for try await chunk in chunks {
                    try await writer.write(ByteBuffer(data: chunk))
                }
                try await writer.finish(nil)
            })
    }
}
