public import Accounts
import Foundation
import Playback

/// Guests (issue 28): a person without an account who follows an invitation link on a server
/// that requires sign-in gets a `GuestPass` for that group, and nothing else. A pass lasts as
/// long as its invitation: withdrawing the invitations ends the passes they gave, and closes
/// those guests' players.
extension PlaybackSessions {
    /// The most passes one session keeps: past it the oldest pass nobody joined with goes (a
    /// link opened again and again costs memory once per group, not per visit).
    static let guestPassesPerSession = 64

    /// A new pass for the group invitation `token` leads to, or nil when it is not valid.
    public func admitGuest(token: String) -> GuestPass? {
        guard let invitation = invitation(token), let entry = entries[invitation.sessionID] else { return nil }
        let pass = GuestPass(
            secret: Self.randomSecret(), invitationToken: token, sessionID: invitation.sessionID, assetID: entry.session.assetID,
            expires: invitation.expires)
        let ofSession = guestPasses.values.filter { $0.sessionID == pass.sessionID }
        if ofSession.count >= Self.guestPassesPerSession,
            let oldest = ofSession.filter({ $0.participantID == nil }).min(by: { $0.expires < $1.expires })
                ?? ofSession.min(by: { $0.expires < $1.expires })
        {
            guestPasses[oldest.secret] = nil
        }
        guestPasses[pass.secret] = pass
        return pass
    }

    /// The pass with `secret` while it is valid (its invitation unexpired and not withdrawn,
    /// its session live), with the assets the group's breaks play.
    public func guestPass(_ secret: String) -> GuestPass? {
        guard var pass = guestPasses[secret] else { return nil }
        guard invitation(pass.invitationToken) != nil, let entry = entries[pass.sessionID] else {
            guestPasses[secret] = nil
            return nil
        }
        pass.adAssetIDs = Self.mediaAssets(of: entry.session)
        return pass
    }

    /// Records that the guest holding `secret` joined as `participantID` (a reload joins again).
    func guestJoined(_ secret: String, as participantID: String) {
        guestPasses[secret]?.participantID = participantID
    }

    /// Ends the passes that invitations `tokens` gave and lets go of those guests' players.
    func endGuestPasses(from tokens: Set<String>) {
        let ended = guestPasses.values.filter { tokens.contains($0.invitationToken) }
        for pass in ended {
            guestPasses[pass.secret] = nil
            guard let participantID = pass.participantID, let entry = entries[pass.sessionID] else { continue }
            for (rendererID, link) in entry.renderers where link.participantID == participantID {
                detachRenderer(rendererID, from: pass.sessionID)
            }
        }
    }

    /// The library assets whose files `session`'s breaks play: the `/media/<asset>/…` URLs of
    /// its events. (Not the assets of lists a renderer reported: a guest's own page could name
    /// any file there. A listed library ad is an interstitial asset, which `GuestScope` allows.)
    static func mediaAssets(of session: PlaybackSession) -> Set<String> {
        let urls = session.schedule.events.flatMap { [$0.url, $0.assetListURL].compactMap { $0 } }
        var assets: Set<String> = []
        for url in urls {
            let path = URLComponents(string: url)?.path ?? url
            let segments = path.split(separator: "/")
            if segments.count >= 3, segments[0] == "media" { assets.insert(String(segments[1])) }
        }
        return assets
    }

    static func randomSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<24).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
