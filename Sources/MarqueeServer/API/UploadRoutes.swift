import Foundation
import Hummingbird
import Library
import NIOCore

/// `/api/uploads`: resumable, chunked uploads of media files from the web page.
///
/// `POST /api/uploads` starts one (`{"fileName", "length"}`) and answers its id; each
/// `PUT /api/uploads/{id}` carries the next bytes with `Content-Range: bytes start-end/total`
/// (or `?offset=start`), streamed to disk as they arrive; `HEAD` or `GET` tells a client that
/// lost its connection where to resume (`Upload-Offset`); `POST …/complete` adds the file to
/// the library and queues it for packaging; `DELETE` abandons it.
struct UploadRoutes: Sendable {
    let library: MediaLibrary

    struct CreateRequest: Decodable {
        var fileName: String
        var length: Int64?
        var role: String?
    }

    struct UploadResource: ResponseEncodable {
        var id: String
        var fileName: String
        var length: Int64?
        var offset: Int64
        var complete: Bool
        var url: String
        var createdAt: Date
        var updatedAt: Date

        init(_ upload: UploadStore.Upload) {
            id = upload.id
            fileName = upload.fileName
            length = upload.length
            offset = upload.offset
            complete = upload.isComplete
            url = "/api/uploads/\(upload.id)"
            createdAt = upload.createdAt
            updatedAt = upload.updatedAt
        }
    }

    func register(on router: Router<MarqueeRequestContext>) {
        let api = router.group("api")
        api.post("uploads", use: create)
        api.get("uploads/{id}", use: show)
        api.head("uploads/{id}", use: offset)
        api.put("uploads/{id}", use: append)
        api.post("uploads/{id}/complete", use: complete)
        api.delete("uploads/{id}", use: cancel)
    }

    /// `POST /api/uploads`: `201` with the new upload and its address in `Location`.
    @Sendable func create(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        let body = try await request.decode(as: CreateRequest.self, context: context)
        let role =
            try body.role.map { value in
                guard let role = Asset.Role(rawValue: value) else { throw APIError(.badRequest, "\"role\" must be feature or interstitial") }
                return role
            } ?? .feature
        let upload = try await library.uploads.create(fileName: body.fileName, length: body.length, role: role)
        var response = try respond(upload, request: request, context: context)
        response.status = .created
        response.headers[.location] = "/api/uploads/\(upload.id)"
        return response
    }

    @Sendable func show(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        try respond(try await library.uploads.upload(id: try context.parameters.require("id")), request: request, context: context)
    }

    /// `HEAD /api/uploads/{id}`: where to resume (`Upload-Offset`).
    @Sendable func offset(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        let upload = try await library.uploads.upload(id: try context.parameters.require("id"))
        return Response(status: .ok, headers: Self.offsetHeaders(upload))
    }

    /// `PUT /api/uploads/{id}`: the next bytes, placed by `Content-Range` or `?offset=`; with
    /// neither, the body starts at byte 0 (a whole file in one plain `PUT`), which an upload that
    /// already holds bytes refuses with `409` and its offset, as any misplaced chunk.
    @Sendable func append(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        let id = try context.parameters.require("id")
        // An upload that does not exist is the answer before anything about the chunk.
        _ = try await library.uploads.upload(id: id)
        let range: ChunkRange
        if let header = request.headers[.contentRange] {
            range = try ChunkRange.parse(contentRange: header)
        } else if let offset = request.uri.queryParameters.get("offset") {
            guard let start = Int64(offset), start >= 0 else { throw APIError(.badRequest, "\"offset\" must be a whole number of bytes") }
            range = ChunkRange(start: start)
        } else {
            range = ChunkRange(start: 0)
        }
        let upload = try await library.uploads.append(id: id, range: range, body: ByteChunks(body: request.body))
        return try respond(upload, request: request, context: context)
    }

    /// `POST /api/uploads/{id}/complete`: `202` with the asset it becomes (queued for packaging).
    @Sendable func complete(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        let asset = try await library.addUpload(id: try context.parameters.require("id"))
        let resource = try await AssetResource.make(asset, library: library, viewer: context.viewerKey)
        return try resource.response(from: request, context: context).with(status: .accepted)
    }

    @Sendable func cancel(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        try await library.uploads.cancel(id: try context.parameters.require("id"))
        return Response(status: .noContent)
    }

    func respond(_ upload: UploadStore.Upload, request: Request, context: MarqueeRequestContext) throws -> Response {
        var response = try UploadResource(upload).response(from: request, context: context)
        for field in Self.offsetHeaders(upload) { response.headers.append(field) }
        response.headers[.cacheControl] = "no-store"
        return response
    }

    static func offsetHeaders(_ upload: UploadStore.Upload) -> HTTPFields {
        var headers = HTTPFields()
        headers[UploadHeader.offset] = String(upload.offset)
        if let length = upload.length { headers[UploadHeader.length] = String(length) }
        headers[.cacheControl] = "no-store"
        return headers
    }
}

/// The headers a resuming client reads (as tus and the IETF resumable-upload draft name them).
enum UploadHeader {
    static let offset = HTTPFields.Element.Name("Upload-Offset")!
    static let length = HTTPFields.Element.Name("Upload-Length")!
}

/// A request body as byte arrays, for `UploadStore` (which knows nothing of NIO); each
/// buffer is copied once, as it arrives, and never gathered with the others.
struct ByteChunks: AsyncSequence, Sendable {
    typealias Element = [UInt8]
    let body: RequestBody

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: RequestBody.AsyncIterator

        mutating func next() async throws -> [UInt8]? {
            guard let buffer = try await base.next() else { return nil }
            return Array(buffer.readableBytesView)
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: body.makeAsyncIterator()) }
}
