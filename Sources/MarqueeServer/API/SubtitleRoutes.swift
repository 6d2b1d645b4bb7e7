import Foundation
import Hummingbird
import Library
import NIOCore

/// `/api/assets/{id}/subtitles`: subtitle files (SRT, WebVTT, ASS/SSA) added to an asset,
/// served as HLS subtitle renditions. Anyone who may browse lists them; adding and removing
/// them is editing the item (`manage`, as `AccessRules` says, like its metadata).
struct SubtitleRoutes: Sendable {
    let library: MediaLibrary

    func register(on router: Router<MarqueeRequestContext>) {
        let api = router.group("api")
        api.get("assets/{id}/subtitles", use: list)
        api.post("assets/{id}/subtitles", use: add)
        api.delete("assets/{id}/subtitles/{subtitle}", use: remove)
    }

    /// `GET /api/assets/{id}/subtitles`: the asset's added subtitle files, oldest first.
    @Sendable func list(_ request: Request, context: MarqueeRequestContext) async throws -> SubtitleFileList {
        let asset = try await asset(context)
        return SubtitleFileList(subtitles: try await library.subtitleFiles(for: asset.id).map(SubtitleFileResource.init))
    }

    /// `POST /api/assets/{id}/subtitles?language=&label=&forced=`: the file is the body, at
    /// most `SubtitleConversion.maximumBytes`; its format is read from its content (201).
    @Sendable func add(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        let asset = try await asset(context)
        let parameters = request.uri.queryParameters
        let forced: Bool
        switch parameters.get("forced") {
        case nil, "false": forced = false
        case "true": forced = true
        case let other?: throw APIError(.badRequest, "\"forced\" must be true or false, not \"\(other.prefix(64))\"")
        }
        let bytes: ByteBuffer
        do {
            bytes = try await request.body.collect(upTo: SubtitleConversion.maximumBytes)
        } catch {
            throw SubtitleFileError.tooLarge(limit: SubtitleConversion.maximumBytes)
        }
        guard bytes.readableBytes > 0 else { throw APIError(.badRequest, "The subtitle file is empty; send the file as the request body") }
        let file = try await library.addSubtitleFile(
            Data(bytes.readableBytesView), to: asset.id, language: parameters.get("language"), label: parameters.get("label"),
            isForced: forced)
        return try SubtitleFileResource(file).response(from: request, context: context).with(status: .created)
    }

    /// `DELETE /api/assets/{id}/subtitles/{subtitle}`: the file removed from the item (204).
    @Sendable func remove(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        let asset = try await asset(context)
        try await library.removeSubtitleFile(id: try context.parameters.require("subtitle"), from: asset.id)
        return Response(status: .noContent)
    }

    func asset(_ context: MarqueeRequestContext) async throws -> Asset {
        let id = try context.parameters.require("id")
        guard let asset = try await library.asset(id: id) else { throw LibraryError.assetNotFound(id) }
        return asset
    }
}

/// One added subtitle file as the API shows it (without its text: `url` serves it).
struct SubtitleFileResource: ResponseCodable {
    var id: String
    var language: String?
    var label: String
    /// The format it was added in: `srt`, `vtt`, `ass` or `ssa`.
    var format: String
    var forced: Bool
    var cueCount: Int
    /// The WebVTT the rendition serves (once the item is ready).
    var url: String
    var createdAt: Date

    init(_ file: SubtitleFile) {
        id = file.id
        language = file.language
        label = file.label
        format = file.format.rawValue
        forced = file.isForced
        cueCount = file.cueCount
        url = "/media/\(file.assetID)/\(file.webVTTPath)"
        createdAt = file.createdAt
    }
}

/// `GET /api/assets/{id}/subtitles`.
struct SubtitleFileList: ResponseCodable {
    var subtitles: [SubtitleFileResource]
}
