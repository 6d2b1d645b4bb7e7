public import HTTPTypes
import Synchronization

/// The id that names one request in its answer (`X-Request-ID`) and in every log line written
/// while it was answered. A proxy's id is kept when it is sane (1–128 characters of letters,
/// digits and `-_.:@`), so a request can be followed from the balancer's log to the node's;
/// otherwise the node makes one: a random prefix per process and a counter, in hex (an atomic
/// increment, no lock, cheap enough for the event-loop media path).
public enum RequestID {
    /// `X-Request-ID`.
    public static let headerName = HTTPField.Name("X-Request-ID")!

    private static let prefix = String(UInt32.random(in: .min ... .max), radix: 16)
    private static let counter = Atomic<UInt64>(UInt64.random(in: 0...(1 << 32)))

    /// The incoming id when it is sane, else a new one.
    public static func forRequest(incoming: String?) -> String {
        if let incoming, isSane(incoming) { return incoming }
        return make()
    }

    /// A new id, unique within this process and very likely across a cluster's nodes.
    public static func make() -> String {
        let next = counter.add(1, ordering: .relaxed).newValue
        return prefix + "-" + String(next, radix: 16)
    }

    /// Whether a proxy's id may be kept: short, and nothing a log line or header could be forged with.
    public static func isSane(_ value: String) -> Bool {
        let bytes = value.utf8
        guard !bytes.isEmpty, bytes.count <= 128 else { return false }
        return bytes.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":")
                || byte == UInt8(ascii: "@")
        }
    }
}
