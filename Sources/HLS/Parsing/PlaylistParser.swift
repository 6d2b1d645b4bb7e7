public import Foundation

/// Parses HLS playlists (rfc8216bis, protocol version 12, with HLS Interstitials and the
/// image-playlist extension) into `Playlist` values. Every problem becomes a `Diagnostic` with
/// line, column, tag and attribute; lenient mode repairs real-world quirks with warnings,
/// strict mode reports the specification's MUST rules as errors.
public enum PlaylistParser {
    /// Parses playlist text.
    public static func parse(_ text: String, options: ParseOptions = .lenient) -> ParseResult {
        var text = text
        return text.withUTF8 { parse(bytes: $0, options: options) }
    }

    /// Parses playlist bytes (UTF-8), as fetched or read from a file.
    public static func parse(_ data: some DataProtocol, options: ParseOptions = .lenient) -> ParseResult {
        let bytes = Array(data)
        return bytes.withUnsafeBufferPointer { parse(bytes: $0, options: options) }
    }

    static func parse(bytes: UnsafeBufferPointer<UInt8>, options: ParseOptions) -> ParseResult {
        var parser = ParserState(options: options)
        parser.run(bytes)
        return parser.finish()
    }
}

extension Playlist {
    /// Parses text and throws `PlaylistParseError` when the playlist has errors.
    public init(parsing text: String, options: ParseOptions = .lenient) throws {
        self = try PlaylistParser.parse(text, options: options).get()
    }
}

/// The playlist kind a tag belongs to.
enum TagScope { case common, multivariant, media, unknown }

/// The parser's working state: one pass over the lines, building whichever playlist kind the
/// tags reveal.
struct ParserState {
    let options: ParseOptions
    var sink: DiagnosticSink
    var variables: [String: String] = [:]

    var version: Int?
    var independentSegments = false
    var start: StartPoint?
    var definitions: [VariableDefinition] = []
    var headerUnknownTags: [UnknownTag] = []

    var multivariantLine: Int?
    var mediaLine: Int?
    var stopped = false

    var multivariant = MultivariantPlaylist()
    var pendingVariant: PendingVariant?

    var media = MediaPlaylist()
    var segment = PendingSegment()
    var currentKeys: [EncryptionKey] = []
    var currentMap: MediaInitializationSection?
    var currentBitrate: Int?
    var sawSegment = false
    var firstPartLine: Int?
    var dateRangeLines: [String: Int] = [:]
    var mediaSequenceLine: Int?
    /// Lines that are not text (invalid UTF-8 or control characters); past
    /// `binaryLineLimit` the input is not a playlist that happens to have a bad line.
    var binaryLines = 0
    static let binaryLineLimit = 64
    /// Where each once-only media playlist tag first appeared.
    var playlistTagLines: [String: Int] = [:]

    var lastLine = 0

    init(options: ParseOptions) {
        self.options = options
        self.sink = DiagnosticSink(mode: options.mode)
    }

    struct PendingVariant {
        var variant: VariantStream
        var line: Int
        var usable: Bool
    }

    struct PendingSegment {
        var duration: Double?
        var extinfLine = 0
        var title: String?
        var byteRange: ByteRange?
        var byteRangeLine = 0
        var discontinuity = false
        var programDateTime: PlaylistDate?
        var gap = false
        var tiles: Tiles?
        var parts: [PartialSegment] = []
        var unknownTags: [UnknownTag] = []
    }

    // MARK: Lines

