public import Foundation

/// A `decimal-resolution`: width × height in pixels.
public struct Resolution: Sendable, Hashable, Codable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
    public var description: String { "\(width)x\(height)" }
}

/// A sub-range of a resource: `length@offset`; a nil offset means "right after the previous
/// sub-range of the same resource" (resolved by the parser into `resolvedOffset`).
public struct ByteRange: Sendable, Hashable {
    public var length: UInt64
    public var offset: UInt64?
    public init(length: UInt64, offset: UInt64?) {
        self.length = length
        self.offset = offset
    }
    public var description: String { offset.map { "\(length)@\($0)" } ?? "\(length)" }
}

/// A date-time from the playlist, keeping its original text (so it is written back as it was)
/// with the instant it names.
public struct PlaylistDate: Sendable, Hashable {
    public var text: String
    public var date: Date
    public init(text: String, date: Date) {
        self.text = text
        self.date = date
    }
    public static func == (a: Self, b: Self) -> Bool { a.date == b.date }
    public func hash(into h: inout Hasher) { h.combine(date) }
}

/// `EXT-X-START`: where playback should start.
public struct StartPoint: Sendable, Hashable {
    public var timeOffset: Double
    public var precise: Bool
    public init(timeOffset: Double, precise: Bool = false) {
        self.timeOffset = timeOffset
        self.precise = precise
    }
}

/// `EXT-X-DEFINE`: a variable given a value, imported from the multivariant playlist, or
/// taken from a query parameter of the playlist's URL.
public enum VariableDefinition: Sendable, Hashable {
    case value(name: String, value: String)
    case `import`(name: String)
    case queryParameter(name: String)

    public var name: String {
        switch self {
        case .value(let n, _), .import(let n), .queryParameter(let n): return n
        }
    }
}

/// Encryption method of `EXT-X-KEY` / `EXT-X-SESSION-KEY`.
public enum EncryptionMethod: Sendable, Hashable {
    case none, aes128, sampleAES, sampleAESCTR, other(String)

    init(_ text: String) {
        switch text {
        case "NONE": self = .none
        case "AES-128": self = .aes128
        case "SAMPLE-AES": self = .sampleAES
        case "SAMPLE-AES-CTR": self = .sampleAESCTR
        default: self = .other(text)
        }
    }

    public var text: String {
        switch self {
        case .none: "NONE"
        case .aes128: "AES-128"
        case .sampleAES: "SAMPLE-AES"
        case .sampleAESCTR: "SAMPLE-AES-CTR"
        case .other(let s): s
        }
    }
}

/// `EXT-X-KEY` / `EXT-X-SESSION-KEY`: how segments are encrypted and where the key is.
public struct EncryptionKey: Sendable, Hashable {
    public var method: EncryptionMethod
    public var uri: String?
    /// The 16-byte initialisation vector when the tag declares one; otherwise the media
    /// sequence number of each segment is its IV.
    public var iv: [UInt8]?
    public var keyFormat: String?
    public var keyFormatVersions: String?
    public var otherAttributes: [Attribute]

    public init(
        method: EncryptionMethod, uri: String? = nil, iv: [UInt8]? = nil, keyFormat: String? = nil,
        keyFormatVersions: String? = nil, otherAttributes: [Attribute] = []
    ) {
        self.method = method
        self.uri = uri
        self.iv = iv
        self.keyFormat = keyFormat
        self.keyFormatVersions = keyFormatVersions
        self.otherAttributes = otherAttributes
    }

    /// True for the default "identity" key format (a plain key file).
    public var isIdentityFormat: Bool { keyFormat == nil || keyFormat == "identity" }
}

/// `EXT-X-MAP`: the media initialisation section (fMP4 init segment).
public struct MediaInitializationSection: Sendable, Hashable {
    public var uri: String
    public var byteRange: ByteRange?
    public var otherAttributes: [Attribute]
    public init(uri: String, byteRange: ByteRange? = nil, otherAttributes: [Attribute] = []) {
        self.uri = uri
        self.byteRange = byteRange
        self.otherAttributes = otherAttributes
    }
}

/// `EXT-X-TILES` (image playlists): a segment image is a grid of thumbnails.
public struct Tiles: Sendable, Hashable {
    public var resolution: Resolution?
    public var columns: Int
    public var rows: Int
    public var duration: Double?
    public var otherAttributes: [Attribute]
    public init(resolution: Resolution?, columns: Int, rows: Int, duration: Double?, otherAttributes: [Attribute] = []) {
        self.resolution = resolution
        self.columns = columns
        self.rows = rows
        self.duration = duration
        self.otherAttributes = otherAttributes
    }
}
