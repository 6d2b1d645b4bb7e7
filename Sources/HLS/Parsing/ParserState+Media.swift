import Foundation

extension ParserState {
    mutating func handleMediaTag(_ tag: TagLine) {
        switch tag.name {
        case "EXTINF": handleEXTINF(tag)
        case "EXT-X-TARGETDURATION":
            if media.targetDuration != nil {
                sink.report(.specViolation, line: tag.line, column: 1, tag: tag.name, message: "appears more than once")
            }
            if let v = tag.integer(&sink) { media.targetDuration = Int(clamping: v) }
        case "EXT-X-MEDIA-SEQUENCE":
            if let first = mediaSequenceLine {
                sink.report(
                    .specViolation, line: tag.line, column: 1, tag: tag.name,
                    message: "appears more than once (first on line \(first))" + (sink.isStrict ? "" : "; the last one is used"))
            }
            guard let v = tag.integer(&sink) else { return }
            if sawSegment || segment.duration != nil {
                sink.report(
                    .specViolation, line: tag.line, column: 1, tag: tag.name,
                    message: "must appear before the first media segment" + (sink.isStrict ? "" : "; applied to the whole playlist (first segment = \(v))"))
            }
            mediaSequenceLine = tag.line
            media.mediaSequence = v
        case "EXT-X-DISCONTINUITY-SEQUENCE":
            reportRepeatedPlaylistTag(tag)
            if let v = tag.integer(&sink) { media.discontinuitySequence = v }
        case "EXT-X-ENDLIST":
            reportRepeatedPlaylistTag(tag)
            media.endList = true
        case "EXT-X-PLAYLIST-TYPE":
            reportRepeatedPlaylistTag(tag)
            guard let type = PlaylistType(rawValue: tag.value) else {
                sink.report(.invalidValue, line: tag.line, column: tag.column, tag: tag.name, message: "expected VOD or EVENT, found \(tag.value)")
                return
            }
            media.playlistType = type
        case "EXT-X-I-FRAMES-ONLY":
            reportRepeatedPlaylistTag(tag)
            media.iFramesOnly = true
        case "EXT-X-IMAGES-ONLY":
            reportRepeatedPlaylistTag(tag)
            media.imagesOnly = true
        case "EXT-X-PART-INF":
            reportRepeatedPlaylistTag(tag)
            guard var r = tag.attributes(&sink) else { return }
            guard let target = r.float("PART-TARGET", &sink) else { return missing(tag, "PART-TARGET") }
            media.partInformation = PartInformation(partTarget: target)
        case "EXT-X-SERVER-CONTROL":
            reportRepeatedPlaylistTag(tag)
            guard var r = tag.attributes(&sink) else { return }
            var control = ServerControl()
            control.canSkipUntil = r.float("CAN-SKIP-UNTIL", &sink)
            control.canSkipDateRanges = r.yesNo("CAN-SKIP-DATERANGES", &sink) ?? false
            control.holdBack = r.float("HOLD-BACK", &sink)
            control.partHoldBack = r.float("PART-HOLD-BACK", &sink)
            control.canBlockReload = r.yesNo("CAN-BLOCK-RELOAD", &sink) ?? false
            control.otherAttributes = r.others
            media.serverControl = control
        case "EXT-X-BYTERANGE":
            guard tag.hasValue, let range = DecimalParsing.byteRange(tag.value) else {
                sink.report(.invalidValue, line: tag.line, column: tag.column, tag: tag.name, message: "expected length[@offset], found '\(tag.value)'")
                return
            }
            segment.byteRange = range
            segment.byteRangeLine = tag.line
        case "EXT-X-DISCONTINUITY": segment.discontinuity = true
        case "EXT-X-KEY":
            guard let key = encryptionKey(tag) else { return }
            if key.method == .none {
                currentKeys = []
            } else if let i = currentKeys.firstIndex(where: { $0.keyFormat == key.keyFormat }) {
                currentKeys[i] = key
            } else {
                currentKeys.append(key)
            }
        case "EXT-X-MAP":
            guard var r = tag.attributes(&sink) else { return }
            guard let uri = r.quoted("URI", &sink) else { return missing(tag, "URI") }
            var map = MediaInitializationSection(uri: uri, byteRange: r.byteRange("BYTERANGE", &sink))
            map.otherAttributes = r.others
            currentMap = map
        case "EXT-X-PROGRAM-DATE-TIME":
            guard let date = DateParsing.date(tag.value) else {
                sink.report(.invalidValue, line: tag.line, column: tag.column, tag: tag.name, message: "expected an ISO 8601 date-time, found '\(tag.value)'")
                return
            }
            segment.programDateTime = PlaylistDate(text: tag.value, date: date)
        case "EXT-X-GAP": segment.gap = true
        case "EXT-X-BITRATE":
            if let v = tag.integer(&sink) { currentBitrate = Int(clamping: v) }
        case "EXT-X-TILES":
            guard var r = tag.attributes(&sink) else { return }
            let resolution = r.resolution("RESOLUTION", &sink)
            guard let layout = r.raw("LAYOUT"), let grid = DecimalParsing.resolution(layout.text, separator: UInt8(ascii: "x")) else {
                sink.report(
                    .missingRequired, line: tag.line, column: tag.column, tag: tag.name, attribute: "LAYOUT",
                    message: "required attribute LAYOUT (COLUMNSxROWS) is missing or malformed")
                return
            }
            var tiles = Tiles(resolution: resolution, columns: grid.width, rows: grid.height, duration: r.float("DURATION", &sink))
            tiles.otherAttributes = r.others
            segment.tiles = tiles
        case "EXT-X-PART":
            guard var r = tag.attributes(&sink) else { return }
            guard let uri = r.quoted("URI", &sink) else { return missing(tag, "URI") }
            guard let duration = r.float("DURATION", &sink) else { return missing(tag, "DURATION") }
            var part = PartialSegment(uri: uri, duration: duration)
            part.independent = r.yesNo("INDEPENDENT", &sink) ?? false
            part.byteRange = r.byteRange("BYTERANGE", &sink)
            part.gap = r.yesNo("GAP", &sink) ?? false
            part.otherAttributes = r.others
            if firstPartLine == nil { firstPartLine = tag.line }
            segment.parts.append(part)
        case "EXT-X-PRELOAD-HINT":
            guard var r = tag.attributes(&sink) else { return }
            guard let type = r.enumerated("TYPE", &sink) else { return missing(tag, "TYPE") }
            guard let uri = r.quoted("URI", &sink) else { return missing(tag, "URI") }
            var hint = PreloadHint(type: type, uri: uri)
            hint.byteRangeStart = r.unsigned("BYTERANGE-START", &sink)
            hint.byteRangeLength = r.unsigned("BYTERANGE-LENGTH", &sink)
            if firstPartLine == nil, type == "PART" { firstPartLine = tag.line }
            media.preloadHints.append(hint)
        case "EXT-X-RENDITION-REPORT":
            guard var r = tag.attributes(&sink) else { return }
            guard let uri = r.quoted("URI", &sink) else { return missing(tag, "URI") }
            var report = RenditionReport(uri: uri)
            report.lastMediaSequence = r.unsigned("LAST-MSN", &sink)
            report.lastPart = r.unsigned("LAST-PART", &sink)
            media.renditionReports.append(report)
        case "EXT-X-SKIP":
            guard var r = tag.attributes(&sink) else { return }
            guard let count = r.unsigned("SKIPPED-SEGMENTS", &sink) else { return missing(tag, "SKIPPED-SEGMENTS") }
            var skip = Skip(skippedSegments: count)
            skip.recentlyRemovedDateRanges = (r.quoted("RECENTLY-REMOVED-DATERANGES", &sink) ?? "")
                .split(separator: "\t").map(String.init)
            media.skip = skip
        case "EXT-X-DATERANGE": handleDateRange(tag)
        default: break
        }
    }

