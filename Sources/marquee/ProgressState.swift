import Foundation

/// Progress reported from a pool thread (export, packaging), drawn as a bar or printed as JSON lines.
final class ProgressState: @unchecked Sendable {
    private let lock = NSLock()
    private var bar: ProgressBar
    private var lastPercent = -1
    let json: Bool

    init(json: Bool, label: String = "compose") {
        self.json = json
        bar = ProgressBar(total: 100, label: label)
    }

    func update(_ fraction: Double) {
        lock.lock()
        defer { lock.unlock() }
        let percent = Int(fraction * 100)
        guard percent != lastPercent else { return }
        lastPercent = percent
        if json {
            print("{\"progress\":\(String(format: "%.2f", fraction))}")
        } else {
            bar.update(percent)
        }
    }

    func clear() { bar.clear() }
}
