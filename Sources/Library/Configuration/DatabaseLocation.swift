public import Foundation

/// Which database holds the library: SQLite in a file (the embedded default) or a PostgreSQL
/// server shared by several server nodes and workers.
///
/// Written as `sqlite:PATH` (or a bare path) or `postgres://user:password@host:port/database`
/// (`postgresql://` too), with libpq's `sslmode` (`disable`, `prefer`, `require`) and `host`
/// (a Unix-socket folder) query parameters. The password may also come from `PGPASSWORD`.
public enum DatabaseLocation: Sendable, Hashable, CustomStringConvertible {
    /// A SQLite file.
    case sqlite(URL)
    /// A PostgreSQL database.
    case postgres(PostgresConnectionInfo)

    /// Parses `--database`; a relative SQLite path is taken from the current directory. Throws
    /// `ConfigurationError.invalid` for text that is neither form.
    public init(parsing text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("postgres://") || trimmed.hasPrefix("postgresql://") {
            self = .postgres(try PostgresConnectionInfo(parsing: trimmed, environment: environment))
        } else if trimmed.hasPrefix("sqlite:") {
            var path = String(trimmed.dropFirst("sqlite:".count))
            if path.hasPrefix("//") { path = String(path.dropFirst(2)) }
            guard !path.isEmpty else {
                throw ConfigurationError.invalid("--database", text, "sqlite: needs a file path, as in sqlite:/srv/marquee/library.sqlite")
            }
            self = .sqlite(URL(fileURLWithPath: path).standardizedFileURL)
        } else if !trimmed.isEmpty, !trimmed.contains("://") {
            self = .sqlite(URL(fileURLWithPath: trimmed).standardizedFileURL)
        } else {
            throw ConfigurationError.invalid("--database", text, "expected sqlite:PATH or postgres://user@host:port/database")
        }
    }

    /// The form to print: the password is never shown.
    public var description: String {
        switch self {
        case .sqlite(let url): "sqlite:\(url.path)"
        case .postgres(let info): info.description
        }
    }
}

/// Where and how to reach a PostgreSQL server, parsed from a `postgres://` URL.
public struct PostgresConnectionInfo: Sendable, Hashable, CustomStringConvertible {
    /// libpq's `sslmode`, reduced to what a client can act on.
    public enum TLSMode: String, Sendable, Hashable {
        case disable, prefer, require
    }

    /// The server's host name or address (used when `socketDirectory` is nil).
    public var host: String
    /// The server's TCP port (5432 by default).
    public var port: Int
    /// A folder holding the server's Unix socket (`?host=/run/postgresql`), used instead of TCP.
    public var socketDirectory: String?
    /// The role to connect as.
    public var user: String
    /// The password, from the URL or `PGPASSWORD`; nil for trust or peer authentication.
    public var password: String?
    /// The database's name.
    public var database: String
    /// Whether to use TLS (`prefer` tries it and falls back to plain TCP).
    public var tls: TLSMode

    /// Connection details given field by field.
    public init(
        host: String = "127.0.0.1", port: Int = 5432, socketDirectory: String? = nil, user: String, password: String? = nil,
        database: String, tls: TLSMode = .prefer
    ) {
        self.host = host
        self.port = port
        self.socketDirectory = socketDirectory
        self.user = user
        self.password = password
        self.database = database
        self.tls = tls
    }

    /// Parses a `postgres://` or `postgresql://` URL. The user may also come from `?user=`,
    /// `PGUSER` or `USER`, the password from `PGPASSWORD`; libpq's `allow` counts as `prefer` and
    /// `verify-ca`/`verify-full` as `require`. Throws `ConfigurationError.invalid`, with the
    /// password hidden, when something is missing.
    public init(parsing text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        func bad(_ why: String) -> ConfigurationError { .invalid("--database", Self.redacted(text), why) }
        guard let components = URLComponents(string: text), let scheme = components.scheme,
            scheme == "postgres" || scheme == "postgresql"
        else {
            throw bad("not a postgres:// URL")
        }
        let query = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
        let socket = query["host"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        let host = components.host.flatMap { $0.isEmpty ? nil : $0 } ?? query["host"].flatMap { $0.hasPrefix("/") ? nil : $0 }
        guard host != nil || socket != nil else { throw bad("no host (postgres://user@HOST:5432/database)") }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else { throw bad("no database name (postgres://user@host:5432/DATABASE)") }
        let user = components.user.flatMap { $0.isEmpty ? nil : $0.removingPercentEncoding } ?? query["user"] ?? environment["PGUSER"] ?? environment["USER"]
        guard let user, !user.isEmpty else { throw bad("no user name (postgres://USER@host:5432/database)") }
        let tls: TLSMode
        switch query["sslmode"] ?? "prefer" {
        case "disable": tls = .disable
        case "allow", "prefer": tls = .prefer
        case "require", "verify-ca", "verify-full": tls = .require
        case let other: throw bad("sslmode \(other) is not one of disable, prefer, require")
        }
        if let port = components.port, !(1...65535).contains(port) { throw bad("port \(port) is out of range") }
        self.init(
            host: host ?? "localhost", port: components.port ?? 5432, socketDirectory: socket, user: user,
            password: components.password?.removingPercentEncoding ?? environment["PGPASSWORD"],
            database: database.removingPercentEncoding ?? database, tls: tls)
    }

    /// The URL without its password.
    public var description: String {
        let address = socketDirectory.map { "localhost?host=\($0)" } ?? "\(host.contains(":") ? "[\(host)]" : host):\(port)"
        return "postgres://\(user)@\(address)/\(database)"
    }

    static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "***"
        return components.string ?? url
    }
}

/// A configuration value that cannot be used, with the option it came from and why.
public enum ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The option (`--database`), the value given, and why it cannot be used.
    case invalid(String, String, String)
    /// The configuration file's path and why it could not be read.
    case unreadableFile(String, String)

    /// One sentence for a person: the option or file, then why.
    public var description: String {
        switch self {
        case .invalid(let option, let value, let why): "\(option) \(value): \(why)"
        case .unreadableFile(let path, let why): "Cannot read the configuration file \(path): \(why)"
        }
    }
}