    /// Media playlist tags that describe the whole playlist appear at most once (RFC 8216bis
    /// 4.4.3); a repeat is a MUST violation, an error when strict and a warning when lenient.
    mutating func reportRepeatedPlaylistTag(_ tag: TagLine) {
        if let first = playlistTagLines[tag.name] {
            sink.report(
                .specViolation, line: tag.line, column: 1, tag: tag.name,
                message: "appears more than once (first on line \(first))" + (sink.isStrict ? "" : "; the last one is used"))
        } else {
            playlistTagLines[tag.name] = tag.line
        }
    }

    /// `#EXTINF:<decimal>,<title>` read straight from bytes; false (nothing consumed) for
    /// anything unusual, which then takes the general path with its diagnostics.
    mutating func fastEXTINF(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, line: Int) -> Bool {
        var i = start
        var mantissa: UInt64 = 0
        var digits = 0
        var fraction = 0
        var inFraction = false
        while i < end {
            let c = b[i]
            if c >= 0x30, c <= 0x39 {
                guard digits < 15 else { return false }
                mantissa = mantissa * 10 + UInt64(c - 0x30)
                digits += 1
                if inFraction { fraction += 1 }
            } else if c == UInt8(ascii: "."), !inFraction {
                inFraction = true
            } else {
                break
            }
            i += 1
        }
        // No comma: the general path reports it (the comma is part of the tag).
        guard digits > 0, i < end, b[i] == UInt8(ascii: ",") else { return false }
        // Exact integers divided by an exact power of ten: correctly rounded, like strtod.
        let duration = Double(mantissa) / Self.powersOfTen[fraction]
        segment.duration = duration
        segment.extinfLine = line
        if i < end, i + 1 < end {
            segment.title = String(decoding: UnsafeBufferPointer(rebasing: b[(i + 1)..<end]), as: UTF8.self)
        }
        if mediaLine == nil { mediaLine = line }
        return true
    }

