import Accounts
import Foundation
public import Hummingbird
public import Library

/// `/api/assets/{id}/interstitials`: list, add, change and delete an asset's interstitial
/// events (its ad breaks), and the asset list served for each. Writes are the owner's
/// (`AccessRules`); bad events are refused with a 4xx JSON error that says why.
struct InterstitialRoutes: Sendable {
    let library: MediaLibrary
    /// Open sessions of the asset hear of every change (their timeline marks update).
    var sessions: PlaybackSessions? = nil

    struct EventList: ResponseEncodable, Decodable, Sendable {
        var events: [AuthoredInterstitial]
        /// Whether the person asking may change the breaks (the page shows its editor only then).
        var mayEdit: Bool
    }

    /// Whether the requester may add, change and delete breaks: an owner, or anyone on a
    /// server without sign-in; never a guest of a watch-together group.
    static func mayEdit(_ context: MarqueeRequestContext) -> Bool {
        if context.guest != nil { return false }
        guard let principal = context.principal else { return true }  // signed-in rules are off (AccessMiddleware let it through)
        return Permission.manage.allows(principal.role)
    }

    func register(on router: Router<MarqueeRequestContext>) {
        let api = router.group("api")
        api.get("assets/{id}/interstitials") { _, context -> EventList in
            let asset = try await primary(context)
            return EventList(events: try await library.authoredInterstitials(for: asset.id), mayEdit: Self.mayEdit(context))
        }
        api.post("assets/{id}/interstitials") { request, context -> Response in
            let asset = try await primary(context)
            var event = try await request.decode(as: AuthoredInterstitial.self, context: context)
            event.assetID = asset.id
            let saved = try await save(event, for: asset, replacing: false)
            return try saved.response(from: request, context: context).with(status: .created)
        }
        api.put("assets/{id}/interstitials/{event}") { request, context -> AuthoredInterstitial in
            let asset = try await primary(context)
            var event = try await request.decode(as: AuthoredInterstitial.self, context: context)
            event.assetID = asset.id
            event.id = try context.parameters.require("event")
            return try await save(event, for: asset, replacing: true)
        }
        api.delete("assets/{id}/interstitials/{event}") { _, context -> Response in
            let asset = try await primary(context)
            try await library.deleteAuthoredInterstitial(id: try context.parameters.require("event"), assetID: asset.id)
            await publish(asset.id)
            return Response(status: .noContent)
        }
        api.get("assets/{id}/interstitials/{event}/asset-list.json") { _, context -> InterstitialAssetList in
            let asset = try await primary(context)
            let id = try context.parameters.require("event")
            guard let event = try await library.authoredInterstitials(for: asset.id).first(where: { $0.id == id }) else {
                throw InterstitialValidationError.notFound(id)
            }
            guard let uri = event.hlsAssetURI else {
                throw APIError(.notFound, "Interstitial event \(id) plays an asset list of its own: \(event.content.assetList ?? "")")
            }
            return InterstitialAssetList(assets: [.init(uri: uri, duration: event.playedDuration ?? 0)])
        }
    }

    func primary(_ context: MarqueeRequestContext) async throws -> Asset {
        let id = try context.parameters.require("id")
        guard let asset = try await library.asset(id: id) else { throw LibraryError.assetNotFound(id) }
        return asset
    }

    func save(_ event: AuthoredInterstitial, for primary: Asset, replacing: Bool) async throws -> AuthoredInterstitial {
        // The ad is looked up before the write; the store's closure then checks it with the rest.
        let ad: Asset? = if let id = event.content.assetID, id.count <= 200 { try await library.asset(id: id) } else { nil }
        let saved = try await library.saveAuthoredInterstitial(event, replacing: replacing) { event, others in
            try InterstitialValidation.validated(event, primary: primary, ad: ad, others: others)
        }
        await publish(primary.id)
        return saved
    }

    func publish(_ assetID: String) async {
        guard let sessions, let events = try? await SessionInterstitials(library: library).events(for: assetID) else { return }
        await sessions.setInterstitialEvents(events, forAsset: assetID)
    }
}

extension AuthoredInterstitial: ResponseEncodable {}
extension InterstitialAssetList: ResponseEncodable {}
