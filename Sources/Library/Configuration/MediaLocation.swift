public import Foundation

/// Where packaged bundles, posters and trick-play images live: a folder (the embedded
/// default, `media/` in the data directory) or an S3-compatible bucket.
///
/// Written as a path or `s3://bucket/prefix`. For a bucket, the endpoint, region and
/// credentials come from the environment under the AWS SDK's usual names:
/// `AWS_ENDPOINT_URL_S3` (or `AWS_ENDPOINT_URL`), `AWS_REGION` (or `AWS_DEFAULT_REGION`),
/// `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` and `AWS_SESSION_TOKEN`.
public enum MediaLocation: Sendable, Hashable, CustomStringConvertible {
    /// A folder on this machine.
    case folder(URL)
    /// A bucket (and key prefix) on an S3-compatible service.
    case s3(S3Location)

    /// Parses `--media`: a path, or `s3://bucket/prefix` with the rest from `environment`. Throws
    /// `ConfigurationError.invalid` for anything else, or when a bucket cannot be used as given.
    public init(parsing text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("s3://") {
            self = .s3(try S3Location(parsing: trimmed, environment: environment))
        } else if !trimmed.isEmpty, !trimmed.contains("://") {
            self = .folder(URL(fileURLWithPath: trimmed).standardizedFileURL)
        } else {
            throw ConfigurationError.invalid("--media", text, "expected a folder or s3://bucket/prefix")
        }
    }

    /// The folder's path, or the bucket's `s3://` form.
    public var description: String {
        switch self {
        case .folder(let url): url.path
        case .s3(let location): location.description
        }
    }
}

/// A bucket and key prefix on an S3-compatible service, with how to reach and sign for it.
public struct S3Location: Sendable, Hashable, CustomStringConvertible {
    /// The bucket's name.
    public var bucket: String
    /// Prepended to every key, without a leading or trailing slash ("" for the bucket's root).
    public var prefix: String
    /// The service's base URL; `nil` means AWS itself (`https://s3.REGION.amazonaws.com`).
    public var endpoint: URL?
    /// The region requests are signed for (`us-east-1` by default).
    public var region: String
    /// The access key that signs requests (SigV4).
    public var accessKeyID: String
    /// The secret of `accessKeyID`.
    public var secretAccessKey: String
    /// A temporary session token, sent with requests when the credentials are temporary.
    public var sessionToken: String?

    /// A location given field by field; slashes around `prefix` are dropped.
    public init(
        bucket: String, prefix: String = "", endpoint: URL? = nil, region: String = "us-east-1",
        accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil
    ) {
        self.bucket = bucket
        self.prefix = prefix.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        self.endpoint = endpoint
        self.region = region
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }

    /// Parses `s3://bucket/prefix`, taking the endpoint, region and credentials from `environment`
    /// (see `MediaLocation`); throws `ConfigurationError.invalid` when the bucket name, endpoint or credentials are not usable.
    public init(parsing text: String, environment: [String: String]) throws {
        func bad(_ why: String) -> ConfigurationError { .invalid("--media", text, why) }
        let rest = text.dropFirst("s3://".count)
        let bucket = String(rest.prefix(while: { $0 != "/" }))
        // S3's bucket naming rules: 3–63 lower-case letters, digits, dots and hyphens.
        guard (3...63).contains(bucket.count),
            bucket.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-" || $0 == ".") })
        else {
            throw bad("\"\(bucket)\" is not a bucket name (3 to 63 lower-case letters, digits, dots and hyphens)")
        }
        let prefix = String(rest.dropFirst(bucket.count))
        let endpointText = environment["AWS_ENDPOINT_URL_S3"] ?? environment["AWS_ENDPOINT_URL"]
        var endpoint: URL?
        if let endpointText, !endpointText.isEmpty {
            guard let url = URL(string: endpointText), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
                throw bad("AWS_ENDPOINT_URL_S3 \(endpointText) is not an http(s) URL")
            }
            endpoint = url
        }
        guard let key = environment["AWS_ACCESS_KEY_ID"], !key.isEmpty,
            let secret = environment["AWS_SECRET_ACCESS_KEY"], !secret.isEmpty
        else {
            throw bad("set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY for the bucket")
        }
        self.init(
            bucket: bucket, prefix: prefix, endpoint: endpoint,
            region: environment["AWS_REGION"] ?? environment["AWS_DEFAULT_REGION"] ?? "us-east-1",
            accessKeyID: key, secretAccessKey: secret, sessionToken: environment["AWS_SESSION_TOKEN"])
    }

    /// The object key for `path` under the prefix.
    public func key(_ path: String) -> String {
        prefix.isEmpty ? path : prefix + "/" + path
    }

    /// The form to print: never the credentials.
    public var description: String {
        "s3://\(bucket)\(prefix.isEmpty ? "" : "/" + prefix)" + (endpoint.map { " at \($0.absoluteString)" } ?? "") + " (\(region))"
    }
}
