import Foundation

/// Who a request acts for: a signed-in account (by cookie or API token), or the local user of
/// a server bound to loopback, who acts as the owner without signing in.
public struct Principal: Sendable, Hashable, Codable {
    /// How the request proved who it is.
    public enum Proof: String, Sendable, Hashable, Codable {
        /// The server is bound to loopback: the person at this machine.
        case localUser = "local"
        /// A sign-in session cookie.
        case session
        /// An API token (`Authorization: Bearer …`).
        case token
    }

    /// The account; nil for the local user.
    public var accountID: Int64?
    /// The account's name (`local` for the local user).
    public var name: String
    /// What it may do.
    public var role: Role
    /// How the request proved who it is.
    public var proof: Proof
    /// The session or token this request used, so it can be revoked.
    public var credentialID: String?

    /// A principal with the given fields.
    public init(accountID: Int64?, name: String, role: Role, proof: Proof, credentialID: String? = nil) {
        self.accountID = accountID
        self.name = name
        self.role = role
        self.proof = proof
        self.credentialID = credentialID
    }

    /// The person at the machine of a loopback-bound server.
    public static let localUser = Principal(accountID: nil, name: "local", role: .owner, proof: .localUser)

    /// Whether its role grants `permission`.
    public func may(_ permission: Permission) -> Bool { permission.allows(role) }
}