    mutating func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        var pos = 0
        let count = bytes.count
        if count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            if sink.isStrict {
                sink.report(.fatal, line: 1, column: 1, message: "playlist starts with a byte order mark (U+FEFF); playlists must not contain one")
                return
            }
            sink.report(.advisory, line: 1, column: 1, message: "byte order mark (U+FEFF) before #EXTM3U removed")
            pos = 3
        }
        var lineNumber = 0
        var sawHeader = false
        while pos < count, !stopped {
            lineNumber += 1
            let lineStart = pos
            var hasHigh = false
            var hasControl = false
            var hasReference = false
            scan: while pos < count {
                // Eight plain bytes at a time: none below 0x20 (LF, tab, CR, controls), none
                // above 0x7F, no '$'. Anything else is looked at byte by byte below.
                pos = Self.skipPlainBytes(bytes, from: pos)
                let stop = Swift.min(pos + 8, count)
                while pos < stop {
                    let b = bytes[pos]
                    if b == 0x0A { break scan }
                    if b >= 0x80 {
                        hasHigh = true
                    } else if b < 0x20 {
                        if b != 0x09 && b != 0x0D { hasControl = true }
                    } else if b == UInt8(ascii: "$"), pos > lineStart, bytes[pos - 1] == UInt8(ascii: "{") {
                        hasReference = true
                    }
                    pos += 1
                }
            }
            var end = pos
            if pos < count { pos += 1 }  // the LF
            if end > lineStart, bytes[end - 1] == 0x0D { end -= 1 }
            lastLine = lineNumber

            if let limit = options.maximumLineLength, end - lineStart > limit {
                sink.report(
                    .invalidValue, line: lineNumber, column: 1, tag: tagName(bytes, lineStart, end),
                    message: "line is \(end - lineStart) bytes long, over the limit of \(limit); limit exceeded, line skipped")
                continue
            }
            var isBinary = hasControl
            if hasHigh, String(validating: UnsafeBufferPointer(rebasing: bytes[lineStart..<end]), as: UTF8.self) == nil {
                sink.report(
                    sawHeader ? .invalidValue : .fatal, line: lineNumber, column: 1,
                    message: sawHeader ? "line is not valid UTF-8" : "not a playlist: the first line is not valid UTF-8 text")
                if !sawHeader { return }
                isBinary = true
            }
            if isBinary, sawHeader {
                binaryLines += 1
                if binaryLines >= Self.binaryLineLimit {
                    sink.report(
                        .fatal, line: lineNumber, column: 1,
                        message:
                            "not a playlist: \(binaryLines) lines are binary data (not UTF-8 text or with control characters), the last on line \(lineNumber)")
                    stopped = true
                    break
                }
            }
            if hasControl {
                let at = (lineStart..<end).first { bytes[$0] < 0x20 && bytes[$0] != 0x09 } ?? lineStart
                if !sawHeader {
                    sink.report(
                        .fatal, line: lineNumber, column: at - lineStart + 1,
                        message: "not a playlist: control character 0x\(String(bytes[at], radix: 16)) in the first line")
                    return
                }
                sink.report(
                    .specViolation, line: lineNumber, column: at - lineStart + 1, tag: tagName(bytes, lineStart, end),
                    message: "control character 0x\(String(bytes[at], radix: 16)) is not allowed in a playlist")
            }

            // Trim white space; strict reports it.
            var s = lineStart
            var e = end
            while s < e, bytes[s] == 0x20 || bytes[s] == 0x09 { s += 1 }
            while e > s, bytes[e - 1] == 0x20 || bytes[e - 1] == 0x09 || bytes[e - 1] == 0x0D { e -= 1 }
            if s == e { continue }  // blank line
            if s != lineStart || e != end {
                sink.report(
                    .whitespace, line: lineNumber, column: s != lineStart ? 1 : e - lineStart + 1, tag: tagName(bytes, s, e),
                    message: s != lineStart ? "white space at the start of the line" : "white space at the end of the line")
            }

            if !sawHeader {
                if isEXTM3U(bytes, s, e) {
                    sawHeader = true
                    continue
                }
                if bytes[s] == UInt8(ascii: "#"), !startsWithEXT(bytes, s, e), !sink.isStrict {
                    sink.report(.advisory, line: lineNumber, column: 1, message: "comment before #EXTM3U skipped")
                    continue
                }
                sink.report(
                    .fatal, line: lineNumber, column: 1,
                    message: "not a playlist: the first line must be #EXTM3U")
                return
            }

            if hasReference, let substituted = substituteVariables(bytes, s, e, line: lineNumber) {
                substituted.withUnsafeBufferPointer { handleLine($0, 0, $0.count, line: lineNumber) }
            } else {
                handleLine(bytes, s, e, line: lineNumber)
            }
        }
        if !sawHeader, !sink.hasFatal {
            sink.report(.fatal, line: max(lineNumber, 1), column: 1, message: "not a playlist: no #EXTM3U header")
        }
        // A file that ends without a newline inside a quoted string was cut short.
        if count > 0, bytes[count - 1] != 0x0A,
            sink.diagnostics.last.map({ $0.line == lineNumber && $0.message.hasPrefix("quoted string is not closed") }) == true
        {
            sink.report(.advisory, line: lineNumber, column: 1, message: "playlist is truncated: it ends inside a quoted string")
        }
    }

    func isEXTM3U(_ b: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int) -> Bool {
        let tag = Array("#EXTM3U".utf8)
        guard e - s == tag.count else { return false }
        for k in 0..<tag.count where b[s + k] != tag[k] { return false }
        return true
    }

    func startsWithEXT(_ b: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int) -> Bool {
        e - s >= 4 && b[s] == 0x23 && b[s + 1] == 0x45 && b[s + 2] == 0x58 && b[s + 3] == 0x54
    }

    func tagName(_ b: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int) -> String? {
        guard startsWithEXT(b, s, e) else { return nil }
        var i = s + 1
        while i < e, b[i] != UInt8(ascii: ":") { i += 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: b[(s + 1)..<i]), as: UTF8.self)
    }

    mutating func handleLine(_ b: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int, line: Int) {
        guard b[s] == UInt8(ascii: "#") else {
            handleURI(String(decoding: UnsafeBufferPointer(rebasing: b[s..<e]), as: UTF8.self), line: line)
            return
        }
        guard startsWithEXT(b, s, e) else { return }  // a comment
        // The tag every segment has gets a byte-level path.
        if e - s > 8, b[s + 1] == 0x45, b[s + 2] == 0x58, b[s + 3] == 0x54, b[s + 4] == 0x49, b[s + 5] == 0x4E,
            b[s + 6] == 0x46, b[s + 7] == 0x3A, mediaLine != nil, pendingVariant == nil, segment.duration == nil,
            fastEXTINF(b, s + 8, e, line: line)
        {
            return
        }
        if mediaLine != nil, pendingVariant == nil, Self.hasPrefix(b, s, e, Self.programDateTimePrefix),
            let date = DateParsing.date(bytes: UnsafeBufferPointer(rebasing: b[(s + Self.programDateTimePrefix.count)..<e]))
        {
            let text = String(decoding: UnsafeBufferPointer(rebasing: b[(s + Self.programDateTimePrefix.count)..<e]), as: UTF8.self)
            segment.programDateTime = PlaylistDate(text: text, date: date)
            return
        }
        var colon = s + 1
        while colon < e, b[colon] != UInt8(ascii: ":") { colon += 1 }
        let name = String(decoding: UnsafeBufferPointer(rebasing: b[(s + 1)..<colon]), as: UTF8.self)
        let valueStart = min(colon + 1, e)
        let hasValue = colon < e
        let tag = TagLine(
            bytes: b, name: name, valueStart: valueStart, end: e, hasValue: hasValue, line: line,
            column: valueStart - s + 1)

        let scope = Self.scope(of: name)
        switch scope {
        case .multivariant:
            guard claim(.multivariant, tag) else { return }
        case .media:
            guard claim(.media, tag) else { return }
        case .common, .unknown:
            break
        }
        if pendingVariant != nil {
            abandonPendingVariant(before: tag)
        }
        switch scope {
        case .common: handleCommonTag(tag)
        case .multivariant: handleMultivariantTag(tag)
        case .media: handleMediaTag(tag)
        case .unknown:
            let unknown = UnknownTag(name: name, value: hasValue ? tag.value : nil)
            if multivariantLine != nil { multivariant.unknownTags.append(unknown) } else { segment.unknownTags.append(unknown) }
        }
    }

    /// The first position at or after `start` where a run of eight plain bytes (0x20…0x7F
    /// other than '$') stops; word-at-a-time tests from "Bit Twiddling Hacks" (`hasless`,
    /// `haszero`), which are exact about whether such a byte exists.
    @inline(__always)
    static func skipPlainBytes(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return start }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let dollars = ones &* 0x24
        var pos = start
        while pos + 8 <= bytes.count {
            let x = UInt64(littleEndian: UnsafeRawPointer(base + pos).loadUnaligned(as: UInt64.self))
            let below20 = (x &- ones &* 0x20) & ~x & highs
            let d = x ^ dollars
            let dollar = (d &- ones) & ~d & highs
            if (below20 | dollar | (x & highs)) != 0 { break }
            pos += 8
        }
        return pos
    }

    static let programDateTimePrefix = Array("#EXT-X-PROGRAM-DATE-TIME:".utf8)

    static func hasPrefix(_ b: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int, _ prefix: [UInt8]) -> Bool {
        guard e - s > prefix.count else { return false }
        for k in 0..<prefix.count where b[s + k] != prefix[k] { return false }
        return true
    }

    /// Records which kind of playlist a tag belongs to; a playlist with both kinds is not parsed.
    mutating func claim(_ scope: TagScope, _ tag: TagLine) -> Bool {
        switch scope {
        case .multivariant:
            if let m = mediaLine {
                sink.report(
                    .fatal, line: tag.line, column: 1, tag: tag.name,
                    message: "multivariant playlist tag in a media playlist (media tags since line \(m)); a playlist must not contain both")
                stopped = true
                return false
            }
            if multivariantLine == nil { multivariantLine = tag.line }
        case .media:
            if let m = multivariantLine {
                sink.report(
                    .fatal, line: tag.line, column: 1, tag: tag.name,
                    message: "media playlist tag in a multivariant playlist (multivariant tags since line \(m)); a playlist must not contain both")
                stopped = true
                return false
            }
            if mediaLine == nil { mediaLine = tag.line }
        default: break
        }
        return true
    }

    static func scope(of name: String) -> TagScope {
        scopes[name] ?? .unknown
    }

    static let scopes: [String: TagScope] = {
        var table: [String: TagScope] = [:]
        for name in [
            "EXTM3U", "EXT-X-VERSION", "EXT-X-INDEPENDENT-SEGMENTS", "EXT-X-START", "EXT-X-DEFINE",
            "EXT-X-MEDIA", "EXT-X-STREAM-INF", "EXT-X-I-FRAME-STREAM-INF", "EXT-X-IMAGE-STREAM-INF",
            "EXT-X-SESSION-DATA", "EXT-X-SESSION-KEY", "EXT-X-CONTENT-STEERING",
            "EXTINF", "EXT-X-TARGETDURATION", "EXT-X-MEDIA-SEQUENCE", "EXT-X-DISCONTINUITY-SEQUENCE",
            "EXT-X-ENDLIST", "EXT-X-PLAYLIST-TYPE", "EXT-X-I-FRAMES-ONLY", "EXT-X-IMAGES-ONLY", "EXT-X-PART-INF",
            "EXT-X-SERVER-CONTROL", "EXT-X-BYTERANGE", "EXT-X-DISCONTINUITY", "EXT-X-KEY", "EXT-X-MAP",
            "EXT-X-PROGRAM-DATE-TIME", "EXT-X-DATERANGE", "EXT-X-SKIP", "EXT-X-PRELOAD-HINT",
            "EXT-X-RENDITION-REPORT", "EXT-X-GAP", "EXT-X-BITRATE", "EXT-X-PART", "EXT-X-TILES",
        ] {
            table[name] = classify(name)
        }
        return table
    }()

    static func classify(_ name: String) -> TagScope {
        switch name {
        case "EXTM3U", "EXT-X-VERSION", "EXT-X-INDEPENDENT-SEGMENTS", "EXT-X-START", "EXT-X-DEFINE":
            return .common
        case "EXT-X-MEDIA", "EXT-X-STREAM-INF", "EXT-X-I-FRAME-STREAM-INF", "EXT-X-IMAGE-STREAM-INF",
            "EXT-X-SESSION-DATA", "EXT-X-SESSION-KEY", "EXT-X-CONTENT-STEERING":
            return .multivariant
        case "EXTINF", "EXT-X-TARGETDURATION", "EXT-X-MEDIA-SEQUENCE", "EXT-X-DISCONTINUITY-SEQUENCE",
            "EXT-X-ENDLIST", "EXT-X-PLAYLIST-TYPE", "EXT-X-I-FRAMES-ONLY", "EXT-X-IMAGES-ONLY", "EXT-X-PART-INF",
            "EXT-X-SERVER-CONTROL", "EXT-X-BYTERANGE", "EXT-X-DISCONTINUITY", "EXT-X-KEY", "EXT-X-MAP",
            "EXT-X-PROGRAM-DATE-TIME", "EXT-X-DATERANGE", "EXT-X-SKIP", "EXT-X-PRELOAD-HINT",
            "EXT-X-RENDITION-REPORT", "EXT-X-GAP", "EXT-X-BITRATE", "EXT-X-PART", "EXT-X-TILES":
            return .media
        default:
            return .unknown
        }
    }

    mutating func handleURI(_ uri: String, line: Int) {
        if multivariantLine != nil || pendingVariant != nil {
            guard var pending = pendingVariant else {
                sink.report(
                    .specViolation, line: line, column: 1,
                    message: "URI line '\(uri)' does not follow an EXT-X-STREAM-INF tag; ignored")
                return
            }
            pendingVariant = nil
            guard pending.usable else { return }
            pending.variant.uri = uri
            multivariant.variants.append(pending.variant)
            return
        }
        if mediaLine == nil { mediaLine = line }
        completeSegment(uri: uri, line: line)
    }

    mutating func abandonPendingVariant(before tag: TagLine?) {
        guard let pending = pendingVariant else { return }
        pendingVariant = nil
        let what = tag.map { "is followed by \($0.name) on line \($0.line)" } ?? "is at the end of the playlist"
        sink.report(
            .specViolation, line: pending.line, column: 1, tag: "EXT-X-STREAM-INF",
            message: "has no URI line: it \(what)\(sink.isStrict ? "" : "; variant dropped")")
    }

    // MARK: Common tags

    mutating func handleCommonTag(_ tag: TagLine) {
        switch tag.name {
        case "EXTM3U":
            sink.report(.advisory, line: tag.line, column: 1, tag: tag.name, message: "repeated #EXTM3U ignored")
        case "EXT-X-VERSION":
            if version != nil {
                sink.report(.specViolation, line: tag.line, column: 1, tag: tag.name, message: "appears more than once")
            }
            if let v = tag.integer(&sink) { version = Int(clamping: v) }
        case "EXT-X-INDEPENDENT-SEGMENTS":
            independentSegments = true
        case "EXT-X-START":
            guard var r = tag.attributes(&sink) else { return }
            guard let offset = r.float("TIME-OFFSET", signed: true, &sink) else {
                if !r.has("TIME-OFFSET") { missing(tag, "TIME-OFFSET") }
                return
            }
            start = StartPoint(timeOffset: offset, precise: r.yesNo("PRECISE", &sink) ?? false)
        case "EXT-X-DEFINE":
            handleDefine(tag)
        default: break
        }
    }

    mutating func missing(_ tag: TagLine, _ attribute: String, _ rule: Rule = .missingRequired) {
        sink.report(
            rule, line: tag.line, column: tag.column, tag: tag.name, attribute: attribute,
            message: "required attribute \(attribute) is missing")
    }

    // MARK: Finish

    mutating func finish() -> ParseResult {
        sink.closeWarnings(line: max(lastLine, 1))
        if stopped || sink.hasFatal {
            return ParseResult(playlist: nil, diagnostics: sink.diagnostics)
        }
        if multivariantLine != nil {
            abandonPendingVariant(before: nil)
            multivariant.version = version
            multivariant.independentSegments = independentSegments
            multivariant.start = start
            multivariant.definitions = definitions
            multivariant.unknownTags = segment.unknownTags + multivariant.unknownTags
            return ParseResult(playlist: .multivariant(multivariant), diagnostics: sink.diagnostics)
        }
        finishMedia()
        return ParseResult(playlist: .media(media), diagnostics: sink.diagnostics)
    }
}

