import APNs
import APNsTesting
import Crypto
import Foundation

// The APNs benchmark's two halves, run by scripts/bench/apns.sh:
//   apns-bench serve INFO            starts the local APNs stand-in (HTTP/2, TLS, JWT checks) and
//                                    writes its port, CA, key and ids to INFO; runs until stdin closes
//   apns-bench client INFO N C       sends N Live Activity updates with C in flight from Marquee's
//                                    APNs client over one HTTP/2 connection; prints pushes/s as JSON

struct Info: Codable {
    var port: Int
    var caFile: String
    var keyFile: String
    var keyID: String
    var teamID: String
    var bundleID: String
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: apns-bench serve INFO | client INFO COUNT CONCURRENCY\n".utf8))
    exit(2)
}

switch arguments[1] {
case "serve":
    let key = P256.Signing.PrivateKey()
    let server = try await APNsTestServer.start(identity: .init(keyID: "BENCHKEY01", teamID: "BENCHTEAM1", bundleID: "org.marquee.bench",
                                                                publicKey: key.publicKey))
    server.keepReceived(false)
    let keyFile = server.authority.directory.appendingPathComponent("AuthKey_BENCHKEY01.p8")
    try key.pemRepresentation.write(to: keyFile, atomically: true, encoding: .utf8)
    let info = Info(port: server.port, caFile: server.authority.caFile, keyFile: keyFile.path, keyID: "BENCHKEY01",
                    teamID: "BENCHTEAM1", bundleID: "org.marquee.bench")
    try JSONEncoder().encode(info).write(to: URL(fileURLWithPath: arguments[2]))
    // Until the script closes our stdin.
    _ = try await Task.detached { FileHandle.standardInput.readDataToEndOfFile() }.value
    try await server.stop()

case "client":
    let info = try JSONDecoder().decode(Info.self, from: Data(contentsOf: URL(fileURLWithPath: arguments[2])))
    let count = Int(arguments[3]) ?? 20000
    let concurrency = Int(arguments[4]) ?? 100
    let pem = try String(contentsOfFile: info.keyFile, encoding: .utf8)
    let configuration = APNsConfiguration(keyID: info.keyID, teamID: info.teamID, bundleID: info.bundleID,
                                          signingKey: try P256.Signing.PrivateKey(pemRepresentation: pem),
                                          endpoints: .all(at: "https://127.0.0.1:\(info.port)"), extraTrustRoots: info.caFile)
    let client = try APNsClient(configuration: configuration)
    let token = String(repeating: "ab", count: 32)
    func notification(_ i: Int) -> LiveActivityNotification {
        LiveActivityNotification(event: .update, timestamp: Date(timeIntervalSince1970: 1_800_000_000 + Double(i)),
                                 contentState: Data(#"{"phase":"downloading","percent":\#(i % 100),"bytesWritten":\#(i * 1000)}"#.utf8),
                                 staleDate: Date(timeIntervalSince1970: 1_800_003_600), relevanceScore: 80)
    }
    // Warm up: the connection, TLS and the provider token.
    for i in 0..<50 { _ = await client.send(notification(i), to: token, priority: 5) }
    let start = ContinuousClock.now
    let delivered = await withTaskGroup(of: Int.self) { group in
        for worker in 0..<concurrency {
            group.addTask {
                var ok = 0
                var i = worker
                while i < count {
                    if await client.send(notification(i), to: token, priority: 5).kind == .delivered { ok += 1 }
                    i += concurrency
                }
                return ok
            }
        }
        var total = 0
        for await ok in group { total += ok }
        return total
    }
    let elapsed = ContinuousClock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    try? await client.shutdown()
    // The process's CPU time (user + system): on a shared machine, what each client costs.
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    print(#"{"client":"marquee","pushes":\#(count),"delivered":\#(delivered),"seconds":\#(seconds),"perSecond":\#(Double(delivered) / seconds),"cpuSeconds":\#(cpu)}"#)

default:
    FileHandle.standardError.write(Data("unknown mode \(arguments[1])\n".utf8))
    exit(2)
}
