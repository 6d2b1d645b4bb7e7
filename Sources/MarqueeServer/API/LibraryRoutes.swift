import Foundation
import Hummingbird
import Library

/// `/api/assets`, `/api/jobs` and `/api/settings/player`: the library over REST.
struct LibraryRoutes: Sendable {
    let library: MediaLibrary
    let manifests: PlaybackManifestStore

    func register(on router: Router<MarqueeRequestContext>) {
        let api = router.group("api")
        api.get("assets", use: assets)
        api.post("assets", use: add)
        api.get("assets/{id}", use: assetResource)
        api.delete("assets/{id}", use: delete)
        api.get("assets/{id}/metadata", use: metadata)
        api.put("assets/{id}/metadata", use: setMetadata)
        api.get("assets/{id}/manifest.json", use: manifest)
        api.get("jobs", use: jobs)
        api.get("jobs/{id}", use: job)
        api.post("jobs/{id}/retry", use: retry)
        api.get("settings/player", use: playerSettings)
        api.put("settings/player", use: setPlayerSettings)
    }

    /// `GET /api/assets?q=&role=`: every asset, or those matching a search and a role.
    @Sendable func assets(_ request: Request, context: MarqueeRequestContext) async throws -> AssetList {
        let query = request.uri.queryParameters.get("q")
        let role = request.uri.queryParameters.get("role")
        if let role, Asset.Role(rawValue: role) == nil {
            throw APIError(.badRequest, "\"role\" must be feature or interstitial")
        }
        var assets = try await library.assets(matching: query)
        if let role { assets = assets.filter { $0.role.rawValue == role } }
        return AssetList(assets: try await resources(for: assets, viewer: context.viewerKey))
    }

    /// `POST /api/assets`: files or folders on the server's disk added to the library (202).
    @Sendable func add(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        let body = try await request.decode(as: AddAssetsRequest.self, context: context)
        guard !body.paths.isEmpty else { throw APIError(.badRequest, "Give at least one path in \"paths\"") }
        let added = try await library.add(paths: body.paths)
        return try AssetList(assets: try await resources(for: added, viewer: context.viewerKey)).response(from: request, context: context).with(
            status: .accepted)
    }

    /// `GET /api/assets/{id}`: one asset as the library page shows it.
    @Sendable func assetResource(_ request: Request, context: MarqueeRequestContext) async throws -> AssetResource {
        try await resource(for: try await asset(context), viewer: context.viewerKey)
    }

    /// `DELETE /api/assets/{id}[?permanently=true]`: moves the asset to the trash (restorable
    /// with `POST …/restore` for `trashRetention`), or deletes it at once.
    @Sendable func delete(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        let id = try context.parameters.require("id")
        if try Self.permanently(request) {
            try await library.delete(assetID: id)
        } else {
            try await library.trash(assetID: id)
        }
        return Response(status: .noContent)
    }

    /// `?permanently=`: a boolean, as openapi.json says — `true` or `false` (absent: false), nothing else.
    static func permanently(_ request: Request) throws -> Bool {
        switch request.uri.queryParameters.get("permanently") {
        case nil, "false": false
        case "true": true
        case let other?: throw APIError(.badRequest, "\"permanently\" must be true or false, not \"\(other.prefix(64))\"")
        }
    }

    /// `GET /api/assets/{id}/metadata`: the person's edits over what the file says.
    @Sendable func metadata(_ request: Request, context: MarqueeRequestContext) async throws -> MetadataOverrideResource {
        let asset = try await asset(context)
        return MetadataOverrideResource(try await library.override(for: asset.id), assetID: asset.id)
    }

    /// `PUT /api/assets/{id}/metadata`: replaces the person's edits; answers the asset as shown.
    @Sendable func setMetadata(_ request: Request, context: MarqueeRequestContext) async throws -> AssetResource {
        let asset = try await asset(context)
        let body = try await request.decode(as: MetadataOverrideRequest.self, context: context)
        try await library.setOverride(try body.override(for: asset.id))
        return try await resource(for: asset, viewer: context.viewerKey)
    }

    /// `GET /api/assets/{id}/manifest.json`: what a player needs to play the asset (short-lived cache).
    @Sendable func manifest(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        let asset = try await manifests.playableAsset(id: try context.parameters.require("id"))
        let manifest = try await manifests.manifest(for: asset)
        var response = try context.responseEncoder.encode(manifest, from: request, context: context)
        response.headers[.cacheControl] = ServedFileKind.shortLived
        return response
    }

    /// `GET /api/jobs?asset=`: ingest jobs, with paths a client must not see taken out.
    @Sendable func jobs(_ request: Request, context: MarqueeRequestContext) async throws -> JobList {
        JobList(jobs: try await library.jobs(assetID: request.uri.queryParameters.get("asset")).map(\.redactedForRequest))
    }

    /// `GET /api/jobs/{id}`: one ingest job.
    @Sendable func job(_ request: Request, context: MarqueeRequestContext) async throws -> IngestJob {
        let id = try context.parameters.require("id", as: Int64.self)
        guard let job = try await library.job(id: id) else { throw LibraryError.jobNotFound(id) }
        return job.redactedForRequest
    }

    /// `POST /api/jobs/{id}/retry`: a failed job queued again (202); the worker is woken.
    @Sendable func retry(_ request: Request, context: MarqueeRequestContext) async throws -> Response {
        let job = try await library.retry(jobID: try context.parameters.require("id", as: Int64.self))
        await library.worker.wake()
        return try job.response(from: request, context: context).with(status: .accepted)
    }

    /// `GET /api/settings/player`: speeds, skip intervals and the other player defaults.
    @Sendable func playerSettings(_ request: Request, context: MarqueeRequestContext) async throws -> PlayerSettings {
        try await library.playerSettings()
    }

    /// `PUT /api/settings/player`: replaces the player defaults (validated by `PlayerSettings`).
    @Sendable func setPlayerSettings(_ request: Request, context: MarqueeRequestContext) async throws -> PlayerSettings {
        let settings = try await request.decode(as: PlayerSettings.self, context: context)
        try await library.setPlayerSettings(settings)
        return settings
    }

    func asset(_ context: MarqueeRequestContext) async throws -> Asset {
        let id = try context.parameters.require("id")
        guard let asset = try await library.asset(id: id) else { throw LibraryError.assetNotFound(id) }
        return asset
    }

    func resource(for asset: Asset, viewer: String?) async throws -> AssetResource {
        try await AssetResource.make(asset, library: library, viewer: viewer)
    }

    func resources(for assets: [Asset], viewer: String?) async throws -> [AssetResource] {
        let overrides = try await library.overrides(for: assets.map(\.id))
        let posters = try await library.posterPaths(for: assets)
        let shown = assets.map { $0.displayed(with: overrides[$0.id], defaultArtworkURL: posters[$0.id]) }
        return try await AssetResource.make(shown, library: library, viewer: viewer)
    }
}

extension Response {
    func with(status: HTTPResponse.Status) -> Response {
        var copy = self
        copy.status = status
        return copy
    }
}
