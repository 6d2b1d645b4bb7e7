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
public final class LogOutput: Sendable {
    /// The process's standard error (file descriptor 2).
    public static let standardError = LogOutput(fileDescriptor: 2)
    /// Lines that may wait to be written before new ones are dropped.
    public static let maximumPending = 10_000

    private enum Target: Sendable {
        case descriptor(Int32)
        case sink(@Sendable (String) -> Void)
    }

    private let target: Target
    private let queue = DispatchQueue(label: "marquee.log-output")
    private let pending = Atomic<Int>(0)
    private let dropped = Atomic<Int>(0)

    /// Lines to an open file descriptor.
    public init(fileDescriptor: Int32) {
        target = .descriptor(fileDescriptor)
    }

    /// Lines to `sink`, one call per line, in order (tests read them).
    public init(sink: @escaping @Sendable (String) -> Void) {
        target = .sink(sink)
    }

    /// Queues `line` (which ends with a newline).
    public func write(_ line: String) {
        let (_, waiting) = pending.add(1, ordering: .relaxed)
        guard waiting <= Self.maximumPending else {
            pending.subtract(1, ordering: .relaxed)
            dropped.add(1, ordering: .relaxed)
            return
        }
        let lost = dropped.exchange(0, ordering: .relaxed)
        let text = lost > 0 ? "(\(lost) log lines were dropped: the log's reader did not keep up)\n" + line : line
        queue.async {
            Self.emit(text, to: self.target)
            self.pending.subtract(1, ordering: .relaxed)
        }
    }

    /// Waits until every line queued so far is written (before the process exits).
    public func flush() {
        queue.sync {}
    }

    private static func emit(_ text: String, to target: Target) {
        switch target {
        case .sink(let sink):
            sink(text)
        case .descriptor(let descriptor):
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
}

/// The C library's `write(2)` (inside `LogOutput`, `write` names its own method).
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
