public import Foundation

/// How clients get media kept in object storage: streamed through the server (`proxy`, the
/// default), or sent by redirect to a presigned URL of the bucket (`presigned`) or to a CDN
/// in front of it (`cdn:https://…`).
///
/// Playlists are always served by the server (their relative URIs resolve against `/media/…`
/// and interstitials are written into them); segments, posters, trick-play images and
/// subtitles follow this setting. With a folder, the server always sends the files itself.
public enum MediaDelivery: Sendable, Hashable, CustomStringConvertible {
    case proxy
    /// Redirects to a URL signed for `expires` seconds.
    case presigned(expires: Int)
    /// Redirects to `base` + the file's key under the `--media` prefix.
    case cdn(URL)

    /// How long a presigned redirect is good for by default.
    public static let defaultExpiry = 3600

    /// Parses `proxy`, `presigned`, `presigned:SECONDS` or `cdn:https://…`.
    public init(parsing text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        func bad(_ why: String) -> ConfigurationError { .invalid("--media-delivery", text, why) }
        if trimmed == "proxy" {
            self = .proxy
        } else if trimmed == "presigned" {
            self = .presigned(expires: Self.defaultExpiry)
        } else if trimmed.hasPrefix("presigned:") {
            guard let seconds = Int(trimmed.dropFirst("presigned:".count)), (60...604_800).contains(seconds) else {
                throw bad("presigned:SECONDS needs 60 to 604800 seconds (S3's longest presigned URL is 7 days)")
            }
            self = .presigned(expires: seconds)
        } else if trimmed.hasPrefix("cdn:") {
            let base = String(trimmed.dropFirst("cdn:".count))
            guard let url = URL(string: base), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil, url.query == nil else {
                throw bad("cdn: needs an http(s) base URL without a query, as in cdn:https://cdn.example.com/media")
            }
            self = .cdn(url)
        } else {
            throw bad("expected proxy, presigned, presigned:SECONDS or cdn:https://…")
        }
    }

    public var description: String {
        switch self {
        case .proxy: "proxy"
        case .presigned(let expires): expires == Self.defaultExpiry ? "presigned" : "presigned:\(expires)"
        case .cdn(let url): "cdn:\(url.absoluteString)"
        }
    }

    /// `--media-delivery`, else `MARQUEE_MEDIA_DELIVERY`, else the configuration file's
    /// `"mediaDelivery"`, else `proxy`.
    public static func resolve(
        option: String?, configFile: String?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> MediaDelivery {
        if let option { return try MediaDelivery(parsing: option) }
        if let text = environment["MARQUEE_MEDIA_DELIVERY"], !text.isEmpty { return try MediaDelivery(parsing: text) }
        if let path = configFile ?? environment["MARQUEE_CONFIG"].flatMap({ $0.isEmpty ? nil : $0 }),
            let data = FileManager.default.contents(atPath: path),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let text = object["mediaDelivery"] as? String
        {
            return try MediaDelivery(parsing: text)
        }
        return .proxy
    }
}
