/// One unit on the wire of a device link: a protocol version, a message type and a payload.
///
/// Every transport (in memory, TCP, WebSocket) carries the same bytes: a one-byte version,
/// the message type as a big-endian `UInt32`, the payload length as a big-endian `UInt32`,
/// then the payload. After the handshake the payload is sealed by the `SecureChannel`.
public struct Frame: Sendable, Hashable {
    /// The only version this build speaks.
    public static let version: UInt8 = 1
    /// Version, type and length.
    public static let headerSize = 9
    /// The largest payload a decoder accepts unless told otherwise (64 KiB).
    public static let defaultMaximumPayload = 64 * 1024

    /// The message type's raw value (`LinkMessageType`); kept raw so unknown types can be refused by number.
    public var type: UInt32
    /// The payload: handshake data, or a sealed message after the handshake.
    public var payload: [UInt8]

    /// A frame of raw `type`.
    public init(type: UInt32, payload: [UInt8] = []) {
        self.type = type
        self.payload = payload
    }

    /// A frame of a known message type.
    public init(_ type: LinkMessageType, payload: [UInt8] = []) {
        self.init(type: type.rawValue, payload: payload)
    }

    /// The frame as bytes on the wire.
    public var encoded: [UInt8] {
        var bytes = [UInt8]()
        bytes.reserveCapacity(Self.headerSize + payload.count)
        Self.appendHeader(type: type, length: payload.count, to: &bytes)
        bytes.append(contentsOf: payload)
        return bytes
    }

    /// Appends the header for a payload of `length` bytes.
    static func appendHeader(type: UInt32, length: Int, to bytes: inout [UInt8]) {
        bytes.append(version)
        appendBigEndian(type, to: &bytes)
        appendBigEndian(UInt32(length), to: &bytes)
    }

    static func appendBigEndian(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes.append(UInt8(truncatingIfNeeded: value >> 24))
        bytes.append(UInt8(truncatingIfNeeded: value >> 16))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value))
    }
}

/// Why a byte stream is not a valid sequence of frames. Any of these closes the connection.
public enum FrameError: Error, Hashable, CustomStringConvertible {
    case unsupportedVersion(UInt8)
    case frameTooLarge(length: UInt32, maximum: Int)

    /// One sentence naming the version or length at fault.
    public var description: String {
        switch self {
        case .unsupportedVersion(let version):
            "unsupported frame version \(version); this device speaks \(Frame.version)"
        case .frameTooLarge(let length, let maximum):
            "frame of \(length) bytes is larger than the maximum of \(maximum)"
        }
    }
}

/// Cuts a byte stream into frames, whatever the reads' boundaries: a frame split over many
/// reads comes out once it is whole, several frames in one read come out one by one.
///
/// A header with another version or a length over the maximum is an error as soon as the
/// header has arrived, before any of the payload is buffered.
public struct FrameDecoder: Sendable {
    /// The largest payload accepted, in bytes; a longer one is `frameTooLarge`.
    public let maximumPayload: Int
    private var buffer: [UInt8] = []
    private var start = 0
    private var failure: FrameError?

    /// A decoder with nothing buffered.
    public init(maximumPayload: Int = Frame.defaultMaximumPayload) {
        self.maximumPayload = maximumPayload
    }

    /// Bytes received but not yet part of a returned frame.
    public var bufferedByteCount: Int { buffer.count - start }

    /// Adds bytes as they were read from the transport.
    public mutating func append<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        if start > 0, start >= buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next whole frame, `nil` when more bytes are needed. After an error the decoder
    /// keeps failing with the same error: the stream cannot be resynchronised.
    public mutating func next() throws(FrameError) -> Frame? {
        if let failure { throw failure }
        let available = buffer.count - start
        guard available >= 1 else { return nil }
        let version = buffer[start]
        guard version == Frame.version else { return try fail(.unsupportedVersion(version)) }
        guard available >= Frame.headerSize else { return nil }
        let type = readBigEndian(at: start + 1)
        let length = readBigEndian(at: start + 5)
        guard Int(length) <= maximumPayload else { return try fail(.frameTooLarge(length: length, maximum: maximumPayload)) }
        let end = start + Frame.headerSize + Int(length)
        guard buffer.count >= end else { return nil }
        let frame = Frame(type: type, payload: Array(buffer[(start + Frame.headerSize)..<end]))
        start = end
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        }
        return frame
    }

    private mutating func fail(_ error: FrameError) throws(FrameError) -> Frame? {
        failure = error
        throw error
    }

    private func readBigEndian(at index: Int) -> UInt32 {
        UInt32(buffer[index]) << 24 | UInt32(buffer[index + 1]) << 16 | UInt32(buffer[index + 2]) << 8 | UInt32(buffer[index + 3])
    }
}
