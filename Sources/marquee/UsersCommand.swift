import Accounts
import ArgumentParser
import Foundation
import Library

/// `marquee users`: the accounts of a server's data directory — for making the first owner on
/// the machine itself, and for recovering when every owner password is lost.
struct UsersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: "Manage the accounts that may sign in to `marquee serve`.",
        discussion: "Passwords are read from standard input (one line) when it is not a terminal, else prompted for.",
        subcommands: [Add.self, List.self, Remove.self, SetRole.self, Password.self, Token.self]
    )

    struct Location: ParsableArguments {
        @Option(help: "Data directory (default: $XDG_DATA_HOME/marquee or ~/.local/share/marquee).")
        var data: String?

        @OptionGroup var storage: StorageOptions

        /// The accounts of the data directory, or of the PostgreSQL database `--database` names (a cluster's).
        /// The account service on the chosen database; a database that cannot be opened (or
        /// reached) ends the command with one line and its documented exit status.
        func accounts() async throws -> AccountService {
            do {
                return try await openAccounts()
            } catch {
                let failure = CommandFailure(classifying: error)
                FileHandle.standardError.write(Data("marquee users: \(failure.message)\n".utf8))
                throw failure.status.exitCode
            }
        }

        private func openAccounts() async throws -> AccountService {
            let dataDirectory = data.map { URL(fileURLWithPath: $0) } ?? LibraryLocation.defaultDataDirectory()
            let location = LibraryLocation(dataDirectory: dataDirectory)
            guard case .postgres = try storage.resolve(dataDirectory: dataDirectory).database else {
                try SQLiteSchema.refuseNewer(at: location.accountsDatabaseURL, known: SQLiteAccountStore.migrationIdentifiers)
                return AccountService(store: try SQLiteAccountStore(url: location.accountsDatabaseURL))
            }
            let (_, store, _) = try await storage.open(dataDirectory: dataDirectory)
            return AccountService(store: try NodeStores(library: store, location: location).accounts)
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add an account (the first owner needs no setup code here).")
        @OptionGroup var location: Location
        @Option(help: "owner or viewer.") var role: String = "viewer"
        @Argument(help: "The name to sign in with.") var name: String

        func run() async throws {
            let role = try parseRole(role)
            let accounts = try await location.accounts()
            let password = try readPassword(confirm: true)
            try await report {
                if role == .owner, try await accounts.needsOwner() {
                    _ = try await accounts.createOwner(name: name, password: password, setupCode: nil, trustedCaller: true)
                } else {
                    _ = try await accounts.createAccount(name: name, password: password, role: role)
                }
            }
            print("added \(name) (\(role.rawValue))")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the accounts.")
        @OptionGroup var location: Location
        func run() async throws {
            for account in try await location.accounts().store.accounts() {
                print("\(account.name)\t\(account.role.rawValue)\t\(ISO8601DateFormatter().string(from: account.createdAt))")
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove an account and sign it out everywhere.")
        @OptionGroup var location: Location
        @Argument var name: String
        func run() async throws {
            let accounts = try await location.accounts()
            try await report { try await accounts.deleteAccount(named: name) }
            print("removed \(name)")
        }
    }

    struct SetRole: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "set-role", abstract: "Make an account an owner or a viewer.")
        @OptionGroup var location: Location
        @Argument var name: String
        @Argument(help: "owner or viewer.") var role: String
        func run() async throws {
            let role = try parseRole(role)
            let accounts = try await location.accounts()
            try await report { try await accounts.setRole(role, forAccountNamed: name) }
            print("\(name) is now \(role.rawValue)")
        }
    }

    struct Password: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Set an account's password (signs it out everywhere).")
        @OptionGroup var location: Location
        @Argument var name: String
        func run() async throws {
            let accounts = try await location.accounts()
            let password = try readPassword(confirm: true)
            try await report { try await accounts.setPassword(password, forAccountNamed: name) }
            print("password changed for \(name)")
        }
    }

    struct Token: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make an API token for an account and print it (shown once).")
        @OptionGroup var location: Location
        @Argument var name: String
        @Option(help: "What the token is for.") var label: String = "command line"
        func run() async throws {
            let accounts = try await location.accounts()
            guard let account = try await accounts.store.account(named: name), let id = account.id else {
                FileHandle.standardError.write(Data("marquee users token: \(AccountError.accountNotFound(name))\n".utf8))
                throw ExitStatus.unusableInput.exitCode
            }
            let (_, secret) = try await accounts.createToken(accountID: id, label: label)
            print(secret.value)
        }
    }
}

private func parseRole(_ text: String) throws -> Role {
    guard let role = Role(rawValue: text.lowercased()), role != .pairedDevice else {
        throw ValidationError("--role must be owner or viewer, not \"\(text)\"")
    }
    return role
}

/// Runs an account change, turning its refusal into a one-line error and exit status 2.
private func report(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let error as AccountError {
        FileHandle.standardError.write(Data("marquee users: \(error)\n".utf8))
        throw ExitStatus.unusableInput.exitCode
    }
}

/// A password from standard input (one line) or, at a terminal, typed twice without echo.
private func readPassword(confirm: Bool) throws -> String {
    guard isatty(STDIN_FILENO) == 1 else {
        guard let line = readLine(strippingNewline: true), !line.isEmpty else {
            throw ValidationError("expected the password as one line on standard input")
        }
        return line
    }
    guard let first = getpass("Password: ").map({ String(cString: $0) }) else { throw ValidationError("no password typed") }
    if confirm {
        guard let second = getpass("Again: ").map({ String(cString: $0) }), second == first else {
            throw ValidationError("the two passwords differ")
        }
    }
    return first
}
