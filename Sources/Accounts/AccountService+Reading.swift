extension AccountService {
    /// Every account, for the owner's account list.
    public func accounts() async throws -> [Account] {
        try await store.accounts()
    }

    /// The account named `name`; `AccountError.accountNotFound` when there is none.
    public func account(named name: String) async throws -> Account {
        guard let account = try await store.account(named: name) else { throw AccountError.accountNotFound(name) }
        return account
    }
}
