public import Accounts
public import HTTPTypes

/// The one table of which permission each request needs. Anything not named here that
/// changes state needs `manage`; anything else that reads needs `browse`.
///
/// `path` is the request's `CanonicalPath` (the router reads the same text); route names are
/// compared without regard to letter case, as the router (`.caseInsensitive`) matches them.
public enum AccessRules {
    /// Files the sign-in page needs before anyone has signed in.
    static let publicFiles: Set<String> = [
        "/signin", "/favicon.ico", "/ui/favicon.png", "/ui/favicon.svg", "/ui/apple-touch-icon.png",
        "/ui/js/i18n.js", "/ui/js/signin.js", "/ui/css/signin.css", "/api/health",
        // Health checks for load balancers and orchestrators: they say nothing but up or not.
        "/livez", "/readyz",
    ]

    public static func permission(method: HTTPRequest.Method, path: String) -> Permission {
        let reads = method == .get || method == .head
        // Bundle files (segments, playlists, posters): whoever may browse the library may read
        // them. First, because a player asks for one every few seconds per connection.
        if reads, path.hasPrefix("/media/") { return .browse }
        let path = path.lowercased()
        if reads, path.hasPrefix("/media/") { return .browse }
        if reads, publicFiles.contains(path) { return .signIn }
        if path.hasPrefix("/api/auth/") { return .signIn }
        if path == "/api/tokens" || path.hasPrefix("/api/tokens/") || path == "/account" { return .ownAccount }
        if path == "/api/users" || path.hasPrefix("/api/users/") { return .manage }
        // Metrics reveal routes, traffic and the queue: the owner's (or `--metrics-token`'s,
        // which `AccessMiddleware` checks), open only where everyone is the owner (loopback).
        if path == "/metrics" { return .manage }
        // Nearby devices: the device link is guarded by pairing itself (an unpaired device can
        // only ask, and the owner approves on the TV); approving, listing and revoking are the owner's.
        if path == "/api/devices/link" { return .signIn }
        // A TV page listening for "Play on…" plays what it is sent, like any player page.
        if path == "/api/devices/screen" { return .play }
        // "Play on…" another TV, from any player: listing the paired TVs and handing the item over.
        if path == "/api/devices/tvs" && reads || path == "/api/devices/play-on" && method == .post { return .play }
        // The web remote's page and scripts: a phone opens them signed out and pairs over the link.
        if reads, !path.contains(".."),
            path == "/remote" || path == "/ui/css/remote.css" || path.hasPrefix("/ui/js/remote/")
                || path.hasPrefix("/ui/js/devicelink/")
        {
            return .signIn
        }
        if path == "/devices" || path == "/api/devices" || path.hasPrefix("/api/devices/") { return .manage }
        // Playback: sessions, their renderer socket and intents, and where a viewer got to.
        if path == "/api/sessions" || path.hasPrefix("/api/sessions/") { return .play }
        // Watching together: the link itself is its own credential (a person without an account
        // gets a guest pass for that group, see `GuestScope`); joining its group is playing.
        if reads, path.hasPrefix("/together/") { return .signIn }
        if path.hasPrefix("/together/") || path.hasPrefix("/api/together/") { return .play }
        if path.hasPrefix("/api/assets/"), path.hasSuffix("/position"), method == .put || method == .delete || reads { return .play }
        // The home screen's rows: whoever may browse the library sees them, each person their own progress.
        if path == "/api/home" { return reads ? .browse : .manage }
        // Interstitial events (ad breaks): anyone who may browse sees them; only the owner authors them.
        if path.hasPrefix("/api/assets/"), path.contains("/interstitials") { return reads ? .browse : .manage }
        // Added subtitle files: anyone who may browse lists them; adding or removing one edits the item.
        if path.hasPrefix("/api/assets/"), path.contains("/subtitles") { return reads ? .browse : .manage }
        // Interstitial webhooks: the server POSTs to these URLs, which may carry secrets.
        if path == "/api/settings/interstitial-webhooks" { return .manage }
        // Offline downloads are the owner's (they make the server fetch URLs); their files,
        // once imported or while playing provisionally, are media like any other.
        if path == "/downloads" || path.hasPrefix("/api/downloads") {
            if reads, path.hasPrefix("/api/downloads/"), path.contains("/files/") { return .browse }
            return .manage
        }
        return reads ? .browse : .manage
    }
}
