public import Foundation

/// A `decimal-resolution`: width × height in pixels.
public struct Resolution: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// A resolution of `width` × `height` pixels.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
    /// The attribute's text, `WIDTHxHEIGHT` (`1920x1080`).
    public var description: String { "\(width)x\(height)" }
}

/// A sub-range of a resource: `length@offset`; a nil offset means "right after the previous
/// sub-range of the same resource" (resolved by the parser into `resolvedOffset`).
public struct ByteRange: Sendable, Hashable {
    /// How many bytes the range covers.
    public var length: UInt64
    /// Where the range starts in the resource, in bytes; nil when it follows the previous range.
    public var offset: UInt64?
    /// A range of `length` bytes at `offset` (nil: right after the previous range).
    public init(length: UInt64, offset: UInt64?) {
        self.length = length
        self.offset = offset
    }
    /// The tag's text: `length@offset`, or `length` alone without an offset.
    public var description: String { offset.map { "\(length)@\($0)" } ?? "\(length)" }
}

/// A date-time from the playlist, keeping its original text (so it is written back as it was)
/// with the instant it names.
public struct PlaylistDate: Sendable, Hashable {
    /// The ISO 8601 text as the playlist wrote it.
    public var text: String
    /// The instant `text` names.
    public var date: Date
    /// A date whose written form is `text`.
    public init(text: String, date: Date) {
        self.text = text
        self.date = date
    }
    /// Two playlist dates are equal when they name the same instant, however they were written.
    public static func == (a: Self, b: Self) -> Bool { a.date == b.date }
    /// Hashes the instant only, consistent with `==`.
    public func hash(into h: inout Hasher) { h.combine(date) }
}

/// `EXT-X-START`: where playback should start.
public struct StartPoint: Sendable, Hashable {
    /// `TIME-OFFSET`, in seconds: from the start of the playlist when positive, from its end when negative.
    public var timeOffset: Double
    /// `PRECISE=YES`: start exactly at the offset, not at the start of the segment that contains it.
    public var precise: Bool
    /// A start point `timeOffset` seconds in (or from the end, when negative).
    public init(timeOffset: Double, precise: Bool = false) {
        self.timeOffset = timeOffset
        self.precise = precise
    }
}

/// `EXT-X-DEFINE`: a variable given a value, imported from the multivariant playlist, or
/// taken from a query parameter of the playlist's URL.
public enum VariableDefinition: Sendable, Hashable {
    /// `NAME` and `VALUE`: a variable with its value in the tag.
    case value(name: String, value: String)
    /// `IMPORT`: a variable of the multivariant playlist, used in a media playlist.
    case `import`(name: String)
    /// `QUERYPARAM`: a variable whose value is the query parameter of that name in the playlist's URL.
    case queryParameter(name: String)

    /// The variable's name, as `{$name}` references it.
    public var name: String {
        switch self {
        case .value(let n, _), .import(let n), .queryParameter(let n): return n
        }
    }
}

/// Encryption method of `EXT-X-KEY` / `EXT-X-SESSION-KEY`.
public enum EncryptionMethod: Sendable, Hashable {
    /// `NONE`: the segments are clear; `aes128`: each segment is AES-128-CBC encrypted as a whole (PKCS7 padding);
    /// `sampleAES` and `sampleAESCTR`: the media samples are encrypted inside the container (in fMP4, `cbcs` and `cenc`);
    /// `other`: a method this model does not know, with its text.
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

    /// The `METHOD` attribute's text (`AES-128`).
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
    /// `METHOD`: how the segments are encrypted.
    public var method: EncryptionMethod
    /// `URI`: where the key is, as written (unresolved); nil for `NONE`.
    public var uri: String?
    /// The 16-byte initialisation vector when the tag declares one; otherwise the media
    /// sequence number of each segment is its IV.
    public var iv: [UInt8]?
    /// `KEYFORMAT`: how the key at `uri` is represented (a DRM system's identifier); nil means `identity`.
    public var keyFormat: String?
    /// `KEYFORMATVERSIONS`: the versions of `keyFormat` the key conforms to, as written (`1/2/5`).
    public var keyFormatVersions: String?
    /// Attributes the parser does not model, kept in order for writing.
    public var otherAttributes: [Attribute]

    /// A key with the given attributes.
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
    /// `URI`: the resource that holds the section, as written (unresolved).
    public var uri: String
    /// `BYTERANGE`: the section is this sub-range of the resource.
    public var byteRange: ByteRange?
    /// Attributes the parser does not model, kept in order for writing.
    public var otherAttributes: [Attribute]
    /// A section at `uri`, or in the given sub-range of it.
    public init(uri: String, byteRange: ByteRange? = nil, otherAttributes: [Attribute] = []) {
        self.uri = uri
        self.byteRange = byteRange
        self.otherAttributes = otherAttributes
    }
}

/// `EXT-X-TILES` (image playlists): a segment image is a grid of thumbnails.
public struct Tiles: Sendable, Hashable {
    /// `RESOLUTION`: the size of one tile, in pixels.
    public var resolution: Resolution?
    /// Tiles across, from `LAYOUT` (`COLUMNSxROWS`).
    public var columns: Int
    /// Tiles down, from `LAYOUT`.
    public var rows: Int
    /// `DURATION`: the stretch of media each tile stands for, in seconds.
    public var duration: Double?
    /// Attributes the parser does not model, kept in order for writing.
    public var otherAttributes: [Attribute]
    /// A `columns` × `rows` grid of tiles of `resolution` each.
    public init(resolution: Resolution?, columns: Int, rows: Int, duration: Double?, otherAttributes: [Attribute] = []) {
        self.resolution = resolution
        self.columns = columns
        self.rows = rows
        self.duration = duration
        self.otherAttributes = otherAttributes
    }
}
