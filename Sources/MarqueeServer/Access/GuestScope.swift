public import Accounts
import Foundation
public import HTTPTypes
import Hummingbird

/// What a `GuestPass` lets its holder do: the one table of the requests a guest invited to
/// watch together may make. Everything it does not name is refused, whatever `AccessRules`
/// would ask of an account.
///
/// `path` is the request's `CanonicalPath` text, as `AccessRules` reads it: route names are
/// compared without regard to letter case, identifiers (session, asset, token) exactly.
public enum GuestScope {
    /// What a guest's request may do.
    public enum Decision: Sendable, Equatable {
        case allowed
        case refused
        /// A media file of another asset: allowed only if the group's breaks play it or the
        /// library holds it as an interstitial (an ad, which any viewer is shown).
        case ifAdAsset(String)
    }

    public static func decide(_ pass: GuestPass, method: HTTPRequest.Method, path: String) -> Decision {
        let reads = method == .get || method == .head
        let segments = path.split(separator: "/", omittingEmptySubsequences: true).map { $0.removingPercentEncodingIfValid }
        guard let first = segments.first?.lowercased() else { return .refused }
        switch first {
        case "ui":
            // The player's scripts, styles and icons are the same for everyone.
            return reads ? .allowed : .refused
        case "favicon.ico":
            return reads ? .allowed : .refused
        case "watch":
            // The player page of the group's item only.
            return reads && segments.count == 2 && segments[1] == pass.assetID ? .allowed : .refused
        case "media":
            guard reads, segments.count >= 3 else { return .refused }
            if segments[1] == pass.assetID || pass.adAssetIDs.contains(segments[1]) { return .allowed }
            return .ifAdAsset(segments[1])
        case "together":
            return reads && segments.count == 2 ? .allowed : .refused
        case "api":
            return decideAPI(pass, method: method, segments: Array(segments.dropFirst()))
        default:
            return .refused
        }
    }

    private static func decideAPI(_ pass: GuestPass, method: HTTPRequest.Method, segments: [String]) -> Decision {
        let reads = method == .get || method == .head
        guard let area = segments.first?.lowercased() else { return .refused }
        let rest = Array(segments.dropFirst())
        switch area {
        case "sessions":
            // The group's session only: its state, its renderer socket, intents, and the ads
            // its breaks fetch through the server. Not ending it, not starting another group,
            // not minting or withdrawing invitations.
            guard rest.first == pass.sessionID else { return .refused }
            let tail = rest.dropFirst().map { $0.lowercased() }
            if tail.isEmpty { return reads ? .allowed : .refused }
            switch tail[0] {
            case "renderer", "interstitials": return reads ? .allowed : .refused
            case "intents": return method == .post && tail.count == 1 ? .allowed : .refused
            default: return .refused
            }
        case "together":
            // Joining, with the invitation the pass came from.
            return method == .post && rest.count == 2 && rest[0] == pass.invitationToken && rest[1].lowercased() == "join"
                ? .allowed : .refused
        case "assets":
            // What the player reads about the item: its manifest, Live Text, its breaks. Not
            // where an account got to (a guest has none), and nothing that changes it.
            guard reads, rest.first == pass.assetID else { return .refused }
            return rest.count >= 2 && rest[1].lowercased() == "position" ? .refused : .allowed
        case "settings":
            return reads && rest.count == 1 && rest[0].lowercased() == "player" ? .allowed : .refused
        default:
            return .refused
        }
    }
}

extension Substring {
    /// The segment with its percent escapes decoded (canonical paths escape bytes a path may
    /// not carry bare); as sent when it holds none.
    fileprivate var removingPercentEncodingIfValid: String {
        contains("%") ? (removingPercentEncoding ?? String(self)) : String(self)
    }
}

/// Where `AccessMiddleware` finds guest passes: the pass a request's cookie names (still
/// valid), and whether an asset is an ad any viewer may be shown.
public struct GuestPassLookup: Sendable {
    let find: @Sendable (String) async -> GuestPass?
    let isAdAsset: @Sendable (String) async -> Bool

    /// A lookup from `find` (a pass by its secret, nil when unknown or ended) and `isAdAsset`.
    public init(find: @escaping @Sendable (String) async -> GuestPass?, isAdAsset: @escaping @Sendable (String) async -> Bool) {
        self.find = find
        self.isAdAsset = isAdAsset
    }

    /// What the request's guest cookie names: nothing (no cookie), a pass, or a pass that ended.
    enum Found {
        case none
        case pass(GuestPass)
        case ended
    }

    func pass(in request: Request) async -> Found {
        guard let secret = HeaderValues.cookie(named: GuestPass.cookieName, in: request.headers[.cookie]), !secret.isEmpty else { return .none }
        guard let pass = await find(secret) else { return .ended }
        return .pass(pass)
    }

    func allows(_ pass: GuestPass, method: HTTPRequest.Method, path: String) async -> Bool {
        switch GuestScope.decide(pass, method: method, path: path) {
        case .allowed: true
        case .refused: false
        case .ifAdAsset(let assetID): await isAdAsset(assetID)
        }
    }
}
