// Benchmark drivers used by scripts/bench/*.sh: `parse` (playlist parsing) and
// `resource-loader` (MediaCore resource loaders).
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "parse": try ParseBenchmark.run(Array(arguments.dropFirst()))
    case "resource-loader": try await ResourceLoaderBenchmark.run(Array(arguments.dropFirst()))
    default:
        FileHandle.standardError.write(Data("usage: marquee-bench parse FILE... [--iterations N] | resource-loader ...\n".utf8))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("marquee-bench: \(error)\n".utf8))
    exit(1)
}
