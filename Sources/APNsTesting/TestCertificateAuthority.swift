public import Foundation

/// A certificate authority made at test time with the `openssl` command, and a server
/// certificate it signed for 127.0.0.1 and localhost: clients trust `caFile` and nothing
/// else changes on the machine.
public struct TestCertificateAuthority: Sendable {
    public let directory: URL
    public var caFile: String { directory.appendingPathComponent("ca.pem").path }
    public var serverCertificateFile: String { directory.appendingPathComponent("server.pem").path }
    public var serverKeyFile: String { directory.appendingPathComponent("server.key").path }

    /// Makes the authority and the server certificate in a new temporary directory.
    public static func make() async throws -> TestCertificateAuthority {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-apns-ca-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let extensions = directory.appendingPathComponent("server.ext")
        try Data("subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n".utf8).write(to: extensions)
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try await openssl(
            ["req", "-x509"] + ec + [
                "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=Marquee Test APNs CA",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            ], in: directory)
        try await openssl(["req"] + ec + ["-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost"], in: directory)
        try await openssl(
            [
                "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                "-out", "server.pem", "-days", "2", "-extfile", "server.ext",
            ], in: directory)
        return TestCertificateAuthority(directory: directory)
    }

    static func openssl(_ arguments: [String], in directory: URL) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        process.currentDirectoryURL = directory
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        if status != 0 {
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw TestServerError("openssl \(arguments.first ?? "") failed (\(status)): \(message)")
        }
    }
}

/// A failure of the test server's own set-up.
public struct TestServerError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