    static let powersOfTen: [Double] = (0...15).map { pow(10, Double($0)) }

    mutating func handleEXTINF(_ tag: TagLine) {
        if segment.duration != nil {
            sink.report(
                .specViolation, line: tag.line, column: 1, tag: tag.name,
                message: "EXTINF on line \(segment.extinfLine) has no URI line before this one")
        }
        let text = tag.value
        let comma = text.firstIndex(of: ",")
        if comma == nil {
            sink.report(
                .specViolation, line: tag.line, column: tag.column + text.utf8.count, tag: tag.name,
                message: "expected a comma after the duration (#EXTINF:<duration>,[<title>])" + (sink.isStrict ? "" : "; read as if present"))
        }
        var durationText = Substring(text[..<(comma ?? text.endIndex)])
        let trimmed = durationText.trimmingWhitespace()
        if trimmed.count != durationText.count {
            sink.report(.whitespace, line: tag.line, column: tag.column, tag: tag.name, message: "white space around the duration")
            durationText = trimmed
        }
        // IPTV playlists put attributes after the duration: `-1 tvg-id="…" …,Title`.
        var extras: Substring = ""
        if let space = durationText.firstIndex(where: { $0 == " " || $0 == "\t" }) {
            extras = durationText[space...]
            durationText = durationText[..<space]
            sink.report(
                .specViolation, line: tag.line, column: tag.column, tag: tag.name,
                message: "unexpected text after the duration: \(extras.trimmingWhitespace())")
        }
        var duration: Double
        if durationText.hasPrefix("-"), let d = Double(durationText) {
            sink.report(
                .specViolation, line: tag.line, column: tag.column, tag: tag.name,
                message: "duration \(durationText) is negative" + (sink.isStrict ? "" : "; treated as 0 (unknown)"))
            duration = max(0, d) * 0
        } else if let d = DecimalParsing.float(String(durationText)) {
            duration = d
        } else {
            sink.report(
                .specViolation, line: tag.line, column: tag.column, tag: tag.name,
                message: "expected a duration in seconds, found '\(durationText)'" + (sink.isStrict ? "" : "; treated as 0"))
            duration = 0
        }
        segment.duration = duration
        segment.extinfLine = tag.line
        var title = comma.map { String(text[text.index(after: $0)...]) }
        if !extras.isEmpty {
            title = "\(extras)," + (title ?? "")
        }
        segment.title = title.flatMap { $0.isEmpty ? nil : $0 }
    }

    mutating func completeSegment(uri: String, line: Int) {
        guard let duration = segment.duration else {
            sink.report(.specViolation, line: line, column: 1, message: "URI line '\(uri)' has no EXTINF before it" + (sink.isStrict ? "" : "; ignored"))
            segment = PendingSegment(unknownTags: segment.unknownTags)
            return
        }
        if let target = media.targetDuration, duration.rounded() > Double(target) {
            sink.report(
                .specViolation, line: segment.extinfLine, column: 1, tag: "EXTINF",
                message: "duration \(Self.format(duration)) s rounds to more than EXT-X-TARGETDURATION \(target)")
        }
        var s = MediaSegment(uri: uri, duration: duration)
        s.title = segment.title
        s.discontinuity = segment.discontinuity
        s.programDateTime = segment.programDateTime
        s.gap = segment.gap
        s.tiles = segment.tiles
        s.parts = segment.parts
        s.unknownTags = segment.unknownTags
        s.keys = currentKeys
        s.map = currentMap
        s.bitrate = currentBitrate
        if let range = segment.byteRange {
            s.byteRange = range
            if let offset = range.offset {
                s.resolvedByteRangeOffset = offset
            } else if let previous = media.segments.last, previous.uri == uri, let prevRange = previous.byteRange,
                let prevOffset = previous.resolvedByteRangeOffset
            {
                s.resolvedByteRangeOffset = prevOffset + prevRange.length
            } else {
                let why =
                    media.segments.last.map { $0.byteRange == nil || $0.uri != uri ? "the previous segment is not a sub-range of \(uri)" : "" }
                    ?? "there is no previous segment"
                sink.report(
                    .specViolation, line: segment.byteRangeLine, column: 1, tag: "EXT-X-BYTERANGE",
                    message: "no offset and \(why)" + (sink.isStrict ? "" : "; offset 0 assumed"))
                s.resolvedByteRangeOffset = 0
            }
        }
        media.segments.append(s)
        sawSegment = true
        segment = PendingSegment()
    }

