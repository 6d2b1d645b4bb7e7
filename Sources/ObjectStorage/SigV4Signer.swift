import Crypto
public import Foundation

/// AWS Signature Version 4 for S3: signs a request's headers (`Authorization`) or makes a
/// presigned URL, as every S3-compatible service (AWS, SeaweedFS, MinIO, R2) checks them.
///
/// Pure: the date is an argument, so the signatures can be checked against AWS's published
/// examples. Paths are S3-style (each segment percent-encoded once, `/` kept).
public struct SigV4Signer: Sendable {
    public var accessKeyID: String
    public var secretAccessKey: String
    public var sessionToken: String?
    public var region: String
    public var service: String

    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil, region: String, service: String = "s3") {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
        self.region = region
        self.service = service
    }

    /// The hex SHA-256 of an empty payload.
    public static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    /// The payload hash for a request whose body is not signed (presigned URLs).
    public static let unsignedPayload = "UNSIGNED-PAYLOAD"

    /// The headers to send: `headers` plus `host`, `x-amz-date`, `x-amz-content-sha256`,
    /// the session token if any, and `Authorization`. Every header given is signed.
    public func signedHeaders(
        method: String, url: URL, headers: [String: String] = [:], payloadHash: String,
        date: Date = Date()
    ) -> [String: String] {
        let (stamp, day) = Self.timestamps(date)
        var all = Dictionary(headers.map { ($0.key.lowercased(), $0.value.trimmingCharacters(in: .whitespaces)) }, uniquingKeysWith: { _, last in last })
        all["host"] = Self.hostHeader(url)
        all["x-amz-date"] = stamp
        all["x-amz-content-sha256"] = payloadHash
        if let sessionToken { all["x-amz-security-token"] = sessionToken }
        let names = all.keys.sorted()
        let canonical = [
            method.uppercased(), Self.canonicalPath(url), Self.canonicalQuery(url),
            names.map { "\($0):\(all[$0]!)\n" }.joined(), names.joined(separator: ";"), payloadHash,
        ].joined(separator: "\n")
        let scope = "\(day)/\(region)/\(service)/aws4_request"
        let signature = sign(canonical, stamp: stamp, day: day, scope: scope)
        all["authorization"] = "AWS4-HMAC-SHA256 Credential=\(accessKeyID)/\(scope), SignedHeaders=\(names.joined(separator: ";")), Signature=\(signature)"
        return all
    }

    /// A URL that grants `method` on `url` to whoever holds it, for `expires` seconds (at most a week).
    public func presignedURL(method: String = "GET", url: URL, expires: Int, date: Date = Date()) -> URL {
        let (stamp, day) = Self.timestamps(date)
        let scope = "\(day)/\(region)/\(service)/aws4_request"
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
        var items = components.percentEncodedQueryItems ?? []
        items += [
            URLQueryItem(name: "X-Amz-Algorithm", value: "AWS4-HMAC-SHA256"),
            URLQueryItem(name: "X-Amz-Credential", value: Self.encode("\(accessKeyID)/\(scope)", keepSlash: false)),
            URLQueryItem(name: "X-Amz-Date", value: stamp),
            URLQueryItem(name: "X-Amz-Expires", value: String(min(max(expires, 1), 604_800))),
            URLQueryItem(name: "X-Amz-SignedHeaders", value: "host"),
        ]
        if let sessionToken { items.append(URLQueryItem(name: "X-Amz-Security-Token", value: Self.encode(sessionToken, keepSlash: false))) }
        components.percentEncodedQueryItems = items
        let unsigned = components.url!
        let canonical = [
            method.uppercased(), Self.canonicalPath(unsigned), Self.canonicalQuery(unsigned),
            "host:\(Self.hostHeader(unsigned))\n", "host", Self.unsignedPayload,
        ].joined(separator: "\n")
        let signature = sign(canonical, stamp: stamp, day: day, scope: scope)
        components.percentEncodedQueryItems = items + [URLQueryItem(name: "X-Amz-Signature", value: signature)]
        return components.url!
    }

    func sign(_ canonicalRequest: String, stamp: String, day: String, scope: String) -> String {
        let stringToSign = ["AWS4-HMAC-SHA256", stamp, scope, Self.hex(SHA256.hash(data: Data(canonicalRequest.utf8)))].joined(separator: "\n")
        var key = SymmetricKey(data: Data("AWS4\(secretAccessKey)".utf8))
        for part in [day, region, service, "aws4_request"] {
            key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data(part.utf8), using: key)))
        }
        return Self.hex(HMAC<SHA256>.authenticationCode(for: Data(stringToSign.utf8), using: key))
    }

    static func timestamps(_ date: Date) -> (stamp: String, day: String) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let day = String(format: "%04d%02d%02d", c.year!, c.month!, c.day!)
        return (day + String(format: "T%02d%02d%02dZ", c.hour!, c.minute!, c.second!), day)
    }

    static func hostHeader(_ url: URL) -> String {
        let host = url.host ?? ""
        guard let port = url.port, !(url.scheme == "http" && port == 80), !(url.scheme == "https" && port == 443) else { return host }
        return "\(host):\(port)"
    }

    /// The path as sent (already percent-encoded once by `S3Client`), or `/`.
    static func canonicalPath(_ url: URL) -> String {
        let path = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? "/"
        return path.isEmpty ? "/" : path
    }

    static func canonicalQuery(_ url: URL) -> String {
        guard let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQueryItems else { return "" }
        // Re-encode from the decoded form, so every value is encoded the one way SigV4 wants.
        var pairs: [(name: String, value: String)] = []
        for item in items {
            let name: String = Self.encode(item.name.removingPercentEncoding ?? item.name, keepSlash: false)
            let value: String = Self.encode(item.value?.removingPercentEncoding ?? "", keepSlash: false)
            pairs.append((name, value))
        }
        pairs.sort { (a, b) -> Bool in a.name == b.name ? a.value < b.value : a.name < b.name }
        return pairs.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
    }

    /// RFC 3986 encoding as SigV4 wants it: everything but `A–Z a–z 0–9 - . _ ~` (and `/` when kept).
    public static func encode(_ text: String, keepSlash: Bool) -> String {
        var out = ""
        for byte in text.utf8 {
            if unreserved.contains(byte) || (keepSlash && byte == slash) {
                out.unicodeScalars.append(UnicodeScalar(byte))
            } else {
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }

    private static let slash = UInt8(ascii: "/")
    private static let unreserved: Set<UInt8> = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)

    /// The hex SHA-256 of `data` (a signed request's `x-amz-content-sha256`).
    public static func sha256Hex(_ data: Data) -> String {
        hex(SHA256.hash(data: data))
    }

    static func hex<D: Sequence>(_ digest: D) -> String where D.Element == UInt8 {
        digest.map { String(format: "%02x", $0) }.joined()
    }
}
