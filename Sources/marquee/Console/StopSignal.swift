import Dispatch
import Foundation

/// Waits for the first SIGTERM or SIGINT, so a long-running command can finish or hand back
/// its work before it exits (instead of the default, which ends the process at once).
enum StopSignal {
    /// Returns the name of the first stop signal that arrives ("SIGTERM", "SIGINT").
    static func next() async -> String {
        await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
            let queue = DispatchQueue(label: "marquee.stop-signal")
            let fired = SignalLatch(continuation)
            for (number, name) in [(SIGTERM, "SIGTERM"), (SIGINT, "SIGINT")] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                source.setEventHandler { fired.fire(name) }
                source.resume()
                fired.keep(source)
            }
        }
    }

    /// Resumes the continuation once; keeps the signal sources alive meanwhile. Only touched on
    /// its own serial queue and once before the sources start, hence unchecked.
    private final class SignalLatch: @unchecked Sendable {
        private var continuation: CheckedContinuation<String, Never>?
        private var sources: [any DispatchSourceSignal] = []

        init(_ continuation: CheckedContinuation<String, Never>) {
            self.continuation = continuation
        }

        func keep(_ source: any DispatchSourceSignal) {
            sources.append(source)
        }

        func fire(_ name: String) {
            continuation?.resume(returning: name)
            continuation = nil
        }
    }
}
