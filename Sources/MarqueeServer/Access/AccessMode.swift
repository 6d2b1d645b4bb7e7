public import Accounts
import Foundation

/// Whether a server needs sign-in. Decided by the address the server is bound to, never by
/// the client's address: a reverse proxy on the same machine makes every client look local.
///
/// - `open`: bound to loopback only (the default, `127.0.0.1`). The person at this machine is
///   the owner without signing in, as before accounts existed; accounts can still be made
///   ahead of listening on the network.
/// - `signInRequired`: bound to any other address (`0.0.0.0`, a LAN address), or started
///   with `--require-sign-in` (behind a reverse proxy). Nothing but the sign-in page works
///   until a person signs in.
public enum AccessMode: String, Sendable, Codable {
    case open
    case signInRequired = "sign-in"

    /// The mode for a server bound to `host`.
    public static func forBindAddress(_ host: String, requireSignIn: Bool = false) -> AccessMode {
        if requireSignIn { return .signInRequired }
        return isLoopback(host) ? .open : .signInRequired
    }

    /// `localhost`, `127.0.0.0/8` and `::1`; everything else (including `0.0.0.0` and `::`,
    /// which listen on every interface) is not.
    public static func isLoopback(_ host: String) -> Bool {
        let name = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if name == "localhost" || name == "::1" || name == "0:0:0:0:0:0:0:1" { return true }
        var v4 = in_addr()
        guard inet_pton(AF_INET, name, &v4) == 1 else { return false }
        return UInt32(bigEndian: v4.s_addr) >> 24 == 127
    }
}

/// A server's access control: its mode, its accounts, and who the current request is.
public struct ServerAccess: Sendable {
    public let mode: AccessMode
    public let accounts: AccountService
    /// A bearer token that may read `/metrics` and nothing else (`--metrics-token`), for a
    /// Prometheus server that holds no account; nil: only the owner may.
    public let metricsToken: String?

    public init(mode: AccessMode, accounts: AccountService, metricsToken: String? = nil) {
        self.mode = mode
        self.accounts = accounts
        self.metricsToken = metricsToken.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether `authorization` presents the metrics token (compared in constant time).
    func presentsMetricsToken(_ authorization: String?) -> Bool {
        guard let metricsToken, let authorization, case .bearer(let token) = HeaderValues.authorization(authorization) else { return false }
        let given = Array(token.utf8)
        let expected = Array(metricsToken.utf8)
        guard given.count == expected.count else { return false }
        return zip(given, expected).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// The cookie that carries a sign-in session.
    static let cookieName = "marquee_session"
}

/// Whether the current request may see server paths (file locations on the server's disk) in
/// messages: only the owner may. Set per request by the access middleware; code that runs
/// outside a request (the command line, tests) sees them.
public enum ServerPathVisibility {
    @TaskLocal public static var revealed = true

    /// `text` with every absolute file-system path replaced by its last component, unless the
    /// current request may see them. Web paths (`/api/…`, `/media/…`, `/watch/…`, `/ui/…`) and
    /// URLs are left alone.
    public static func redact(_ text: String) -> String {
        revealed ? text : redactPaths(text)
    }

    static func redactPaths(_ text: String) -> String {
        guard text.contains("/") else { return text }
        var result = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let previous = index > text.startIndex ? text[text.index(before: index)] : " "
            let startsPath = character == "/" && !(previous.isLetter || previous.isNumber || ":/.~_-".contains(previous))
            guard startsPath else {
                result.append(character)
                index = text.index(after: index)
                continue
            }
            var end = index
            while end < text.endIndex, !(text[end].isWhitespace || "\"'(),;<>`".contains(text[end])) { end = text.index(after: end) }
            let path = String(text[index..<end])
            let components = path.split(separator: "/")
            let web = ["api", "media", "watch", "ui", "downloads", "signin", "account", "devices", "activities"]
            if components.count >= 2, let first = components.first, !web.contains(String(first)) {
                result += "…/" + String(components.last!)
            } else {
                result += path
            }
            index = end
        }
        return result
    }
}
