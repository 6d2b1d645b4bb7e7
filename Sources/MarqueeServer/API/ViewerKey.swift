import Accounts

extension MarqueeRequestContext {
    /// Whose viewing progress a request reads and writes: the signed-in account's, or the local
    /// user's on a server without sign-in; `nil` for a guest invited to watch together, whose
    /// watching is nobody's history.
    var viewerKey: String? {
        if let principal { return principal.accountID.map { "account:\($0)" } ?? "local" }
        return guest == nil ? "local" : nil
    }
}
