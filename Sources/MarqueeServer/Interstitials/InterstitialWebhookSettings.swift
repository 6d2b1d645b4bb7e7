import Foundation

/// The server's interstitial webhooks: the URLs told of every break's will-present and
/// did-finish (`PUT /api/settings/interstitial-webhooks`), how long one POST may take, and how
/// many times a failed one is tried again (with backoff).
struct InterstitialWebhookSettings: Codable, Sendable, Hashable {
    var urls: [String]
    /// Seconds one POST may take before it counts as failed.
    var timeoutSeconds: Double
    /// How many times a failed POST is tried again, each after twice the previous wait.
    var retries: Int

    static let `default` = InterstitialWebhookSettings(urls: [], timeoutSeconds: 5, retries: 3)
    static let maximumURLs = 16
    static let timeoutRange = 0.1...60.0
    static let retryRange = 0...10

    init(urls: [String], timeoutSeconds: Double, retries: Int) {
        self.urls = urls
        self.timeoutSeconds = timeoutSeconds
        self.retries = retries
    }

    enum CodingKeys: String, CodingKey { case urls, timeoutSeconds, retries }

    /// Missing `timeoutSeconds` and `retries` take the defaults; `urls` is required.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        urls = try container.decode([String].self, forKey: .urls)
        timeoutSeconds = try container.decodeIfPresent(Double.self, forKey: .timeoutSeconds) ?? Self.default.timeoutSeconds
        retries = try container.decodeIfPresent(Int.self, forKey: .retries) ?? Self.default.retries
    }

    /// Why these settings cannot be used, worded for the person who sent them; nil when they can.
    var problem: String? {
        if urls.count > Self.maximumURLs { return "At most \(Self.maximumURLs) webhook URLs, not \(urls.count)" }
        for text in urls {
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                let host = url.host, !host.isEmpty
            else { return "Webhook URL \"\(text)\" is not an absolute http or https URL" }
        }
        if Set(urls).count != urls.count { return "Webhook URLs are listed more than once" }
        if !timeoutSeconds.isFinite || !Self.timeoutRange.contains(timeoutSeconds) {
            return "timeoutSeconds must be between \(Self.timeoutRange.lowerBound) and \(Self.timeoutRange.upperBound)"
        }
        if !Self.retryRange.contains(retries) {
            return "retries must be between \(Self.retryRange.lowerBound) and \(Self.retryRange.upperBound)"
        }
        return nil
    }
}

/// The JSON body POSTed to each webhook for one notification.
struct InterstitialWebhookPayload: Codable, Sendable, Hashable {
    /// `will-present` or `did-finish`.
    var notification: String
    var eventID: String
    var assetID: String
    var sessionID: String
    /// When it happened (ISO 8601, UTC).
    var time: String
    /// Where the primary stood, in seconds.
    var primaryTime: Double
    /// How a did-finish ended (`completed`, `playout-limit`, `skipped`, `cancelled`, `failed`, `seeked-away`).
    var reason: String?
    /// What failed, for `failed`.
    var message: String?
    /// What the break plays (a playback manifest or HLS URL) and its asset list, if any.
    var content: String
    var assetList: String?
}

/// A POST that failed for good (after its retries), as `GET /api/settings/interstitial-webhooks` lists it.
struct InterstitialWebhookFailure: Codable, Sendable, Hashable {
    var url: String
    var notification: String
    var eventID: String
    var attempts: Int
    var error: String
    var time: String
}
