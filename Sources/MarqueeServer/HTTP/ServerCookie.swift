import Hummingbird

/// The one spelling of the cookies this server sets (the sign-in session and a guest's pass):
/// for every path, never readable by scripts, `Secure` when the request came over HTTPS
/// (directly or through a proxy that says so).
enum ServerCookie {
    /// When a browser sends the cookie with a request that starts on another site.
    enum SameSite: String {
        /// Never: a sign-in is not carried into a request another site started.
        case strict = "Strict"
        /// On top-level navigations: a link opened from another app still arrives with it.
        case lax = "Lax"
    }

    /// A `Set-Cookie` value; `maxAge` 0 removes the cookie.
    static func header(name: String, value: String, maxAge: Int, sameSite: SameSite, request: Request) -> String {
        var parts = ["\(name)=\(value)", "Path=/", "Max-Age=\(maxAge)", "HttpOnly", "SameSite=\(sameSite.rawValue)"]
        if cameOverHTTPS(request) { parts.append("Secure") }
        return parts.joined(separator: "; ")
    }

    /// Whether the browser reached this server over HTTPS.
    static func cameOverHTTPS(_ request: Request) -> Bool {
        request.headers[.init("X-Forwarded-Proto")!]?.lowercased() == "https" || request.head.scheme == "https"
    }
}