    mutating func handleDateRange(_ tag: TagLine) {
        guard var r = tag.attributes(&sink) else { return }
        guard let id = r.quoted("ID", &sink) else { return missing(tag, "ID") }
        var range = DateRange(id: id)
        range.classValue = r.quoted("CLASS", &sink)
        range.startDate = r.date("START-DATE", &sink)
        range.cue = (r.quoted("CUE", &sink) ?? "").split(separator: ",").map { String($0.trimmingWhitespace()) }.filter { !$0.isEmpty }
        range.endDate = r.date("END-DATE", &sink)
        range.duration = r.float("DURATION", &sink)
        range.plannedDuration = r.float("PLANNED-DURATION", &sink)
        range.endOnNext = r.yesNo("END-ON-NEXT", &sink) ?? false
        range.scte35Command = r.raw("SCTE35-CMD")?.text
        range.scte35Out = r.raw("SCTE35-OUT")?.text
        range.scte35In = r.raw("SCTE35-IN")?.text
        let rest = r.others
        range.clientAttributes = rest.filter { $0.name.hasPrefix("X-") }
        range.otherAttributes = rest.filter { !$0.name.hasPrefix("X-") }
        range.segmentIndex = media.segments.count

        if range.startDate == nil, !r.has("START-DATE") {
            sink.report(
                .missingRequired, line: tag.line, column: tag.column, tag: tag.name, attribute: "START-DATE",
                message: "required attribute START-DATE is missing")
        }
        if range.endOnNext, range.classValue == nil {
            sink.report(
                .specViolation, line: tag.line, column: r.column(of: "END-ON-NEXT"), tag: tag.name, attribute: "END-ON-NEXT",
                message: "END-ON-NEXT requires a CLASS attribute")
        }
        let existingIndex = media.dateRanges.firstIndex(where: { $0.id == id })
        if let i = existingIndex {
            let firstLine = dateRangeLines[id] ?? 0
            if let conflict = Self.conflictingAttribute(media.dateRanges[i], range) {
                sink.report(
                    .specViolation, line: tag.line, column: r.column(of: conflict), tag: tag.name, attribute: conflict,
                    message: "date range \"\(id)\" redefines \(conflict) with a different value (conflicts with line \(firstLine))"
                        + (sink.isStrict ? "" : "; first definition kept"))
                return
            }
        }
        // The rules apply to what the date range is after this tag: a later tag with the
        // same ID adds to the earlier one.
        let effective = existingIndex.map { Self.merge(media.dateRanges[$0], range) } ?? range
        if let s = effective.startDate, let e = effective.endDate, e.date < s.date {
            sink.report(
                .specViolation, line: tag.line, column: r.column(of: r.has("END-DATE") ? "END-DATE" : "START-DATE"), tag: tag.name,
                attribute: r.has("END-DATE") ? "END-DATE" : "START-DATE",
                message: "END-DATE \(e.text) is before START-DATE \(s.text)" + (sink.isStrict ? "" : "; date range ignored"))
            return
        }
        if effective.isInterstitial {
            let hasURI = effective.clientAttributes[named: "X-ASSET-URI"] != nil
            let hasList = effective.clientAttributes[named: "X-ASSET-LIST"] != nil
            if hasURI == hasList {
                sink.report(
                    .specViolation, line: tag.line, column: tag.column, tag: tag.name,
                    attribute: hasURI ? "X-ASSET-LIST" : "X-ASSET-URI",
                    message: "an interstitial must have exactly one of X-ASSET-URI and X-ASSET-LIST, found \(hasURI ? "both" : "neither")"
                        + (sink.isStrict ? "" : "; interstitial ignored"))
                return
            }
            for cue in effective.cue where !["PRE", "POST", "ONCE"].contains(cue) {
                sink.report(
                    .invalidValue, line: tag.line, column: r.column(of: "CUE"), tag: tag.name, attribute: "CUE",
                    message: "unknown cue \(cue); expected PRE, POST or ONCE")
            }
            if effective.cue.contains("PRE"), effective.cue.contains("POST") {
                sink.report(
                    .specViolation, line: tag.line, column: r.column(of: "CUE"), tag: tag.name, attribute: "CUE",
                    message: "CUE cannot be both PRE and POST" + (sink.isStrict ? "" : "; played as PRE"))
            }
            // The interstitial attributes whose values are quoted strings (enumerated ones too).
            for attribute in range.clientAttributes where Interstitial.quotedAttributes.contains(attribute.name) {
                if case .unquoted = attribute.value {
                    sink.report(
                        .specViolation, line: tag.line, column: r.column(of: attribute.name), tag: tag.name, attribute: attribute.name,
                        message: "\(attribute.name) must be a quoted string")
                }
            }
            if let label = range.clientAttributes[named: "X-SKIP-CONTROL-LABEL-ID"]?.text, !Interstitial.isValidSkipControlLabelID(label) {
                sink.report(
                    .specViolation, line: tag.line, column: r.column(of: "X-SKIP-CONTROL-LABEL-ID"), tag: tag.name,
                    attribute: "X-SKIP-CONTROL-LABEL-ID",
                    message: "X-SKIP-CONTROL-LABEL-ID may use only letters, \"-\" and \"_\" (found \"\(label.prefix(64))\")")
            }
        }
        if let i = existingIndex {
            media.dateRanges[i] = effective
            return
        }
        dateRangeLines[id] = tag.line
        media.dateRanges.append(range)
    }

