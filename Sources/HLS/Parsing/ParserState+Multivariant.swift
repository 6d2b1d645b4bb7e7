extension ParserState {
    mutating func handleMultivariantTag(_ tag: TagLine) {
        switch tag.name {
        case "EXT-X-MEDIA": handleRendition(tag)
        case "EXT-X-STREAM-INF": handleStreamInf(tag)
        case "EXT-X-I-FRAME-STREAM-INF", "EXT-X-IMAGE-STREAM-INF":
            guard var r = tag.attributes(&sink) else { return }
            var a = streamAttributes(&r, tag)
            guard let uri = r.quoted("URI", &sink) else { return missing(tag, "URI") }
            a.otherAttributes = r.others
            if tag.name == "EXT-X-I-FRAME-STREAM-INF" {
                multivariant.iFrameVariants.append(IFrameVariantStream(uri: uri, attributes: a))
            } else {
                multivariant.imageVariants.append(ImageVariantStream(uri: uri, attributes: a))
            }
        case "EXT-X-SESSION-DATA":
            guard var r = tag.attributes(&sink) else { return }
            guard let id = r.quoted("DATA-ID", &sink) else { return missing(tag, "DATA-ID") }
            var data = SessionData(
                dataID: id, value: r.quoted("VALUE", &sink), uri: r.quoted("URI", &sink),
                language: r.quoted("LANGUAGE", &sink))
            data.format = r.enumerated("FORMAT", &sink)
            if (data.value == nil) == (data.uri == nil) {
                sink.report(
                    .specViolation, line: tag.line, column: tag.column, tag: tag.name,
                    message: "expected exactly one of VALUE or URI")
            }
            data.otherAttributes = r.others
            multivariant.sessionData.append(data)
        case "EXT-X-SESSION-KEY":
            guard let key = encryptionKey(tag) else { return }
            if key.method == .none {
                sink.report(
                    .specViolation, line: tag.line, column: tag.column, tag: tag.name, attribute: "METHOD",
                    message: "METHOD must not be NONE")
            }
            multivariant.sessionKeys.append(key)
        case "EXT-X-CONTENT-STEERING":
            guard var r = tag.attributes(&sink) else { return }
            guard let server = r.quoted("SERVER-URI", &sink) else { return missing(tag, "SERVER-URI") }
            var steering = ContentSteering(serverURI: server, pathwayID: r.quoted("PATHWAY-ID", &sink))
            steering.otherAttributes = r.others
            multivariant.contentSteering = steering
        default: break
        }
    }

    mutating func handleRendition(_ tag: TagLine) {
        guard var r = tag.attributes(&sink) else { return }
        guard let typeText = r.enumerated("TYPE", &sink) else { return missing(tag, "TYPE") }
        guard let type = MediaType(rawValue: typeText) else {
            sink.report(
                .specViolation, line: tag.line, column: r.column(of: "TYPE"), tag: tag.name, attribute: "TYPE",
                message: "expected AUDIO, VIDEO, SUBTITLES or CLOSED-CAPTIONS, found \(typeText)")
            return
        }
        guard let group = r.quoted("GROUP-ID", &sink) else { return missing(tag, "GROUP-ID") }
        let name = r.quoted("NAME", &sink)
        if name == nil { missing(tag, "NAME") }
        var rendition = Rendition(type: type, groupID: group, name: name ?? "")
        rendition.uri = r.quoted("URI", &sink)
        rendition.language = r.quoted("LANGUAGE", &sink)
        rendition.associatedLanguage = r.quoted("ASSOC-LANGUAGE", &sink)
        rendition.stableRenditionID = r.quoted("STABLE-RENDITION-ID", &sink)
        rendition.isDefault = r.yesNo("DEFAULT", &sink) ?? false
        rendition.autoselect = r.yesNo("AUTOSELECT", &sink) ?? false
        rendition.forced = r.yesNo("FORCED", &sink) ?? false
        rendition.instreamID = r.quoted("INSTREAM-ID", &sink)
        rendition.bitDepth = r.integer("BIT-DEPTH", &sink)
        rendition.sampleRate = r.integer("SAMPLE-RATE", &sink)
        rendition.characteristics = r.list("CHARACTERISTICS", &sink)
        if let channels = r.quoted("CHANNELS", &sink) {
            rendition.channels = ChannelsDescription(parsing: channels)
            if rendition.channels == nil {
                sink.report(
                    .invalidValue, line: tag.line, column: r.column(of: "CHANNELS"), tag: tag.name, attribute: "CHANNELS",
                    message: "expected a channel count first, found \"\(channels)\"")
            }
        }
        rendition.otherAttributes = r.others
        if type == .closedCaptions {
            if rendition.uri != nil {
                sink.report(
                    .specViolation, line: tag.line, column: r.column(of: "URI"), tag: tag.name, attribute: "URI",
                    message: "CLOSED-CAPTIONS renditions must not have a URI")
            }
            if rendition.instreamID == nil { missing(tag, "INSTREAM-ID") }
        }
        if rendition.autoselect == false, rendition.isDefault, r.has("AUTOSELECT") {
            sink.report(
                .specViolation, line: tag.line, column: r.column(of: "AUTOSELECT"), tag: tag.name, attribute: "AUTOSELECT",
                message: "must be YES when DEFAULT is YES")
        }
        if rendition.forced, type != .subtitles {
            sink.report(
                .specViolation, line: tag.line, column: r.column(of: "FORCED"), tag: tag.name, attribute: "FORCED",
                message: "FORCED is only allowed on SUBTITLES renditions")
        }
        multivariant.renditions.append(rendition)
    }

    mutating func handleStreamInf(_ tag: TagLine) {
        guard tag.hasValue, tag.valueStart < tag.end else {
            sink.report(
                .missingRequired, line: tag.line, column: tag.column, tag: tag.name, attribute: "BANDWIDTH",
                message: "expected an attribute list with BANDWIDTH" + (sink.isStrict ? "" : "; peak bit rate unknown"))
            pendingVariant = PendingVariant(variant: VariantStream(uri: ""), line: tag.line, usable: true)
            return
        }
        var (r, complete) = tag.partialAttributes(&sink)
        let attributes = streamAttributes(&r, tag)
        var variant = VariantStream(uri: "")
        variant.frameRate = r.float("FRAME-RATE", &sink)
        variant.audio = r.quoted("AUDIO", &sink)
        variant.subtitles = r.quoted("SUBTITLES", &sink)
        if let cc = r.raw("CLOSED-CAPTIONS") {
            switch cc {
            case .quoted(let group): variant.closedCaptions = group
            case .unquoted("NONE"): variant.closedCaptionsNone = true
            case .unquoted(let other):
                sink.report(
                    .invalidValue, line: tag.line, column: r.column(of: "CLOSED-CAPTIONS"), tag: tag.name,
                    attribute: "CLOSED-CAPTIONS", message: "expected a quoted group ID or NONE, found \(other)")
            }
        }
        variant.attributes = attributes
        variant.attributes.otherAttributes = r.others
        // In lenient mode a cut-off attribute list drops the variant; strict mode still
        // reports the missing URI line.
        pendingVariant = PendingVariant(variant: variant, line: tag.line, usable: complete)
        if !complete && !sink.isStrict { pendingVariant = nil }
    }

    /// Reads the attributes the three stream-inf tags share.
    mutating func streamAttributes(_ r: inout AttributeReader, _ tag: TagLine) -> StreamAttributes {
        var a = StreamAttributes()
        a.bandwidth = r.integer("BANDWIDTH", &sink)
        a.averageBandwidth = r.integer("AVERAGE-BANDWIDTH", &sink)
        if a.bandwidth == nil, !r.has("BANDWIDTH") {
            sink.report(
                .missingRequired, line: tag.line, column: tag.column, tag: tag.name, attribute: "BANDWIDTH",
                message: "required attribute BANDWIDTH is missing"
                    + (sink.isStrict
                        ? ""
                        : (a.averageBandwidth != nil
                            ? "; peak bit rate unknown (AVERAGE-BANDWIDTH \(a.averageBandwidth!) kept)" : "; peak bit rate unknown")))
        }
        a.score = r.float("SCORE", &sink)
        a.codecs = r.list("CODECS", &sink)
        a.supplementalCodecs = r.list("SUPPLEMENTAL-CODECS", &sink)
        a.resolution = r.resolution("RESOLUTION", &sink)
        a.hdcpLevel = r.enumerated("HDCP-LEVEL", &sink)
        a.allowedCPC = r.quoted("ALLOWED-CPC", &sink)
        if let range = r.enumerated("VIDEO-RANGE", &sink) {
            a.videoRange = VideoRange(rawValue: range)
            if a.videoRange == nil {
                sink.report(
                    .invalidValue, line: tag.line, column: r.column(of: "VIDEO-RANGE"), tag: tag.name, attribute: "VIDEO-RANGE",
                    message: "expected SDR, HLG or PQ, found \(range)")
            }
        }
        a.requiredVideoLayout = r.quoted("REQ-VIDEO-LAYOUT", &sink)
        a.stableVariantID = r.quoted("STABLE-VARIANT-ID", &sink)
        a.video = r.quoted("VIDEO", &sink)
        a.pathwayID = r.quoted("PATHWAY-ID", &sink)
        a.programID = r.integer("PROGRAM-ID", &sink)
        return a
    }

    /// EXT-X-KEY / EXT-X-SESSION-KEY attributes, IV checked to be 128 bits.
    mutating func encryptionKey(_ tag: TagLine) -> EncryptionKey? {
        guard var r = tag.attributes(&sink) else { return nil }
        guard let methodText = r.enumerated("METHOD", &sink) else {
            missing(tag, "METHOD")
            return nil
        }
        var key = EncryptionKey(method: EncryptionMethod(methodText))
        key.uri = r.quoted("URI", &sink)
        key.keyFormat = r.quoted("KEYFORMAT", &sink)
        key.keyFormatVersions = r.quoted("KEYFORMATVERSIONS", &sink)
        if let iv = r.raw("IV") {
            let column = r.column(of: "IV")
            if let bytes = DecimalParsing.hexBytes(iv.text), !iv.isQuoted {
                if bytes.count == 16 {
                    key.iv = bytes
                } else if bytes.count < 16 {
                    sink.report(
                        .invalidValue, line: tag.line, column: column, tag: tag.name, attribute: "IV",
                        message: "IV \(iv.text) is \(bytes.count * 8) bits, expected 128" + (sink.isStrict ? "" : "; left-padded with zeros"))
                    key.iv = Array(repeating: 0, count: 16 - bytes.count) + bytes
                } else {
                    sink.report(
                        .alwaysError, line: tag.line, column: column, tag: tag.name, attribute: "IV",
                        message: "IV \(iv.text) is \(bytes.count * 8) bits, expected a 128-bit hexadecimal-sequence")
                }
            } else {
                sink.report(
                    .alwaysError, line: tag.line, column: column, tag: tag.name, attribute: "IV",
                    message: "IV must be a hexadecimal-sequence starting with 0x, found \(iv.text)")
            }
        }
        key.otherAttributes = r.others
        if key.method != .none, key.uri == nil { missing(tag, "URI") }
        if key.method == .none, key.uri != nil || key.iv != nil {
            sink.report(
                .specViolation, line: tag.line, column: tag.column, tag: tag.name,
                message: "METHOD=NONE must not have URI or IV attributes")
        }
        return key
    }
}
