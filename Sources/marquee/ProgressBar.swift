import Foundation

/// A one-line progress bar drawn on standard error when it is a terminal; silent otherwise.
struct ProgressBar {
    let total: Int
    let label: String
    let enabled = isatty(STDERR_FILENO) != 0
    private var lastDrawn = -1

    init(total: Int, label: String) {
        self.total = max(1, total)
        self.label = label
    }

    mutating func update(_ done: Int, note: String = "") {
        guard enabled else { return }
        let width = 30
        let filled = min(width, done * width / total)
        guard filled != lastDrawn || done == total || !note.isEmpty else { return }
        lastDrawn = filled
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        FileHandle.standardError.write(Data("\r\u{1B}[2K\(label) \(bar) \(done)/\(total) \(note)".utf8))
    }

    /// Clears the bar's line so normal output continues cleanly.
    func clear() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    }
}
