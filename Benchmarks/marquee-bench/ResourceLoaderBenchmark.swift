import Foundation
import MediaCore

/// `marquee-bench resource-loader FILE on-demand|read-ahead`: opens FILE through a
/// `FileResourceLoader` either with its entire length available on demand (straight reads)
/// or through the read-ahead cache, loads duration and tracks, makes one thumbnail at the
/// middle, and prints a JSON line with time-to-open, time-to-thumbnail and peak memory.
enum ResourceLoaderBenchmark {
    static func run(_ arguments: [String]) async throws {
        guard arguments.count == 2, ["on-demand", "read-ahead"].contains(arguments[1]) else {
            print("usage: marquee-bench resource-loader FILE on-demand|read-ahead")
            exit(64)
        }
        let onDemand = arguments[1] == "on-demand"
        let clock = ContinuousClock()
        let start = clock.now
        let loader = try FileResourceLoader(path: arguments[0], entireLengthAvailableOnDemand: onDemand)
        let asset = MediaAsset(resourceLoader: loader)
        let (duration, tracks) = try await asset.load(.duration, .tracks)
        let opened = clock.now - start
        var generator = ImageGenerator(asset: asset)
        generator.setTolerance(MediaTime(seconds: 1))
        _ = try await generator.image(at: MediaTime(seconds: duration.seconds / 2))
        let thumbnail = clock.now - start
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func ms(_ d: Duration) -> Double { Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15 }
        print(
            "{\"mode\":\"\(arguments[1])\",\"openMs\":\(ms(opened)),\"thumbnailMs\":\(ms(thumbnail)),\"peakRSSKiB\":\(usage.ru_maxrss),\"tracks\":\(tracks.count)}"
        )
    }
}
