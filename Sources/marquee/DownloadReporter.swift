import Downloads
import Foundation
import HLS
import JSONDocument
import Synchronization

/// How `marquee download` talks: a progress bar on a terminal (percent, bytes, rate, time
/// left), or one JSON object per line (`event`: plan, progress, retry, finished, error).
final class DownloadReporter: Sendable {
    let console: Console
    var json: Bool { console.isJSON }
    /// Serialises JSON lines.
    private let output = Mutex(())

    init(console: Console) { self.console = console }

    private func emit(_ value: JSONValue) {
        output.withLock { _ in FileHandle.standardOutput.write(Data((value.serialized() + "\n").utf8)) }
    }

    func message(_ text: String) {
        console.emit("message", [("message", .string(text))], text: text)
    }

    func plan(_ plan: DownloadPlan, resolution: DownloadConfiguration.Resolution) {
        let items: [JSONValue] = plan.entries.map { e in
            .object([
                ("role", .string(e.role.rawValue)), ("url", .string(e.url.absoluteString)), ("folder", .string(e.folder)),
                ("peakBitRate", .optional(e.variant?.attributes.bandwidth)),
                ("resolution", (e.variant?.attributes ?? e.iFrameVariant?.attributes)?.resolution.map { .string($0.description) } ?? .null),
                ("videoRange", .optional(e.variant?.attributes.videoRange?.rawValue)),
                ("codecs", .strings(e.variant?.attributes.codecs ?? [])),
                ("language", .optional(e.rendition?.language)), ("name", .optional(e.rendition?.name)),
                ("channels", .optional(e.rendition?.channels?.text)),
            ])
        }
        if json {
            emit(
                .object([
                    ("event", .string("plan")), ("items", .array(items)),
                    ("sharedVideo", .array(resolution.auxiliary.map { .bool($0.sharesPrimaryVideo) })),
                ]))
            return
        }
        print("Downloading \(plan.entries.count) playlists:")
        for e in plan.entries {
            switch e.role {
            case .video:
                let a = e.variant?.attributes
                print(
                    "  video      \(a?.resolution?.description ?? "-")  \(a?.bandwidth.map { String(format: "%.2f Mb/s", Double($0) / 1e6) } ?? "-")  \(a?.videoRange?.rawValue ?? "SDR")  \((a?.codecs ?? []).joined(separator: ","))  → \(e.folder)"
                )
            case .iFrames:
                let a = e.iFrameVariant?.attributes
                print("  i-frames   \(a?.resolution?.description ?? "-")  for scrubbing offline  → \(e.folder)")
            case .audio, .subtitles:
                let r = e.rendition
                print(
                    "  \(e.role.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0))  \(r?.language ?? "-")  \(r?.name ?? "")\(r?.channels.map { " (\($0.text) ch)" } ?? "")  → \(e.folder)"
                )
            }
        }
        for (i, aux) in resolution.auxiliary.enumerated() {
            print("  auxiliary \(i + 1): \(aux.sharesPrimaryVideo ? "uses the primary video" : "brings its own video")")
        }
    }

    func retry(_ event: HTTPFetcher.RetryEvent) {
        if json {
            emit(
                .object([
                    ("event", .string("retry")), ("url", .string(event.url.absoluteString)), ("attempt", .int(event.attempt)),
                    ("delay", .double(event.delay)), ("reason", .string(event.reason)),
                ]))
        }
    }

    func progress(_ p: DownloadProgress) {
        if json {
            emit(
                .object([
                    ("event", .string("progress")), ("phase", .string(p.phase.rawValue)), ("completedFiles", .int(p.completedFiles)),
                    ("totalFiles", .int(p.totalFiles)), ("bytes", .int(Int(p.bytesWritten))), ("expectedBytes", p.expectedBytes.map { .int(Int($0)) } ?? .null),
                    ("fraction", .double((p.fractionCompleted * 1000).rounded() / 1000)), ("bytesPerSecond", .double(p.bytesPerSecond.rounded())),
                    ("secondsRemaining", p.estimatedTimeRemaining.map { .double(($0 * 10).rounded() / 10) } ?? .null), ("retries", .int(p.retries)),
                ]))
            return
        }
        let eta = p.estimatedTimeRemaining.map { Self.duration($0) } ?? "--:--"
        let detail =
            "\(Self.bytes(p.bytesWritten))  \(Self.bytes(Int64(p.bytesPerSecond)))/s  \(eta) left  \(p.completedFiles)/\(p.totalFiles) files\(p.retries > 0 ? "  \(p.retries) retries" : "")"
        console.progress(p.fractionCompleted, label: "", detail: detail)
    }

    func finished(_ summary: BundleSummary, folder: URL) {
        if json {
            emit(
                .object([
                    ("event", .string("finished")), ("folder", .string(folder.path)), ("bytes", .int(Int(summary.totalBytes))),
                    ("playlist", .string(folder.appendingPathComponent(BundleWriter.playlistName).path)),
                    ("warnings", .strings(summary.warnings)),
                ]))
        } else {
            console.clearProgress()
            for warning in summary.warnings { console.warn(warning) }
            print("Done: \(Self.bytes(summary.totalBytes)) in \(folder.path) — play \(folder.appendingPathComponent(BundleWriter.playlistName).path)")
        }
    }

    static func bytes(_ n: Int64) -> String {
        let units = ["B", "KB", "MB", "GB", "TB"]
        var v = Double(n)
        var u = 0
        while v >= 1000, u < units.count - 1 {
            v /= 1000
            u += 1
        }
        return u == 0 ? "\(n) B" : String(format: "%.1f %@", v, units[u])
    }

    static func duration(_ s: Double) -> String {
        let t = Int(s.rounded())
        return t >= 3600 ? String(format: "%d:%02d:%02d", t / 3600, t / 60 % 60, t % 60) : String(format: "%02d:%02d", t / 60, t % 60)
    }
}
