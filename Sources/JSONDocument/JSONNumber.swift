/// A JSON number: an integer kept exactly (64 bits) or a `Double`.
///
/// Two numbers are equal when their values are (`JSONNumber(1) == JSONNumber(1.0)`), and equal
/// numbers hash alike, whichever way each was written or read.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral {
    enum Storage: Sendable {
        case integer(Int64)
        case double(Double)
    }

    let storage: Storage

    public init(_ value: Int64) { storage = .integer(value) }
    public init(_ value: Int) { storage = .integer(Int64(value)) }
    public init(_ value: Double) { storage = .double(value) }
    public init(integerLiteral value: Int64) { storage = .integer(value) }
    public init(floatLiteral value: Double) { storage = .double(value) }

    /// The value as an integer, when it is one exactly.
    public var int64Value: Int64? {
        switch storage {
        case .integer(let value): value
        case .double(let value): Int64(exactly: value)
        }
    }

    /// The value as a `Double` (the nearest one for an integer beyond 2^53).
    public var doubleValue: Double {
        switch storage {
        case .integer(let value): Double(value)
        case .double(let value): value
        }
    }

    /// JSON text: an integer, a `Double` with a fraction only when it has one (below 10^15), or
    /// `null` for a value JSON cannot hold (infinity, NaN).
    public var description: String {
        switch storage {
        case .integer(let value): return String(value)
        case .double(let value):
            guard value.isFinite else { return "null" }
            return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
        }
    }

    public static func == (a: JSONNumber, b: JSONNumber) -> Bool {
        switch (a.storage, b.storage) {
        case (.integer(let x), .integer(let y)): x == y
        case (.double(let x), .double(let y)): x == y
        case (.integer(let x), .double(let y)), (.double(let y), .integer(let x)): Int64(exactly: y) == x
        }
    }

    public func hash(into hasher: inout Hasher) {
        if let integer = int64Value { hasher.combine(integer) } else { hasher.combine(doubleValue) }
    }
}

extension JSONNumber: Codable {
    /// Reads an integer exactly when the number is one that fits 64 bits, else a `Double`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let integer = try? container.decode(Int64.self) {
            storage = .integer(integer)
        } else {
            storage = .double(try container.decode(Double.self))
        }
    }

    /// Writes an integer, or a `Double` that has no fraction as an integer (below 9·10^15, where
    /// every integer is a `Double`), or `null` for infinity and NaN.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch storage {
        case .integer(let value): try container.encode(value)
        case .double(let value):
            if !value.isFinite {
                try container.encodeNil()
            } else if value.rounded() == value, abs(value) < 9e15 {
                try container.encode(Int64(value))
            } else {
                try container.encode(value)
            }
        }
    }
}
