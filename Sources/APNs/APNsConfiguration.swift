public import Crypto
public import Foundation
public import NIOCore

/// Which APNs environment a device token or a channel belongs to.
public enum APNsEnvironment: String, Codable, Sendable, Hashable, CaseIterable {
    case production, sandbox
}

/// The base URLs of APNs' three services, per environment: device pushes, channel
/// management, and broadcast sends. Tests point all of them at a local server.
public struct APNsEndpoints: Sendable, Hashable {
    /// Where pushes to device tokens go.
    public var device: [APNsEnvironment: String]
    /// Where broadcast channels are created, read, listed and deleted.
    public var management: [APNsEnvironment: String]
    /// Where pushes to broadcast channels go.
    public var broadcast: [APNsEnvironment: String]

    /// Apple's own hosts.
    public static let apple = APNsEndpoints(
        device: [.production: "https://api.push.apple.com", .sandbox: "https://api.sandbox.push.apple.com"],
        management: [
            .production: "https://api-manage-broadcast.push.apple.com:2196",
            .sandbox: "https://api-manage-broadcast.sandbox.push.apple.com:2195",
        ],
        broadcast: [.production: "https://api-broadcast.push.apple.com", .sandbox: "https://api-broadcast.sandbox.push.apple.com"])

    /// Every service of both environments at one base URL (a test server).
    public static func all(at base: String) -> APNsEndpoints {
        let base = base.hasSuffix("/") ? String(base.dropLast()) : base
        let both = Dictionary(uniqueKeysWithValues: APNsEnvironment.allCases.map { ($0, base) })
        return APNsEndpoints(device: both, management: both, broadcast: both)
    }
}

/// What the provider needs to push: the team's signing key (`.p8`) with its key id and team
/// id, the app's bundle id, the default environment, and the priority budget.
public struct APNsConfiguration: Sendable {
    /// The signing key's ID (`kid` in the provider token).
    public var keyID: String
    /// The developer team's ID (`iss` in the provider token).
    public var teamID: String
    /// The app's bundle ID, from which the push topic is made.
    public var bundleID: String
    /// The team's key (kept as its raw bytes: swift-crypto's key type is not `Sendable`).
    public var signingKey: P256.Signing.PrivateKey {
        get { (try? P256.Signing.PrivateKey(rawRepresentation: signingKeyBytes)) ?? P256.Signing.PrivateKey() }
        set { signingKeyBytes = newValue.rawRepresentation }
    }
    var signingKeyBytes: Data
    /// The environment used when a token or channel does not name one.
    public var environment: APNsEnvironment
    /// Where the services are (Apple's, or a test server).
    public var endpoints: APNsEndpoints
    /// Pushes at priority 10 allowed per activity per hour; the rest go at priority 5.
    public var highPriorityPerHour: Int
    /// How long one provider token (JWT) is used before a new one is signed (20–60 minutes).
    public var tokenLifetime: TimeInterval
    /// Attempts for a push answered with a 5xx or lost on the network, and the first delay.
    public var maximumAttempts: Int
    /// The wait before the first retry; it doubles before each next one.
    public var retryDelay: Duration
    /// The first back-off after a 429 for a token (doubles on each 429 in a row, up to an hour).
    public var throttleDelay: TimeInterval
    /// A PEM file of extra certificate authorities to trust (a test server's).
    public var extraTrustRoots: String?
    /// How long a request may wait for its answer once it is on the wire (time waiting for a
    /// free stream does not count).
    public var requestTimeout: TimeAmount
    /// How many HTTP/2 connections may be open to one APNs service at once (another opens
    /// when every stream of the open ones is busy and pushes wait).
    public var maximumConnections: Int

    /// A configuration with Apple's endpoints and the defaults below unless given.
    public init(
        keyID: String, teamID: String, bundleID: String, signingKey: P256.Signing.PrivateKey,
        environment: APNsEnvironment = .production, endpoints: APNsEndpoints = .apple, highPriorityPerHour: Int = 12,
        tokenLifetime: TimeInterval = 50 * 60, maximumAttempts: Int = 3, retryDelay: Duration = .milliseconds(250),
        throttleDelay: TimeInterval = 60, extraTrustRoots: String? = nil, requestTimeout: TimeAmount = .seconds(30),
        maximumConnections: Int = 4
    ) {
        self.keyID = keyID
        self.teamID = teamID
        self.bundleID = bundleID
        self.signingKeyBytes = signingKey.rawRepresentation
        self.environment = environment
        self.endpoints = endpoints
        self.highPriorityPerHour = max(0, highPriorityPerHour)
        self.tokenLifetime = min(60 * 60, max(20 * 60, tokenLifetime))
        self.maximumAttempts = max(1, maximumAttempts)
        self.retryDelay = retryDelay
        self.throttleDelay = throttleDelay
        self.extraTrustRoots = extraTrustRoots
        self.requestTimeout = requestTimeout
        self.maximumConnections = max(1, maximumConnections)
    }

