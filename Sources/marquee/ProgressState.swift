import Foundation
import Synchronization

/// Progress reported from a pool thread (export, packaging), drawn as a bar or printed as JSON lines.
final class ProgressState: Sendable {
    private struct Drawn {
        var bar: ProgressBar
        var lastPercent = -1
    }
    private let drawn: Mutex<Drawn>
    let json: Bool

    init(json: Bool, label: String = "compose") {
        self.json = json
        drawn = Mutex(Drawn(bar: ProgressBar(total: 100, label: label)))
    }

    func update(_ fraction: Double) {
        let json = json
        drawn.withLock { drawn in
            let percent = Int(fraction * 100)
            guard percent != drawn.lastPercent else { return }
            drawn.lastPercent = percent
            if json {
                print("{\"progress\":\(String(format: "%.2f", fraction))}")
            } else {
                drawn.bar.update(percent)
            }
        }
    }

    func clear() { drawn.withLock { $0.bar.clear() } }
}
