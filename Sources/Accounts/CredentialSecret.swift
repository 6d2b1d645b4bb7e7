import Crypto
public import Foundation

/// The secret half of a sign-in session or API token: 32 random bytes, shown once to its
/// holder (as a cookie value, or `mqt_…` for tokens) and stored only as its SHA-256, so a copy
/// of the database cannot be used to sign in.
public struct CredentialSecret: Sendable, Hashable {
    /// The secret as its holder presents it.
    public let value: String

    /// The secret a request presented.
    public init(value: String) { self.value = value }

    /// A fresh secret, with `prefix` in front (`mqt_` for API tokens).
    public static func generate(prefix: String = "") -> CredentialSecret {
        var bytes = [UInt8](repeating: 0, count: 32)
        var generator = SystemRandomNumberGenerator()
        for index in bytes.indices { bytes[index] = generator.next() }
        return CredentialSecret(value: prefix + Self.base64URL(bytes))
    }

    /// The digest the database keeps.
    public var digest: Data { Data(SHA256.hash(data: Data(value.utf8))) }

    /// A short public id (for listing and revoking) derived from nothing secret.
    static func newID() -> String {
        var bytes = [UInt8](repeating: 0, count: 9)
        var generator = SystemRandomNumberGenerator()
        for index in bytes.indices { bytes[index] = generator.next() }
        return base64URL(bytes)
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

/// The one-time code that lets the first person create the owner account on a server that
/// requires sign-in; printed to the console, valid until an owner exists. Twelve characters of
/// Crockford base32 (60 bits), grouped `XXXX-XXXX-XXXX`; dashes, spaces and case are ignored.
public struct SetupCode: Sendable, Hashable {
    /// The code as printed (`XXXX-XXXX-XXXX`).
    public let value: String
    static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")

    /// A code as given.
    public init(value: String) { self.value = value }

    /// A fresh random code.
    public static func generate() -> SetupCode {
        var generator = SystemRandomNumberGenerator()
        let characters = (0..<12).map { _ in alphabet[Int(generator.next(upperBound: UInt32(alphabet.count)))] }
        let text = String(characters)
        let grouped = [0, 4, 8].map { start in
            String(text[text.index(text.startIndex, offsetBy: start)..<text.index(text.startIndex, offsetBy: start + 4)])
        }
        return SetupCode(value: grouped.joined(separator: "-"))
    }

    static func normalized(_ text: String) -> String {
        text.uppercased().filter { $0 != "-" && $0 != " " }
            .replacingOccurrences(of: "O", with: "0").replacingOccurrences(of: "I", with: "1").replacingOccurrences(of: "L", with: "1")
    }

    /// Whether `attempt` is this code, compared in constant time.
    public func matches(_ attempt: String) -> Bool {
        PasswordHasher.constantTimeEqual(Array(Self.normalized(value).utf8), Array(Self.normalized(attempt).utf8))
    }
}
