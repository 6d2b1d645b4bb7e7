import Foundation
public import Hummingbird
import Library
import NIOCore
import ServiceLifecycle

/// `/downloads` (the page) and `/api/downloads/…`: inspect a stream, check a predicate,
/// queue, pause, resume, cancel, retry and delete downloads, follow them over Server-Sent
/// Events, and the files of a download under way for a player (waiting for a segment that
/// has not arrived yet instead of failing).
struct DownloadRoutes: Sendable {
    let service: DownloadService
    /// The web app's pages.
    let pages: WebPages
    let responder: MediaFileResponder
    /// How long a request for a file not downloaded yet waits for it.
    var fileWait: Duration = .seconds(120)

    struct InspectRequest: Decodable { var url: String }
    struct ValidateRequest: Decodable {
        var predicate: String
        /// An inspected stream's URL: the answer then says which variant the predicate picks.
        var url: String?
    }

    struct DownloadList: ResponseEncodable {
        var downloads: [DownloadSnapshot]
        var diskUsage: Int64
    }

    func register(on router: Router<MarqueeRequestContext>) {
        router.get("downloads", use: page)
        let api = router.group("api/downloads")
        api.post("inspect", use: inspect)
        api.post("validate", use: validate)
        api.get(use: list)
        api.post(use: enqueue)
        api.get("events") { _, _ -> Response in events() }
        api.get("{id}", use: download)
        api.delete("{id}", use: delete)
        api.post("{id}/pause", use: pause)
        api.post("{id}/resume", use: resume)
        api.post("{id}/cancel", use: cancel)
        api.post("{id}/retry", use: retry)
        api.get("{id}/files/**", use: file)
        api.head("{id}/files/**", use: file)
    }

    @Sendable func page(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        try await pages.page("downloads.html", request: request, context: context)
    }

    /// `POST /api/downloads/inspect`: every variant and rendition of a stream.
    @Sendable func inspect(_ request: Request, context: MarqueeRequestContext) async throws -> StreamInspection {
        let body = try await request.decode(as: InspectRequest.self, context: context)
        return try await service.inspect(body.url)
    }

    /// `POST /api/downloads/validate`: whether a predicate parses, and what it picks.
    @Sendable func validate(_ request: Request, context: MarqueeRequestContext) async throws -> PredicateCheck {
        let body = try await request.decode(as: ValidateRequest.self, context: context)
        return await service.check(predicate: body.predicate, against: body.url)
    }

    @Sendable func list(_ request: Request, context: MarqueeRequestContext) async throws -> DownloadList {
        let (downloads, usage) = await service.list()
        return DownloadList(downloads: downloads, diskUsage: usage)
    }

    /// `POST /api/downloads`: `202` with the queued download.
    @Sendable func enqueue(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        let body = try await request.decode(as: DownloadRequest.self, context: context)
        let created = try await service.enqueue(body)
        return try created.response(from: request, context: context).with(status: .accepted)
    }

    @Sendable func download(_ request: Request, context: MarqueeRequestContext) async throws -> DownloadSnapshot {
        try await service.download(try context.parameters.require("id"))
    }

    @Sendable func delete(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        try await service.delete(try context.parameters.require("id"))
        return Response(status: .noContent)
    }

    @Sendable func pause(_ request: Request, context: MarqueeRequestContext) async throws -> DownloadSnapshot {
        try await service.pause(try context.parameters.require("id"))
    }

    @Sendable func resume(_ request: Request, context: MarqueeRequestContext) async throws -> DownloadSnapshot {
        try await service.resume(try context.parameters.require("id"))
    }

    @Sendable func cancel(_ request: Request, context: MarqueeRequestContext) async throws -> DownloadSnapshot {
        try await service.cancel(try context.parameters.require("id"))
    }

    @Sendable func retry(_ request: Request, context: MarqueeRequestContext) async throws -> DownloadSnapshot {
        try await service.retry(try context.parameters.require("id"))
    }

    /// A file of the download's bundle; one not downloaded yet is waited for while the
    /// download may still bring it.
    @Sendable func file(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        let id = try context.parameters.require("id")
        let raw = context.parameters.getCatchAll().joined(separator: "/")
        let rest = raw.removingPercentEncoding ?? raw
        let parts = rest.split(separator: "/").map(String.init)
        guard !parts.isEmpty, parts.allSatisfy({ $0 != "." && $0 != ".." && !$0.contains("\\") && !$0.contains("\0") && !$0.hasPrefix(".") })
        else { throw APIError(.notFound, "No such file") }
        let deadline = ContinuousClock.now + fileWait
        while true {
            switch await service.file(parts.joined(separator: "/"), of: id) {
            case .present(let url):
                return try await responder.respond(
                    key: "download/\(id)/\(rest)", request: request, context: context,
                    kind: ServedFileKind.forExtension((rest as NSString).pathExtension)
                ) { url }
            case .gone(let message):
                throw APIError(.notFound, message)
            case .pending:
                guard ContinuousClock.now < deadline else {
                    throw APIError(.serviceUnavailable, "This part has not been downloaded yet", headers: [.retryAfter: "5"])
                }
                try await Task.sleep(for: .milliseconds(200))
            }
        }
    }

    /// `text/event-stream`: the whole list first (`downloads`), then each change (`download`)
    /// and removal (`removed`), with a comment every 15 s to keep the connection open.
    func events() -> Response {
        let service = service
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return EventStream<DownloadEvent>(
            buffer: 512,
            subscribe: { await service.events() },
            opening: {
                let (downloads, usage) = await service.list()
                return try EventStream<DownloadEvent>.frame("downloads", DownloadList(downloads: downloads, diskUsage: usage), encoder: encoder)
            },
            render: { event in
                switch event {
                case .changed(let snapshot, let usage):
                    try EventStream<DownloadEvent>.frame("download", ChangedFrame(download: snapshot, diskUsage: usage), encoder: encoder)
                case .removed(let id, let usage):
                    try EventStream<DownloadEvent>.frame("removed", RemovedFrame(id: id, diskUsage: usage), encoder: encoder)
                }
            }
        ).response
    }

    struct ChangedFrame: Encodable {
        var download: DownloadSnapshot
        var diskUsage: Int64
    }
    struct RemovedFrame: Encodable {
        var id: String
        var diskUsage: Int64
    }
}

extension DownloadSnapshot: ResponseEncodable {}
extension StreamInspection: ResponseEncodable {}
extension PredicateCheck: ResponseEncodable {}
