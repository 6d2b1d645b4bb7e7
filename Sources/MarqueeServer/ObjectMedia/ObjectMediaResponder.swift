import Foundation
import Hummingbird
import Library
import NIOCore

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
            // The usual case (a whole segment): one request to the store.
            guard let contents = try await media.read(path, of: assetID, range: nil) else { throw APIError(.notFound, "No such file") }
            if let eTag = contents.eTag { headers[.eTag] = eTag }
            headers[.contentLength] = String(contents.data.count)
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(data: contents.data)))
        }
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
            guard let contents = try await media.read(path, of: assetID, range: bytes) else { throw APIError(.notFound, "No such file") }
            headers[.contentRange] = "bytes \(bytes.lowerBound)-\(bytes.upperBound)/\(info.size)"
            headers[.contentLength] = String(contents.data.count)
            return Response(status: .partialContent, headers: headers, body: .init(byteBuffer: ByteBuffer(data: contents.data)))
        case .whole:
            guard let contents = try await media.read(path, of: assetID, range: nil) else { throw APIError(.notFound, "No such file") }
            headers[.contentLength] = String(contents.data.count)
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(data: contents.data)))
        }
    }
}
