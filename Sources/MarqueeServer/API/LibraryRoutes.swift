import Foundation
import Hummingbird
import Library

/// `/api/assets`, `/api/jobs` and `/api/settings/player`: the library over REST.
struct LibraryRoutes: Sendable {
    let library: MediaLibrary
    let manifests: PlaybackManifestStore

    func register(on router: Router<MarqueeRequestContext>) {
        let api = router.group("api")
        api.get("assets") { request, _ -> AssetList in
            let query = request.uri.queryParameters.get("q")
            let role = request.uri.queryParameters.get("role")
            if let role, Asset.Role(rawValue: role) == nil {
                throw APIError(.badRequest, "\"role\" must be feature or interstitial")
            }
            var assets = try await library.assets(matching: query)
            if let role { assets = assets.filter { $0.role.rawValue == role } }
            return AssetList(assets: try await resources(for: assets))
        }
        api.post("assets") { request, context -> Response in
            let body = try await request.decode(as: AddAssetsRequest.self, context: context)
            guard !body.paths.isEmpty else { throw APIError(.badRequest, "Give at least one path in \"paths\"") }
            let added = try await library.add(paths: body.paths)
            return try AssetList(assets: try await resources(for: added)).response(from: request, context: context).with(status: .accepted)
        }
        api.get("assets/{id}") { _, context -> AssetResource in
            try await resource(for: try await asset(context))
        }
        // Moves the asset to the trash (restorable with POST …/restore for `trashRetention`);
        // `?permanently=true` deletes it at once.
        api.delete("assets/{id}") { request, context -> Response in
            let id = try context.parameters.require("id")
            // A boolean, as openapi.json says: `true` or `false` (absent: false), nothing else.
            let permanently: Bool
            switch request.uri.queryParameters.get("permanently") {
            case nil, "false": permanently = false
            case "true": permanently = true
            case let other?: throw APIError(.badRequest, "\"permanently\" must be true or false, not \"\(other.prefix(64))\"")
            }
            if permanently {
                try await library.delete(assetID: id)
            } else {
                try await library.trash(assetID: id)
            }
            return Response(status: .noContent)
        }
        api.get("assets/{id}/metadata") { _, context -> MetadataOverrideResource in
            let asset = try await asset(context)
            return MetadataOverrideResource(try await library.override(for: asset.id), assetID: asset.id)
        }
        api.put("assets/{id}/metadata") { request, context -> AssetResource in
            let asset = try await asset(context)
            let body = try await request.decode(as: MetadataOverrideRequest.self, context: context)
            try await library.setOverride(try body.override(for: asset.id))
            return try await resource(for: asset)
        }
        api.get("assets/{id}/manifest.json") { request, context -> Response in
            let asset = try await manifests.playableAsset(id: try context.parameters.require("id"))
            let manifest = try await manifests.manifest(for: asset)
            var response = try context.responseEncoder.encode(manifest, from: request, context: context)
            response.headers[.cacheControl] = ServedFileKind.shortLived
            return response
        }

        api.get("jobs") { request, _ -> JobList in
            JobList(jobs: try await library.jobs(assetID: request.uri.queryParameters.get("asset")).map(\.redactedForRequest))
        }
        api.get("jobs/{id}") { _, context -> IngestJob in
            let id = try context.parameters.require("id", as: Int64.self)
            guard let job = try await library.job(id: id) else { throw LibraryError.jobNotFound(id) }
            return job.redactedForRequest
        }
        api.post("jobs/{id}/retry") { request, context -> Response in
            let job = try await library.retry(jobID: try context.parameters.require("id", as: Int64.self))
            await library.worker.wake()
            return try job.response(from: request, context: context).with(status: .accepted)
        }

        api.get("settings/player") { _, _ -> PlayerSettings in
            try await library.playerSettings()
        }
        api.put("settings/player") { request, context -> PlayerSettings in
            let settings = try await request.decode(as: PlayerSettings.self, context: context)
            try await library.setPlayerSettings(settings)
            return settings
        }
    }

    func asset(_ context: MarqueeRequestContext) async throws -> Asset {
        let id = try context.parameters.require("id")
        guard let asset = try await library.asset(id: id) else { throw LibraryError.assetNotFound(id) }
        return asset
    }

    func resource(for asset: Asset) async throws -> AssetResource {
        try await AssetResource.make(asset, library: library)
    }

    func resources(for assets: [Asset]) async throws -> [AssetResource] {
        let overrides = try await library.overrides(for: assets.map(\.id))
        let posters = try await library.posterPaths(for: assets)
        let shown = assets.map { $0.displayed(with: overrides[$0.id], defaultArtworkURL: posters[$0.id]) }
        return try await AssetResource.make(shown, library: library)
    }
}

extension Response {
    func with(status: HTTPResponse.Status) -> Response {
        var copy = self
        copy.status = status
        return copy
    }
}
