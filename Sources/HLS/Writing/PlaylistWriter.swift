import Foundation

/// Writes playlists as conformant text. Parsing the output gives back an equal playlist
/// (`parse(write(p)) == p`); tags are written in a canonical order.
public enum PlaylistWriter {
    public static func write(_ playlist: Playlist) -> String {
        switch playlist {
        case .multivariant(let p): return write(p)
        case .media(let p): return write(p)
        }
    }

    public static func write(_ p: MultivariantPlaylist) -> String {
        var out = "#EXTM3U\n"
        header(&out, version: p.version, independent: p.independentSegments, start: p.start, definitions: p.definitions)
        for tag in p.unknownTags { unknown(&out, tag) }
        if let s = p.contentSteering {
            var a = AttributeListWriter()
            a.quoted("SERVER-URI", s.serverURI)
            a.quoted("PATHWAY-ID", s.pathwayID)
            a.attributes(s.otherAttributes)
            out += "#EXT-X-CONTENT-STEERING:\(a.text)\n"
        }
        for d in p.sessionData {
            var a = AttributeListWriter()
            a.quoted("DATA-ID", d.dataID)
            a.quoted("VALUE", d.value)
            a.quoted("URI", d.uri)
            a.enumerated("FORMAT", d.format)
            a.quoted("LANGUAGE", d.language)
            a.attributes(d.otherAttributes)
            out += "#EXT-X-SESSION-DATA:\(a.text)\n"
        }
        for k in p.sessionKeys { out += "#EXT-X-SESSION-KEY:\(keyAttributes(k))\n" }
        for r in p.renditions { out += "#EXT-X-MEDIA:\(renditionAttributes(r))\n" }
        for v in p.variants {
            var a = streamAttributes(v.attributes, frameRate: v.frameRate)
            a.quoted("AUDIO", v.audio)
            a.quoted("SUBTITLES", v.subtitles)
            if v.closedCaptionsNone { a.enumerated("CLOSED-CAPTIONS", "NONE") } else { a.quoted("CLOSED-CAPTIONS", v.closedCaptions) }
            a.attributes(v.attributes.otherAttributes)
            out += "#EXT-X-STREAM-INF:\(a.text)\n\(v.uri)\n"
        }
        for v in p.iFrameVariants {
            var a = streamAttributes(v.attributes, frameRate: nil)
            a.quoted("URI", v.uri)
            a.attributes(v.attributes.otherAttributes)
            out += "#EXT-X-I-FRAME-STREAM-INF:\(a.text)\n"
        }
        for v in p.imageVariants {
            var a = streamAttributes(v.attributes, frameRate: nil)
            a.quoted("URI", v.uri)
            a.attributes(v.attributes.otherAttributes)
            out += "#EXT-X-IMAGE-STREAM-INF:\(a.text)\n"
        }
        return out
    }

