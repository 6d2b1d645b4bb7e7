/// What a signed-in party may do on a Marquee server.
///
/// - `owner`: everything, including server paths, settings, deleting media and managing users.
/// - `viewer`: browse the library and play it (sessions, positions), nothing that changes or
///   reveals the server.
/// - `pairedDevice`: a nearby device paired with the TV; only what its application service
///   allows (controlling playback for `remote`).
public enum Role: String, Codable, Sendable, CaseIterable, Comparable {
    case owner
    case viewer
    case pairedDevice = "paired-device"

    /// Whether this role includes everything `other` may do.
    public static func < (lhs: Role, rhs: Role) -> Bool { lhs.rank < rhs.rank }

    var rank: Int {
        switch self {
        case .pairedDevice: 0
        case .viewer: 1
        case .owner: 2
        }
    }
}

/// One kind of thing a request does, as the access rules name it. Each route needs one.
public enum Permission: String, Sendable, CaseIterable {
    /// Pages, scripts and styles the sign-in page itself needs; anyone.
    case signIn
    /// Read the library, its media and artwork, and play it.
    case browse
    /// Create and drive playback sessions, record positions.
    case play
    /// An account's own password and API tokens.
    case ownAccount
    /// Add, change, delete media; server paths; settings; downloads; users.
    case manage

    /// The roles that hold this permission.
    public func allows(_ role: Role) -> Bool {
        switch self {
        case .signIn: true
        case .browse: role >= .viewer
        case .play: true
        case .ownAccount: role >= .viewer
        case .manage: role == .owner
        }
    }
}
