// Benchmark driver for playlist parsing: `marquee-bench parse FILE... [--iterations N]`
// parses every file N times (after one warm-up) and prints the best and median wall time of
// one pass over all files, in seconds, as JSON.
import Foundation
import HLS

func parseBenchmark(_ args: [String]) throws {
    var files: [String] = []
    var iterations = 10
    var i = 0
    while i < args.count {
        if args[i] == "--iterations", i + 1 < args.count { iterations = Int(args[i + 1]) ?? 10; i += 2; continue }
        files.append(args[i]); i += 1
    }
    let inputs = try files.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
    var segments = 0
    for d in inputs { // warm-up, and a check that the benchmark parses what it claims to
        let r = PlaylistParser.parse(d)
        guard r.playlist != nil else { throw NSError(domain: "bench", code: 1, userInfo: [NSLocalizedDescriptionKey: "not a playlist"]) }
        segments += r.playlist?.media?.segments.count ?? 0
    }
    var times: [Double] = []
    for _ in 0..<iterations {
        let start = DispatchTime.now().uptimeNanoseconds
        for d in inputs { _ = PlaylistParser.parse(d) }
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    times.sort()
    let bytes = inputs.reduce(0) { $0 + $1.count }
    print("{\"files\":\(inputs.count),\"bytes\":\(bytes),\"segments\":\(segments),\"best\":\(times[0]),\"median\":\(times[times.count / 2])}")
}

let args = Array(CommandLine.arguments.dropFirst())
if args.first == "nearby" {
    // DeviceLink: `marquee-bench nearby [--intents N] [--frames N] [--size BYTES]` (see NearbyBenchmark.swift).
    try await NearbyBenchmark.run(Array(args.dropFirst()))
    exit(0)
}
if args.first == "resource-loader" {
    // MediaCore: `marquee-bench resource-loader FILE on-demand|read-ahead` (see ResourceLoaderBenchmark.swift).
    try await ResourceLoaderBenchmark.run(Array(args.dropFirst()))
    exit(0)
}
guard args.first == "parse" else {
    FileHandle.standardError.write(Data("usage: marquee-bench parse FILE... [--iterations N] | resource-loader FILE on-demand|read-ahead\n".utf8))
    exit(2)
}
do { try parseBenchmark(Array(args.dropFirst())) } catch {
    FileHandle.standardError.write(Data("marquee-bench: \(error.localizedDescription)\n".utf8))
    exit(1)
}
