import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where log lines go: written in order on a queue of their own, so a caller on an event loop
/// or on Swift's cooperative pool never waits for a slow terminal or a full pipe. At most
/// `maximumPending` lines wait; past that lines are dropped and counted, and the next line
/// written says how many were lost.
///
/// Lines are gathered for `gathering` (5 ms) after the first one and written together: one
/// queue hop and one `write(2)` per batch, not per line, as nginx buffers its access log. An
/// access log line per request cost a thread wake-up and a system call each, half the CPU of
/// answering a cached segment (`make bench`, object-serving: 43 against 22 CPU ms per 1,000
/// requests without the log); writing each batch as soon as the last one was done still woke
/// the writing thread every few lines (futex wake-ups and context switches were a tenth of the
/// server's samples under `wrk`, and the log cost 15 CPU ms per 1,000 segments to nginx's 3).
public final class LogOutput: Sendable {
    /// The process's standard error (file descriptor 2).
    public static let standardError = LogOutput(fileDescriptor: 2)
    /// How long lines are gathered before a write, by default.
    public static let gatheringDefault: Duration = .milliseconds(5)
    /// Lines that may wait to be written before new ones are dropped.
    public static let maximumPending = 10_000

    private enum Target: Sendable {
        case descriptor(Int32)
        case sink(@Sendable (String) -> Void)
    }

    /// Lines waiting, whether a drain is scheduled, and how many were dropped since the last line.
    private struct Waiting {
        var lines: [String] = []
        var draining = false
        var dropped = 0
    }

    private let target: Target
    private let queue = DispatchQueue(label: "marquee.log-output")
    private let waiting = Mutex(Waiting())
    /// How long lines are gathered after the first one before they are written (zero: at once).
    public let gathering: Duration

    /// Lines to an open file descriptor, gathered for `gathering` before each write.
    public init(fileDescriptor: Int32, gathering: Duration = LogOutput.gatheringDefault) {
        target = .descriptor(fileDescriptor)
        self.gathering = gathering
    }

    /// Lines to `sink`, one call per line, in order (tests read them).
    public init(sink: @escaping @Sendable (String) -> Void, gathering: Duration = .zero) {
        target = .sink(sink)
        self.gathering = gathering
    }

    /// Queues `line` (which ends with a newline).
    public func write(_ line: String) {
        let startDrain = waiting.withLock { state -> Bool in
            guard state.lines.count < Self.maximumPending else {
                state.dropped += 1
                return false
            }
            if state.dropped > 0 {
                state.lines.append("(\(state.dropped) log lines were dropped: the log's reader did not keep up)\n")
                state.dropped = 0
            }
            state.lines.append(line)
            guard !state.draining else { return false }
            state.draining = true
            return true
        }
        guard startDrain else { return }
        if gathering <= .zero {
            queue.async { self.drain() }
        } else {
            let (seconds, attoseconds) = gathering.components
            let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
            queue.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { self.drain() }
        }
    }

    /// Writes every line queued so far and waits until they are written (before the process exits).
    public func flush() {
        queue.sync { self.drain() }
    }

    /// Writes what is waiting, batch after batch, until nothing is (then the next line starts
    /// a new drain).
    private func drain() {
        while true {
            let batch = waiting.withLock { state -> [String] in
                let lines = state.lines
                state.lines = []
                if lines.isEmpty { state.draining = false }
                return lines
            }
            guard !batch.isEmpty else { return }
            switch target {
            case .sink(let sink):
                for line in batch { sink(line) }
            case .descriptor(let descriptor):
                Self.emit(batch.joined(), to: descriptor)
            }
        }
    }

    private static func emit(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)
        var offset = 0
        bytes.withUnsafeMutableBytes { buffer in
            while offset < buffer.count {
                let written = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }
}

/// The C library's `write(2)` (inside `LogOutput`, `write` names its own method).
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