    /// `apns-topic` for Live Activity pushes.
    public var liveActivityTopic: String { bundleID + ".push-type.liveactivity" }

    /// The configuration in a JSON file, if `file` is given, else in environment variables:
    /// `MARQUEE_APNS_KEY_FILE`, `MARQUEE_APNS_KEY_ID`, `MARQUEE_APNS_TEAM_ID`,
    /// `MARQUEE_APNS_BUNDLE_ID`, optional `MARQUEE_APNS_ENVIRONMENT` (production|sandbox),
    /// `MARQUEE_APNS_PRIORITY_BUDGET`, `MARQUEE_APNS_HOST` (all services at one base URL) and
    /// `MARQUEE_APNS_CA_FILE`. Nil when nothing is configured: pushes are off.
    public static func load(
        file: URL? = nil, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(APNsConfigurationError) -> APNsConfiguration? {
        var values: [String: String] = [:]
        if let file {
            let data: Data
            do { data = try Data(contentsOf: file) } catch {
                throw .unreadable("Cannot read the APNs configuration \(file.path): \(error.localizedDescription)")
            }
            guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw .unreadable("The APNs configuration \(file.path) is not a JSON object")
            }
            for (key, value) in object { values[key] = "\(value)" }
            if let keyFile = values["keyFile"], !keyFile.hasPrefix("/") {
                values["keyFile"] = file.deletingLastPathComponent().appendingPathComponent(keyFile).path
            }
        } else {
            let names = [
                "keyFile": "MARQUEE_APNS_KEY_FILE", "keyID": "MARQUEE_APNS_KEY_ID", "teamID": "MARQUEE_APNS_TEAM_ID",
                "bundleID": "MARQUEE_APNS_BUNDLE_ID", "environment": "MARQUEE_APNS_ENVIRONMENT",
                "highPriorityPerHour": "MARQUEE_APNS_PRIORITY_BUDGET", "host": "MARQUEE_APNS_HOST", "caFile": "MARQUEE_APNS_CA_FILE",
            ]
            for (key, name) in names { if let value = environment[name], !value.isEmpty { values[key] = value } }
        }
        let required = ["keyFile", "keyID", "teamID", "bundleID"]
        let missing = required.filter { values[$0] == nil }
        if missing.count == required.count { return nil }
        if !missing.isEmpty {
            throw .incomplete("The APNs configuration lacks \(missing.joined(separator: ", ")); pushes need all of \(required.joined(separator: ", "))")
        }
        let keyPath = values["keyFile"]!
        let pem: String
        do { pem = try String(contentsOfFile: keyPath, encoding: .utf8) } catch {
            throw .unreadable("Cannot read the APNs key \(keyPath): \(error.localizedDescription)")
        }
        let key: P256.Signing.PrivateKey
        do { key = try P256.Signing.PrivateKey(pemRepresentation: pem) } catch {
            throw .invalid("\(keyPath) is not an APNs signing key (a .p8 file with an EC P-256 private key): \(error)")
        }
        var env = APNsEnvironment.production
        if let name = values["environment"] {
            guard let parsed = APNsEnvironment(rawValue: name.lowercased()) else { throw .invalid("environment must be production or sandbox, not \(name)") }
            env = parsed
        }
        var budget = 12
        if let text = values["highPriorityPerHour"] {
            guard let value = Int(text), value >= 0 else { throw .invalid("The priority budget must be a whole number ≥ 0, not \(text)") }
            budget = value
        }
        return APNsConfiguration(
            keyID: values["keyID"]!, teamID: values["teamID"]!, bundleID: values["bundleID"]!, signingKey: key,
            environment: env, endpoints: values["host"].map(APNsEndpoints.all(at:)) ?? .apple,
            highPriorityPerHour: budget, extraTrustRoots: values["caFile"])
    }
}

/// Why the APNs configuration could not be used.
public enum APNsConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    case unreadable(String)
    case incomplete(String)
    case invalid(String)

    /// The message: what is wrong, naming the file, key or setting concerned.
    public var description: String {
        switch self {
        case .unreadable(let m), .incomplete(let m), .invalid(let m): m
        }
    }
}
