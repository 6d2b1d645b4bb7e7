import APNs
import APNsTesting
import Crypto
import Foundation

// The APNs benchmark's halves, run by scripts/bench/apns.sh and scripts/bench/apns-fanout.sh:
//   apns-bench serve INFO [RPS STREAMS]
//                                    starts the local APNs stand-in (HTTP/2, TLS, JWT checks) and
//                                    writes its port, CA, key and ids to INFO; runs until stdin closes.
//                                    With RPS and STREAMS it throttles: at most RPS requests/s are
//                                    processed and a connection may have STREAMS streams open.
//                                    A line "count PREFIX FILE" on stdin writes to FILE how many
//                                    tokens starting with PREFIX got a push, once or more than once.
//   apns-bench client INFO N C       sends N Live Activity updates with C in flight from Marquee's
//                                    APNs client over one HTTP/2 connection; prints pushes/s as JSON
//   apns-bench fanout INFO N PREFIX  one update to N distinct tokens (PREFIX + a counter), all at
//                                    once, as the relay sends an activity's update; prints JSON

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
    let throttle = arguments.count >= 5 ? APNsTestServer.Throttle(requestsPerSecond: Int(arguments[3]) ?? 50,
                                                                   maxConcurrentStreams: Int(arguments[4]) ?? 8) : nil
    let server = try await APNsTestServer.start(identity: .init(keyID: "BENCHKEY01", teamID: "BENCHTEAM1", bundleID: "org.marquee.bench",
                                                                publicKey: key.publicKey), throttle: throttle)
    server.keepReceived(false)
    let keyFile = server.authority.directory.appendingPathComponent("AuthKey_BENCHKEY01.p8")
    try key.pemRepresentation.write(to: keyFile, atomically: true, encoding: .utf8)
    let info = Info(port: server.port, caFile: server.authority.caFile, keyFile: keyFile.path, keyID: "BENCHKEY01",
                    teamID: "BENCHTEAM1", bundleID: "org.marquee.bench")
    try JSONEncoder().encode(info).write(to: URL(fileURLWithPath: arguments[2]))
    // Commands until the script closes our stdin.
    try await Task.detached {
        while let line = readLine() {
            let words = line.split(separator: " ").map(String.init)
            guard words.count == 3, words[0] == "count" else { continue }
            let counts = server.deliveryCounts.filter { $0.key.hasPrefix(words[1]) }
            let summary = #"{"tokens":\#(counts.count),"pushes":\#(counts.values.reduce(0, +)),"duplicated":\#(counts.values.filter { $0 > 1 }.count)}"#
            try summary.write(toFile: words[2], atomically: true, encoding: .utf8)
        }
    }.value
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

case "fanout":
    let info = try JSONDecoder().decode(Info.self, from: Data(contentsOf: URL(fileURLWithPath: arguments[2])))
    let count = Int(arguments[3]) ?? 100_000
    let prefix = arguments.count > 4 ? arguments[4] : "aa"
    let pem = try String(contentsOfFile: info.keyFile, encoding: .utf8)
    let configuration = APNsConfiguration(keyID: info.keyID, teamID: info.teamID, bundleID: info.bundleID,
                                          signingKey: try P256.Signing.PrivateKey(pemRepresentation: pem),
                                          endpoints: .all(at: "https://127.0.0.1:\(info.port)"), extraTrustRoots: info.caFile)
    let client = try APNsClient(configuration: configuration)
    func token(_ i: Int) -> String {
        let digits = String(i, radix: 16)
        return prefix + String(repeating: "0", count: 64 - prefix.count - digits.count) + digits
    }
    let update = LiveActivityNotification(event: .update, timestamp: Date(timeIntervalSince1970: 1_800_000_000),
                                          contentState: Data(#"{"phase":"downloading","percent":42}"#.utf8),
                                          staleDate: Date(timeIntervalSince1970: 1_800_003_600), relevanceScore: 80)
    let start = ContinuousClock.now
    let kinds = await withTaskGroup(of: PushResult.Kind.self) { group in
        for i in 0..<count { group.addTask { await client.send(update, to: token(i), priority: 5).kind } }
        var kinds: [PushResult.Kind: Int] = [:]
        for await kind in group { kinds[kind, default: 0] += 1 }
        return kinds
    }
    let elapsed = ContinuousClock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    try? await client.shutdown()
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    let delivered = kinds[.delivered] ?? 0
    print(#"{"client":"marquee","tokens":\#(count),"delivered":\#(delivered),"notDelivered":\#(count - delivered),"seconds":\#(seconds),"perSecond":\#(Double(delivered) / seconds),"cpuSeconds":\#(cpu)}"#)

default:
    FileHandle.standardError.write(Data("unknown mode \(arguments[1])\n".utf8))
    exit(2)
}