    public static func write(_ p: MediaPlaylist) -> String {
        var out = "#EXTM3U\n"
        out.reserveCapacity(64 + p.segments.count * 48)
        header(&out, version: p.version, independent: false, start: nil, definitions: [])
        if let t = p.targetDuration { out += "#EXT-X-TARGETDURATION:\(t)\n" }
        if p.mediaSequence != 0 { out += "#EXT-X-MEDIA-SEQUENCE:\(p.mediaSequence)\n" }
        if p.discontinuitySequence != 0 { out += "#EXT-X-DISCONTINUITY-SEQUENCE:\(p.discontinuitySequence)\n" }
        if let t = p.playlistType { out += "#EXT-X-PLAYLIST-TYPE:\(t.rawValue)\n" }
        if p.iFramesOnly { out += "#EXT-X-I-FRAMES-ONLY\n" }
        if p.imagesOnly { out += "#EXT-X-IMAGES-ONLY\n" }
        header(&out, version: nil, independent: p.independentSegments, start: p.start, definitions: p.definitions)
        if let c = p.serverControl {
            var a = AttributeListWriter()
            a.float("CAN-SKIP-UNTIL", c.canSkipUntil)
            a.yes("CAN-SKIP-DATERANGES", c.canSkipDateRanges)
            a.float("HOLD-BACK", c.holdBack)
            a.float("PART-HOLD-BACK", c.partHoldBack)
            a.yes("CAN-BLOCK-RELOAD", c.canBlockReload)
            a.attributes(c.otherAttributes)
            out += "#EXT-X-SERVER-CONTROL:\(a.text)\n"
        }
        if let i = p.partInformation { out += "#EXT-X-PART-INF:PART-TARGET=\(decimal(i.partTarget))\n" }
        if let s = p.skip {
            var a = AttributeListWriter()
            a.integer("SKIPPED-SEGMENTS", s.skippedSegments)
            if !s.recentlyRemovedDateRanges.isEmpty { a.quoted("RECENTLY-REMOVED-DATERANGES", s.recentlyRemovedDateRanges.joined(separator: "\t")) }
            out += "#EXT-X-SKIP:\(a.text)\n"
        }

        var rangesByIndex: [Int: [DateRange]] = [:]
        for r in p.dateRanges { rangesByIndex[r.segmentIndex, default: []].append(r) }
        var keys: [EncryptionKey] = []
        var map: MediaInitializationSection?
        var bitrate: Int?
        for (i, s) in p.segments.enumerated() {
            for r in rangesByIndex[i] ?? [] { out += "#EXT-X-DATERANGE:\(dateRangeAttributes(r))\n" }
            for tag in s.unknownTags { unknown(&out, tag) }
            if s.keys != keys {
                // A key of one KEYFORMAT replaces the previous key of that format in place. When
                // the formats in force change in any other way, METHOD=NONE (which clears all)
                // then every key in force, in order.
                let sameFormats = keys.map(\.keyFormat) == s.keys.map(\.keyFormat)
                if !sameFormats { out += "#EXT-X-KEY:METHOD=NONE\n" }
                for k in s.keys where !sameFormats || !keys.contains(k) { out += "#EXT-X-KEY:\(keyAttributes(k))\n" }
                keys = s.keys
            }
            if s.map != map, let m = s.map {
                var a = AttributeListWriter()
                a.quoted("URI", m.uri)
                a.quoted("BYTERANGE", m.byteRange?.description)
                a.attributes(m.otherAttributes)
                out += "#EXT-X-MAP:\(a.text)\n"
                map = m
            }
            if s.bitrate != bitrate, let b = s.bitrate {
                out += "#EXT-X-BITRATE:\(b)\n"
                bitrate = b
            }
            if s.discontinuity { out += "#EXT-X-DISCONTINUITY\n" }
            if let d = s.programDateTime { out += "#EXT-X-PROGRAM-DATE-TIME:\(d.text)\n" }
            if s.gap { out += "#EXT-X-GAP\n" }
            if let t = s.tiles {
                var a = AttributeListWriter()
                a.enumerated("RESOLUTION", t.resolution?.description)
                a.enumerated("LAYOUT", "\(t.columns)x\(t.rows)")
                a.float("DURATION", t.duration)
                a.attributes(t.otherAttributes)
                out += "#EXT-X-TILES:\(a.text)\n"
            }
            for part in s.parts { out += "#EXT-X-PART:\(partAttributes(part))\n" }
            out += "#EXTINF:"
            out += decimal(s.duration)
            out += ","
            if let title = s.title { out += title }
            out += "\n"
            if let r = s.byteRange { out += "#EXT-X-BYTERANGE:\(r.description)\n" }
            out += s.uri
            out += "\n"
        }
        for r in rangesByIndex[p.segments.count] ?? [] { out += "#EXT-X-DATERANGE:\(dateRangeAttributes(r))\n" }
        for tag in p.trailingUnknownTags { unknown(&out, tag) }
        for part in p.trailingParts { out += "#EXT-X-PART:\(partAttributes(part))\n" }
        for h in p.preloadHints {
            var a = AttributeListWriter()
            a.enumerated("TYPE", h.type)
            a.quoted("URI", h.uri)
            a.integer("BYTERANGE-START", h.byteRangeStart)
            a.integer("BYTERANGE-LENGTH", h.byteRangeLength)
            out += "#EXT-X-PRELOAD-HINT:\(a.text)\n"
        }
        for r in p.renditionReports {
            var a = AttributeListWriter()
            a.quoted("URI", r.uri)
            a.integer("LAST-MSN", r.lastMediaSequence)
            a.integer("LAST-PART", r.lastPart)
            out += "#EXT-X-RENDITION-REPORT:\(a.text)\n"
        }
        if p.endList { out += "#EXT-X-ENDLIST\n" }
        return out
    }

    // MARK: Pieces

    static func header(_ out: inout String, version: Int?, independent: Bool, start: StartPoint?, definitions: [VariableDefinition]) {
        if let v = version { out += "#EXT-X-VERSION:\(v)\n" }
        if independent { out += "#EXT-X-INDEPENDENT-SEGMENTS\n" }
        if let s = start {
            var a = AttributeListWriter()
            a.float("TIME-OFFSET", s.timeOffset)
            a.yes("PRECISE", s.precise)
            out += "#EXT-X-START:\(a.text)\n"
        }
        for d in definitions {
            var a = AttributeListWriter()
            switch d {
            case .value(let name, let value):
                a.quoted("NAME", name)
                a.quoted("VALUE", value)
            case .import(let name): a.quoted("IMPORT", name)
            case .queryParameter(let name): a.quoted("QUERYPARAM", name)
            }
            out += "#EXT-X-DEFINE:\(a.text)\n"
        }
    }