    static func conflictingAttribute(_ a: DateRange, _ b: DateRange) -> String? {
        if let x = a.classValue, let y = b.classValue, x != y { return "CLASS" }
        if let x = a.startDate, let y = b.startDate, x != y { return "START-DATE" }
        if let x = a.endDate, let y = b.endDate, x != y { return "END-DATE" }
        if let x = a.duration, let y = b.duration, x != y { return "DURATION" }
        if let x = a.plannedDuration, let y = b.plannedDuration, x != y { return "PLANNED-DURATION" }
        for attr in b.clientAttributes { if let old = a.clientAttributes[named: attr.name], old != attr.value { return attr.name } }
        return nil
    }

    static func merge(_ a: DateRange, _ b: DateRange) -> DateRange {
        var m = a
        m.classValue = a.classValue ?? b.classValue
        m.startDate = a.startDate ?? b.startDate
        m.endDate = a.endDate ?? b.endDate
        m.duration = a.duration ?? b.duration
        m.plannedDuration = a.plannedDuration ?? b.plannedDuration
        m.endOnNext = a.endOnNext || b.endOnNext
        m.scte35Command = a.scte35Command ?? b.scte35Command
        m.scte35Out = a.scte35Out ?? b.scte35Out
        m.scte35In = a.scte35In ?? b.scte35In
        if m.cue.isEmpty { m.cue = b.cue }
        for attr in b.clientAttributes where a.clientAttributes[named: attr.name] == nil { m.clientAttributes.append(attr) }
        for attr in b.otherAttributes where a.otherAttributes[named: attr.name] == nil { m.otherAttributes.append(attr) }
        return m
    }

    mutating func finishMedia() {
        if segment.duration != nil {
            sink.report(
                .specViolation, line: segment.extinfLine, column: 1, tag: "EXTINF",
                message: "has no URI line: the playlist ends" + (sink.isStrict ? "" : "; segment dropped"))
        }
        media.trailingParts = segment.parts
        media.trailingUnknownTags = segment.unknownTags
        if media.targetDuration == nil {
            sink.report(
                .missingRequired, line: 1, column: 1, tag: "EXT-X-TARGETDURATION",
                message: "required tag is missing from the media playlist"
                    + (sink.isStrict ? "" : "; inferred as \(media.effectiveTargetDuration) from the longest segment"))
        }
        if media.partInformation == nil, let line = firstPartLine {
            sink.report(
                .missingRequired, line: line, column: 1, tag: "EXT-X-PART-INF",
                message: "required when the playlist has EXT-X-PART or EXT-X-PRELOAD-HINT tags" + (sink.isStrict ? "" : "; parts and preload hints ignored"))
            if !sink.isStrict {
                for i in media.segments.indices { media.segments[i].parts = [] }
                media.trailingParts = []
                media.preloadHints = []
            }
        }
        media.version = version
        media.independentSegments = independentSegments
        media.start = start
        media.definitions = definitions
    }

    static func format(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
    }
}