/// One tag line: its name and the bytes of its value.
struct TagLine {
    let bytes: UnsafeBufferPointer<UInt8>
    let name: String
    let valueStart: Int
    let end: Int
    let hasValue: Bool
    let line: Int
    /// 1-based column where the value starts.
    let column: Int

    var value: String { String(decoding: UnsafeBufferPointer(rebasing: bytes[valueStart..<end]), as: UTF8.self) }

    /// The attribute list, or nil (after a diagnostic) when it cannot be used.
    func attributes(_ sink: inout DiagnosticSink) -> AttributeReader? {
        if !hasValue || valueStart == end {
            // An empty list is a list without attributes: the tag's own rules report what is missing.
            sink.report(.specViolation, line: line, column: column, tag: name, message: "expected an attribute list")
            return AttributeReader(tag: name, line: line, parsed: AttributeListParser.Parsed())
        }
        let parsed = AttributeListParser.parse(bytes, valueStart, end, baseColumn: column, tag: name, line: line, sink: &sink)
        if !parsed.complete { return nil }
        return AttributeReader(tag: name, line: line, parsed: parsed)
    }

    /// The attribute list even when it could not be read to its end.
    func partialAttributes(_ sink: inout DiagnosticSink) -> (AttributeReader, complete: Bool) {
        let parsed = AttributeListParser.parse(bytes, valueStart, end, baseColumn: column, tag: name, line: line, sink: &sink)
        return (AttributeReader(tag: name, line: line, parsed: parsed), parsed.complete)
    }

    /// A decimal-integer value (`#EXT-X-TARGETDURATION:10`).
    func integer(_ sink: inout DiagnosticSink) -> UInt64? {
        guard hasValue else {
            sink.report(.specViolation, line: line, column: column, tag: name, message: "expected a decimal-integer value")
            return nil
        }
        return DecimalParsing.integer(value, line: line, column: column, tag: name, attribute: nil, sink: &sink)
    }
}
