public import Crypto
public import Foundation

/// The provider authentication token APNs wants in `authorization: bearer …`: an ES256 JWT
/// whose header names the key (`kid`) and whose claims name the team (`iss`) and the time it
/// was issued (`iat`), signed with the team's P-256 key.
///
/// Signed with swift-crypto directly: ES256 is one P-256 signature over
/// `base64url(header).base64url(claims)` in the raw r‖s form, which does not justify
/// another dependency (jwt-kit) for the one token type APNs accepts.
public struct ProviderToken: Sendable, Hashable {
    /// The JWT, as it goes after `bearer `.
    public let value: String
    /// The `iat` claim: when the token was issued, to the whole second.
    public let issuedAt: Date

    /// Signs a token for `keyID` and `teamID` with `key`; throws when signing fails.
    public init(keyID: String, teamID: String, key: P256.Signing.PrivateKey, issuedAt: Date) throws {
        let iat = Int(issuedAt.timeIntervalSince1970)
        let header = #"{"alg":"ES256","kid":"\#(JSONText.escaped(keyID))"}"#
        let claims = #"{"iss":"\#(JSONText.escaped(teamID))","iat":\#(iat)}"#
        let signingInput = Self.base64URL(Data(header.utf8)) + "." + Self.base64URL(Data(claims.utf8))
        let signature = try key.signature(for: Data(signingInput.utf8))
        value = signingInput + "." + Self.base64URL(signature.rawRepresentation)
        self.issuedAt = Date(timeIntervalSince1970: TimeInterval(iat))
    }

    /// `data` in base64url without padding, as JWTs encode their parts.
    public static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

/// Keeps one provider token and signs a new one only when it is `lifetime` old (APNs refuses
/// tokens older than an hour and answers TooManyProviderTokenUpdates to ones renewed more
/// often than every 20 minutes), or when APNs said the current one expired.
struct ProviderTokenCache: Sendable {
    let keyID: String
    let teamID: String
    let keyBytes: Data
    let lifetime: TimeInterval
    private(set) var current: ProviderToken?
    private(set) var signedCount = 0

    init(keyID: String, teamID: String, key: P256.Signing.PrivateKey, lifetime: TimeInterval) {
        self.keyID = keyID
        self.teamID = teamID
        self.keyBytes = key.rawRepresentation
        self.lifetime = lifetime
    }

    mutating func token(now: Date) throws -> ProviderToken {
        if let current, now.timeIntervalSince(current.issuedAt) < lifetime, now >= current.issuedAt.addingTimeInterval(-60) {
            return current
        }
        return try renew(now: now)
    }

    /// APNs refuses a provider that updates its token more often than this
    /// (TooManyProviderTokenUpdates).
    static let leastTimeBetweenUpdates: TimeInterval = 20 * 60
    /// When APNs was last given a new token before the old one's lifetime ended, and until
    /// when no new one may be signed (after TooManyProviderTokenUpdates).
    private(set) var lastEarlyUpdate: Date?
    private(set) var updatesHeldUntil: Date?

    /// Signs a new token after APNs said `stale` expired, unless another push already
    /// renewed it, or a token was renewed early less than 20 minutes ago (APNs allows no
    /// more): nil then, and the push keeps its answer.
    mutating func rotate(replacing stale: ProviderToken, now: Date) throws -> ProviderToken? {
        if let current, current != stale { return current }
        if let lastEarlyUpdate, now.timeIntervalSince(lastEarlyUpdate) < Self.leastTimeBetweenUpdates { return nil }
        if let updatesHeldUntil, now < updatesHeldUntil { return nil }
        lastEarlyUpdate = now
        return try renew(now: now)
    }

    /// APNs answered TooManyProviderTokenUpdates: a provider-wide condition, so no token is
    /// renewed early for 20 minutes.
    mutating func holdUpdates(now: Date) {
        updatesHeldUntil = now.addingTimeInterval(Self.leastTimeBetweenUpdates)
        lastEarlyUpdate = now
    }

    private mutating func renew(now: Date) throws -> ProviderToken {
        let key = try P256.Signing.PrivateKey(rawRepresentation: keyBytes)
        let token = try ProviderToken(keyID: keyID, teamID: teamID, key: key, issuedAt: now)
        current = token
        signedCount += 1
        return token
    }
}