    static func unknown(_ out: inout String, _ tag: UnknownTag) {
        out += "#\(tag.name)"
        if let v = tag.value { out += ":\(v)" }
        out += "\n"
    }

    static func streamAttributes(_ s: StreamAttributes, frameRate: Double?) -> AttributeListWriter {
        var a = AttributeListWriter()
        a.integer("BANDWIDTH", s.bandwidth)
        a.integer("AVERAGE-BANDWIDTH", s.averageBandwidth)
        a.float("SCORE", s.score)
        a.list("CODECS", s.codecs)
        a.list("SUPPLEMENTAL-CODECS", s.supplementalCodecs)
        a.enumerated("RESOLUTION", s.resolution?.description)
        a.float("FRAME-RATE", frameRate)
        a.enumerated("HDCP-LEVEL", s.hdcpLevel)
        a.quoted("ALLOWED-CPC", s.allowedCPC)
        a.enumerated("VIDEO-RANGE", s.videoRange?.rawValue)
        a.quoted("REQ-VIDEO-LAYOUT", s.requiredVideoLayout)
        a.quoted("STABLE-VARIANT-ID", s.stableVariantID)
        a.quoted("VIDEO", s.video)
        a.quoted("PATHWAY-ID", s.pathwayID)
        a.integer("PROGRAM-ID", s.programID)
        return a
    }

    static func renditionAttributes(_ r: Rendition) -> String {
        var a = AttributeListWriter()
        a.enumerated("TYPE", r.type.rawValue)
        a.quoted("GROUP-ID", r.groupID)
        a.quoted("NAME", r.name)
        a.quoted("LANGUAGE", r.language)
        a.quoted("ASSOC-LANGUAGE", r.associatedLanguage)
        a.quoted("STABLE-RENDITION-ID", r.stableRenditionID)
        a.yes("DEFAULT", r.isDefault)
        a.yes("AUTOSELECT", r.autoselect)
        a.yes("FORCED", r.forced)
        a.quoted("INSTREAM-ID", r.instreamID)
        a.integer("BIT-DEPTH", r.bitDepth)
        a.integer("SAMPLE-RATE", r.sampleRate)
        a.list("CHARACTERISTICS", r.characteristics)
        a.quoted("CHANNELS", r.channels?.text)
        a.quoted("URI", r.uri)
        a.attributes(r.otherAttributes)
        return a.text
    }

    static func keyAttributes(_ k: EncryptionKey) -> String {
        var a = AttributeListWriter()
        a.enumerated("METHOD", k.method.text)
        a.quoted("URI", k.uri)
        a.hex("IV", k.iv)
        a.quoted("KEYFORMAT", k.keyFormat)
        a.quoted("KEYFORMATVERSIONS", k.keyFormatVersions)
        a.attributes(k.otherAttributes)
        return a.text
    }

    static func partAttributes(_ p: PartialSegment) -> String {
        var a = AttributeListWriter()
        a.float("DURATION", p.duration)
        a.quoted("URI", p.uri)
        a.yes("INDEPENDENT", p.independent)
        a.quoted("BYTERANGE", p.byteRange?.description)
        a.yes("GAP", p.gap)
        a.attributes(p.otherAttributes)
        return a.text
    }

    static func dateRangeAttributes(_ r: DateRange) -> String {
        var a = AttributeListWriter()
        a.quoted("ID", r.id)
        a.quoted("CLASS", r.classValue)
        a.quoted("START-DATE", r.startDate?.text)
        a.list("CUE", r.cue)
        a.quoted("END-DATE", r.endDate?.text)
        a.float("DURATION", r.duration)
        a.float("PLANNED-DURATION", r.plannedDuration)
        a.enumerated("SCTE35-CMD", r.scte35Command)
        a.enumerated("SCTE35-OUT", r.scte35Out)
        a.enumerated("SCTE35-IN", r.scte35In)
        a.yes("END-ON-NEXT", r.endOnNext)
        a.attributes(r.otherAttributes)
        a.attributes(r.clientAttributes)
        return a.text
    }

    /// A decimal number without exponent, as short as round-tripping allows.
    static func decimal(_ d: Double) -> String {
        let s = "\(d)"
        if s.contains("e") || s.contains("E") {
            var f = String(format: "%.9f", d)
            while f.hasSuffix("0") { f.removeLast() }
            if f.hasSuffix(".") { f.removeLast() }
            return f
        }
        return s.hasSuffix(".0") ? String(s.dropLast(2)) : s
    }
}
