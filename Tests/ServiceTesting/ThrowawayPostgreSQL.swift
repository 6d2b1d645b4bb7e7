public import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A PostgreSQL server for the tests: Debian's `initdb` and `postgres` in a temporary folder,
/// on a free loopback port, started once per test process and shared by every test (each
/// test gets a database of its own from `makeDatabase()`).
///
/// As root (CI), the server runs as `nobody` (PostgreSQL refuses root). It listens on
/// 127.0.0.1 only, with `fsync` off (a throwaway). A `ServiceGuardian` owns it: the server
/// stops and its folder goes when the test process exits, however it ended. Set `MARQUEE_TEST_POSTGRES_URL` (`postgres://user@127.0.0.1:PORT/postgres`)
/// to use a server of your own instead.
public actor ThrowawayPostgreSQL {
    public static let shared = ThrowawayPostgreSQL()

    /// The running server: host, port and the superuser name.
    public struct Server: Sendable {
        public let host: String
        public let port: Int
        public let user: String
        /// Where the server's files and log are (nil for an external server).
        public let folder: URL?
    }

    private var starting: Task<Server, any Error>?
    private var guardian: Process?
    private var databaseCount = 0

    /// The shared server, started on first use.
    public func server() async throws -> Server {
        if let starting { return try await starting.value }
        let task = Task { try await self.start() }
        starting = task
        return try await task.value
    }

    /// A new, empty database on the shared server, as a `postgres://` URL.
    public func makeDatabase(prefix: String = "t") async throws -> String {
        let server = try await server()
        databaseCount += 1
        let name = "\(prefix)_\(ProcessInfo.processInfo.processIdentifier)_\(databaseCount)_\(UInt32.random(in: 0...UInt32.max))"
        try await psql(server, database: "postgres", "CREATE DATABASE \(name)")
        return "postgres://\(server.user)@\(server.host):\(server.port)/\(name)?sslmode=disable"
    }

    /// Runs SQL with `psql` (for setting up scenes a store would refuse to make).
    public func psql(_ server: Server, database: String, _ sql: String) async throws {
        let output = try await Self.run(
            Self.binary("psql"),
            [
                "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", server.host, "-p", String(server.port),
                "-U", server.user, "-d", database, "-c", sql,
            ])
        guard output.status == 0 else { throw ServiceTestingError.failed("psql \(sql)", output.text) }
    }

    private func start() async throws -> Server {
        let environment = ProcessInfo.processInfo.environment
        if let url = environment["MARQUEE_TEST_POSTGRES_URL"], let components = URLComponents(string: url),
            let host = components.host, let port = components.port
        {
            guard ["127.0.0.1", "localhost", "::1"].contains(host) else {
                throw ServiceTestingError.failed("MARQUEE_TEST_POSTGRES_URL", "tests talk only to loopback; \(host) is not")
            }
            return Server(host: host, port: port, user: components.user ?? "postgres", folder: nil)
        }
        let initdb = try Self.binary("initdb")
        let postgres = try Self.binary("postgres")
        let asRoot = getuid() == 0
        // As root the server runs as nobody, who may not reach a private TMPDIR: use /tmp then.
        let parent = asRoot ? "/tmp" : NSTemporaryDirectory()
        ServiceGuardian.removeAbandonedFolders(in: parent, prefix: "marquee-pg-")
        let folder = URL(fileURLWithPath: parent).appendingPathComponent("marquee-pg-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if asRoot {
            // PostgreSQL will not run as root: hand the folder to nobody, and run as nobody.
            guard chown(folder.path, 65534, 65534) == 0 else {
                throw ServiceTestingError.failed("chown \(folder.path)", String(cString: strerror(errno)))
            }
        }
        let port = try FreePort.pick()
        let user = "marquee"
        let data = folder.appendingPathComponent("data").path
        let script = ServiceGuardian.script(
            starting: """
                set -e
                '\(initdb)' -D '\(data)' -U \(user) --auth=trust -E UTF8 --no-locale --no-sync > '\(folder.path)/initdb.log' 2>&1
                '\(postgres)' -D '\(data)' -h 127.0.0.1 -p \(port) -k '\(folder.path)' -c fsync=off -c synchronous_commit=off \\
                    -c full_page_writes=off -c max_connections=1000 -c shared_buffers=32MB > '\(folder.path)/postgres.log' 2>&1 &
                server=$!
                set +e
                """, signal: "INT", folder: folder)
        let process = try ServiceGuardian.launch(
            asRoot ? ["/usr/sbin/runuser", "-u", "nobody", "--", "/bin/sh", "-c", script] : ["/bin/sh", "-c", script], folder: folder)
        guardian = process
        let server = Server(host: "127.0.0.1", port: port, user: user, folder: folder)
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if !process.isRunning {
                throw ServiceTestingError.failed("initdb/postgres", Self.logs(folder))
            }
            if FreePort.isListening(port), (try? await psql(server, database: "postgres", "SELECT 1")) != nil {
                return server
            }
            try await Task.sleep(for: .milliseconds(100))  // the pause between readiness checks, as for SeaweedFS
        }
        throw ServiceTestingError.failed("postgres did not start within 60 s", Self.logs(folder))
    }

    static func logs(_ folder: URL) -> String {
        ["initdb.log", "postgres.log"].compactMap { try? String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8) }
            .joined(separator: "\n").suffix(2000).description
    }

    /// `name` from Debian's newest PostgreSQL (`/usr/lib/postgresql/N/bin`), or from PATH.
    static func binary(_ name: String) throws -> String {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init).sorted(by: >)
        for version in versions where FileManager.default.isExecutableFile(atPath: "\(root)/\(version)/bin/\(name)") {
            return "\(root)/\(version)/bin/\(name)"
        }
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
        where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
            return "\(folder)/\(name)"
        }
        throw ServiceTestingError.missing(name, "install Debian's postgresql package (scripts/setup.sh --test does)")
    }

    /// Runs a short command off the cooperative pool and returns its status and output.
    public static func run(_ executable: String, _ arguments: [String]) async throws -> (status: Int32, text: String) {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: executable)
                process.arguments = arguments
                let output = Pipe()
                process.standardOutput = output
                process.standardError = output
                process.standardInput = FileHandle.nullDevice
                do {
                    try process.run()
                    let data = output.fileHandleForReading.readDataToEndOfFile()
                    process.waitUntilExit()
                    continuation.resume(returning: (process.terminationStatus, String(decoding: data, as: UTF8.self)))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }
}

/// A test service that could not be started, with what failed and its output.
public enum ServiceTestingError: Error, CustomStringConvertible {
    case missing(String, String)
    case failed(String, String)

    public var description: String {
        switch self {
        case .missing(let tool, let hint): "\(tool) not found: \(hint)"
        case .failed(let what, let output): "\(what) failed: \(output)"
        }
    }
}

/// Free loopback ports for test servers.
public enum FreePort {
    /// A TCP port on 127.0.0.1 that nothing listens on now (the kernel's pick).
    public static func pick() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServiceTestingError.failed("socket", String(cString: strerror(errno))) }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw ServiceTestingError.failed("bind 127.0.0.1:0", String(cString: strerror(errno))) }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether something accepts TCP connections on 127.0.0.1:`port`.
    public static func isListening(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}

extension Duration {
    /// How long a test lets a store connect to the throwaway server and migrate its database.
    /// Only a failing run waits this long: a full parallel `swift test` on a loaded 2-core
    /// machine once needed more than the product's 15 s for some of its ~40 databases created
    /// and migrated at once (every PostgreSQL test of that run failed with "no answer").
    public static let testStoreOpening = Duration.seconds(120)
}
