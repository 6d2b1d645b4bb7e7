import Downloads
import Foundation
import HLS
import Synchronization

/// How `marquee download` talks: a progress bar on a terminal (percent, bytes, rate, time
/// left), or one JSON object per line (`event`: plan, progress, retry, finished, error).
final class DownloadReporter: Sendable {
    let json: Bool
    /// Serialises writes to the terminal, and holds when the bar was last drawn.
    private let output = Mutex<Date>(.distantPast)

    init(json: Bool) { self.json = json }

    private func emit(_ value: JSONValue) {
        output.withLock { _ in FileHandle.standardOutput.write(Data((value.serialized() + "\n").utf8)) }
    }

    private func err(_ text: String) {
        output.withLock { _ in FileHandle.standardError.write(Data(text.utf8)) }
    }

    func message(_ text: String) {
        if json { emit(.object([("event", .string("message")), ("message", .string(text))])) } else { FileHandle.standardOutput.write(Data((text + "\n").utf8)) }
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
            emit(.object([("event", .string("plan")), ("items", .array(items)),
                          ("sharedVideo", .array(resolution.auxiliary.map { .bool($0.sharesPrimaryVideo) }))]))
            return
        }
        print("Downloading \(plan.entries.count) playlists:")
        for e in plan.entries {
            switch e.role {
            case .video:
                let a = e.variant?.attributes
                print("  video      \(a?.resolution?.description ?? "-")  \(a?.bandwidth.map { String(format: "%.2f Mb/s", Double($0) / 1e6) } ?? "-")  \(a?.videoRange?.rawValue ?? "SDR")  \((a?.codecs ?? []).joined(separator: ","))  → \(e.folder)")
            case .iFrames:
                let a = e.iFrameVariant?.attributes
                print("  i-frames   \(a?.resolution?.description ?? "-")  for scrubbing offline  → \(e.folder)")
            case .audio, .subtitles:
                let r = e.rendition
                print("  \(e.role.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0))  \(r?.language ?? "-")  \(r?.name ?? "")\(r?.channels.map { " (\($0.text) ch)" } ?? "")  → \(e.folder)")
            }
        }
        for (i, aux) in resolution.auxiliary.enumerated() {
            print("  auxiliary \(i + 1): \(aux.sharesPrimaryVideo ? "uses the primary video" : "brings its own video")")
        }
    }

    func retry(_ event: HTTPFetcher.RetryEvent) {
        if json {
            emit(.object([("event", .string("retry")), ("url", .string(event.url.absoluteString)), ("attempt", .int(event.attempt)),
                          ("delay", .double(event.delay)), ("reason", .string(event.reason))]))
        }
    }

    func progress(_ p: DownloadProgress) {
        if json {
            emit(.object([
                ("event", .string("progress")), ("phase", .string(p.phase.rawValue)), ("completedFiles", .int(p.completedFiles)),
                ("totalFiles", .int(p.totalFiles)), ("bytes", .int(Int(p.bytesWritten))), ("expectedBytes", p.expectedBytes.map { .int(Int($0)) } ?? .null),
                ("fraction", .double((p.fractionCompleted * 1000).rounded() / 1000)), ("bytesPerSecond", .double(p.bytesPerSecond.rounded())),
                ("secondsRemaining", p.estimatedTimeRemaining.map { .double(($0 * 10).rounded() / 10) } ?? .null), ("retries", .int(p.retries)),
            ]))
            return
        }
        let now = Date()
        let due = output.withLock { lastDraw -> Bool in
            guard p.phase == .finished || now.timeIntervalSince(lastDraw) > 0.1 else { return false }
            lastDraw = now
            return true
        }
        guard due else { return }
        let width = 30
        let filled = Int(p.fractionCompleted * Double(width))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let eta = p.estimatedTimeRemaining.map { Self.duration($0) } ?? "--:--"
        err("\r\(bar) \(String(format: "%5.1f%%", p.fractionCompleted * 100))  \(Self.bytes(p.bytesWritten))  \(Self.bytes(Int64(p.bytesPerSecond)))/s  \(eta) left  \(p.completedFiles)/\(p.totalFiles) files\(p.retries > 0 ? "  \(p.retries) retries" : "")\u{1B}[K")
    }

    func finished(_ summary: BundleSummary, folder: URL) {
        if json {
            emit(.object([("event", .string("finished")), ("folder", .string(folder.path)), ("bytes", .int(Int(summary.totalBytes))),
                          ("playlist", .string(folder.appendingPathComponent(BundleWriter.playlistName).path)),
                          ("warnings", .strings(summary.warnings))]))
        } else {
            err("\n")
            for warning in summary.warnings { err("warning: \(warning)\n") }
            print("Done: \(Self.bytes(summary.totalBytes)) in \(folder.path) — play \(folder.appendingPathComponent(BundleWriter.playlistName).path)")
        }
    }

    func failed(_ message: String) {
        if json { emit(.object([("event", .string("error")), ("message", .string(message))])) }
        err("\(json ? "" : "\n")marquee download: \(message)\n")
    }

    static func bytes(_ n: Int64) -> String {
        let units = ["B", "KB", "MB", "GB", "TB"]
        var v = Double(n)
        var u = 0
        while v >= 1000, u < units.count - 1 { v /= 1000; u += 1 }
        return u == 0 ? "\(n) B" : String(format: "%.1f %@", v, units[u])
    }

    static func duration(_ s: Double) -> String {
        let t = Int(s.rounded())
        return t >= 3600 ? String(format: "%d:%02d:%02d", t / 3600, t / 60 % 60, t % 60) : String(format: "%02d:%02d", t / 60, t % 60)
    }
}
