public import Foundation

/// A person without an account who followed an invitation to watch together, on a server that
/// requires sign-in: their browser holds the pass's secret (a cookie), and the pass lets them
/// watch that one group — its player page, its item's media and the ads its breaks play, its
/// session's socket and intents — and nothing else. It ends when the invitation it came from
/// expires or is withdrawn, or the session ends.
public struct GuestPass: Sendable, Hashable {
    /// The cookie's value (random, 192 bits).
    public var secret: String
    /// The invitation link it came from.
    public var invitationToken: String
    /// The group's playback session.
    public var sessionID: String
    /// The item the group watches.
    public var assetID: String
    /// The guest's place in the group once they joined (nil before).
    public var participantID: String?
    /// When it stops working: the invitation's expiry.
    public var expires: Date
    /// Assets whose media files the guest may read besides `assetID`: those the group's breaks
    /// play (found by the sessions when the pass is looked up).
    public var adAssetIDs: Set<String>

    /// A pass with the given fields.
    public init(
        secret: String, invitationToken: String, sessionID: String, assetID: String, participantID: String? = nil, expires: Date,
        adAssetIDs: Set<String> = []
    ) {
        self.secret = secret
        self.invitationToken = invitationToken
        self.sessionID = sessionID
        self.assetID = assetID
        self.participantID = participantID
        self.expires = expires
        self.adAssetIDs = adAssetIDs
    }

    /// The cookie that carries a guest pass.
    public static let cookieName = "marquee_guest"
}
