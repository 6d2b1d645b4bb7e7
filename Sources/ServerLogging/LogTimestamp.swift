import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `2026-12-03T15:40:00.123Z`: UTC to the millisecond, as log collectors parse without a hint.
enum LogTimestamp {
    /// The last second formatted (`2026-12-03T15:40:00.`), for the lines within it: a busy
    /// access log writes thousands a second, and only the milliseconds change.
    private static let lastSecond = Mutex<(seconds: Int, prefix: String)>((-1, ""))

    static func now() -> String {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        let seconds = Int(spec.tv_sec)
        let milliseconds = Int(spec.tv_nsec) / 1_000_000
        let millis = milliseconds < 10 ? "00\(milliseconds)" : milliseconds < 100 ? "0\(milliseconds)" : "\(milliseconds)"
        if let prefix = lastSecond.withLock({ $0.seconds == seconds ? $0.prefix : nil }) { return prefix + millis + "Z" }
        let full = format(seconds: seconds, milliseconds: milliseconds)
        let prefix = String(full.dropLast(4))  // without "mmmZ"
        lastSecond.withLock { $0 = (seconds, prefix) }
        return full
    }

    static func format(seconds: Int, milliseconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let millis = milliseconds < 10 ? "00\(milliseconds)" : milliseconds < 100 ? "0\(milliseconds)" : "\(milliseconds)"
        return
            "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(millis)Z"
    }
}
