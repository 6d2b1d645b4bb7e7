public import Foundation
public import JSONDocument

/// The report `marquee inspect` prints: for a multivariant playlist its variants (with video
/// and per-rendition audio attributes and badges), I-frame and image variants, renditions
/// and session data; for a media playlist its segments, timing, encryption, byte ranges,
/// init maps, date ranges, interstitials and low-latency parts; and the diagnostics.
/// Field names are a documented interface (README, "inspect --json").
public enum InspectionReport {
    /// The report; `segments` adds `segmentList[]`, one entry per media segment.
    public static func json(for result: ParseResult, url: URL?, segments: Bool = false) -> JSONValue {
        var fields: [(String, JSONValue)] = []
        if let url { fields.append(("url", .string(url.absoluteString))) }
        switch result.playlist {
        case .multivariant(let p)?:
            fields.append(("kind", .string("multivariant")))
            fields += multivariant(p, url: url)
        case .media(let p)?:
            fields.append(("kind", .string("media")))
            fields += media(p, url: url)
            if segments { fields.append(("segmentList", segmentList(p, url: url))) }
        case nil:
            fields.append(("kind", .null))
        }
        func diag(_ list: [Diagnostic]) -> JSONValue {
            .array(
                list.map { d in
                    .object([
                        ("line", .int(d.line)), ("column", .int(d.column)), ("message", .string(d.fullMessage)),
                        ("tag", .optional(d.tag)), ("attribute", .optional(d.attribute)),
                    ])
                })
        }
        fields.append(("warnings", diag(result.warnings)))
        fields.append(("errors", diag(result.errors)))
        return .object(JSONObject(fields))
    }

    static func multivariant(_ p: MultivariantPlaylist, url: URL?) -> [(String, JSONValue)] {
        let variants = p.inspectedVariants(baseURL: url)
        func trick(_ uri: String, _ a: StreamAttributes) -> JSONValue {
            .object([
                ("uri", .string(URIResolution.resolve(uri, against: url))),
                ("peakBitRate", .optional(a.bandwidth)),
                ("averageBitRate", .optional(a.averageBandwidth)),
                ("codecs", .strings(a.codecs)),
                ("presentationSize", size(a.resolution)),
                ("videoRange", .optional(a.videoRange?.rawValue)),
            ])
        }
        return [
            ("version", .optional(p.version)),
            ("variants", .array(variants.map(variant))),
            ("iFrameVariants", .array(p.iFrameVariants.map { trick($0.uri, $0.attributes) })),
            ("imageVariants", .array(p.imageVariants.map { trick($0.uri, $0.attributes) })),
            (
                "renditions",
                .array(
                    p.renditions.map { r in
                        .object([
                            ("type", .string(r.type.rawValue)), ("groupID", .string(r.groupID)), ("name", .string(r.name)),
                            ("language", .optional(r.language)), ("uri", .optional(r.uri.map { URIResolution.resolve($0, against: url) })),
                            ("default", .bool(r.isDefault)), ("autoselect", .bool(r.autoselect)), ("forced", .bool(r.forced)),
                            ("channels", .optional(r.channels?.text)), ("characteristics", .strings(r.characteristics)),
                        ])
                    })
            ),
            (
                "sessionData",
                .array(
                    p.sessionData.map { d in
                        .object([
                            ("dataID", .string(d.dataID)), ("value", .optional(d.value)), ("uri", .optional(d.uri)),
                            ("language", .optional(d.language)),
                        ])
                    })
            ),
            ("sessionKeys", .array(p.sessionKeys.map { .object([("method", .string($0.method.text)), ("keyFormat", .optional($0.keyFormat))]) })),
            ("contentSteering", p.contentSteering.map { .object([("serverURI", .string($0.serverURI)), ("pathwayID", .optional($0.pathwayID))]) } ?? .null),
            ("badges", .strings(p.badges(baseURL: url).map(\.rawValue))),
        ]
    }

    static func size(_ r: Resolution?) -> JSONValue {
        r.map { .object([("width", .int($0.width)), ("height", .int($0.height))]) } ?? .null
    }

    static func variant(_ v: Variant) -> JSONValue {
        let video: JSONValue =
            v.videoAttributes.map { a in
                .object([
                    ("presentationSize", size(a.presentationSize)),
                    ("videoRange", .string(a.videoRange.rawValue)),
                    ("nominalFrameRate", .optional(a.nominalFrameRate)),
                    ("codecTypes", .strings(a.codecTypes)),
                    ("videoLayout", .optional(a.videoLayout)),
                    ("hdcpLevel", .optional(a.hdcpLevel)),
                    ("bitDepth", .optional(a.bitDepth)),
                ])
            } ?? .null
        let audio: JSONValue =
            v.audioAttributes.map { a in
                .object([
                    ("formatIDs", .strings(a.formatIDs)),
                    (
                        "renditions",
                        .array(
                            a.renditions.map { r in
                                .object([
                                    ("groupID", .optional(r.groupID)), ("name", .optional(r.name)), ("language", .optional(r.language)),
                                    ("channelCount", .optional(r.channelCount)), ("isImmersive", .bool(r.isImmersive)),
                                    ("isBinaural", .bool(r.isBinaural)), ("isDownmix", .bool(r.isDownmix)),
                                    ("sampleRate", .optional(r.sampleRate)), ("isDefault", .bool(r.isDefault)),
                                    ("uri", .optional(r.uri)),
                                ])
                            })
                    ),
                ])
            } ?? .null
        func text(_ list: [Variant.TextRendition]) -> JSONValue {
            .array(
                list.map { t in
                    .object([
                        ("groupID", .string(t.groupID)), ("name", .string(t.name)), ("language", .optional(t.language)),
                        ("forced", .bool(t.forced)), ("default", .bool(t.isDefault)),
                        ("characteristics", .strings(t.characteristics)), ("uri", .optional(t.uri)),
                    ])
                })
        }
        return .object([
            ("uri", .string(v.uri)),
            ("peakBitRate", .optional(v.peakBitRate)),
            ("averageBitRate", .optional(v.averageBitRate)),
            ("codecs", .strings(v.codecs.map(\.string))),
            ("supplementalCodecs", .strings(v.stream.attributes.supplementalCodecs)),
            ("videoAttributes", video),
            ("audioAttributes", audio),
            ("subtitles", text(v.subtitleRenditions)),
            ("closedCaptions", text(v.closedCaptionRenditions)),
            ("badges", .strings(v.badges.map(\.rawValue))),
            ("score", .optional(v.score)),
            ("pathwayID", .optional(v.stream.attributes.pathwayID)),
        ])
    }

    static func media(_ p: MediaPlaylist, url: URL?) -> [(String, JSONValue)] {
        let encryption = p.encryptionMethods.map(\.text)
        let maps = Variant.unique(p.segments.compactMap { $0.map.map { URIResolution.resolve($0.uri, against: url) } })
        let partCount = p.segments.reduce(0) { $0 + $1.parts.count } + p.trailingParts.count
        return [
            ("version", .optional(p.version)),
            ("playlistType", .optional(p.playlistType?.rawValue)),
            ("segments", .int(p.segments.count)),
            ("duration", .double(p.duration)),
            ("targetDuration", .int(p.effectiveTargetDuration)),
            ("mediaSequence", .int(Int(clamping: p.mediaSequence))),
            ("endList", .bool(p.endList)),
            ("iFramesOnly", .bool(p.iFramesOnly)),
            ("imagesOnly", .bool(p.imagesOnly)),
            ("encryption", .strings(encryption)),
            ("byteRanges", .int(p.segments.filter { $0.byteRange != nil }.count)),
            ("initMaps", .strings(maps)),
            ("discontinuities", .int(p.segments.filter(\.discontinuity).count)),
            ("gaps", .int(p.segments.filter(\.gap).count)),
            (
                "dateRanges",
                .array(
                    p.dateRanges.map { r in
                        .object([
                            ("id", .string(r.id)), ("class", .optional(r.classValue)), ("startDate", .optional(r.startDate?.text)),
                            (
                                "duration",
                                .optional(
                                    r.duration ?? r.plannedDuration
                                        ?? r.endDate.flatMap { e in r.startDate.map { e.date.timeIntervalSince($0.date) } })
                            ),
                        ])
                    })
            ),
            (
                "interstitials",
                .array(
                    p.interstitials.compactMap(\.interstitial).map { i in
                        .object([
                            ("id", .string(i.id)),
                            ("start", .optional(i.startDate.flatMap { p.playlistTime(of: $0) })),
                            ("duration", .optional(i.duration)),
                            ("assetURI", .optional(i.assetURI.map { URIResolution.resolve($0, against: url) })),
                            ("assetList", .optional(i.assetList.map { URIResolution.resolve($0, against: url) })),
                            ("restrict", .strings(i.restrict)),
                            ("cue", .strings(i.cue)),
                            ("resumeOffset", .optional(i.resumeOffset)),
                            ("playoutLimit", .optional(i.playoutLimit)),
                            ("snap", .strings(i.snap)),
                            ("skipControlOffset", .optional(i.skipControlOffset)),
                            ("skipControlDuration", .optional(i.skipControlDuration)),
                            ("skipControlLabelID", .optional(i.skipControlLabelID)),
                            ("timelineOccupies", .optional(i.timelineOccupies)),
                            ("timelineStyle", .optional(i.timelineStyle)),
                            ("contentMayVary", i.contentMayVary.map { .bool($0) } ?? .null),
                        ])
                    })
            ),
            ("parts", .int(partCount)),
            ("partTarget", .optional(p.partInformation?.partTarget)),
            ("preloadHints", .int(p.preloadHints.count)),
            ("renditionReports", .int(p.renditionReports.count)),
        ]
    }

    /// Every segment with where it starts on the playlist timeline, its byte range (offset
    /// resolved), the keys and init section in effect, its date, discontinuity, gap and parts.
    static func segmentList(_ p: MediaPlaylist, url: URL?) -> JSONValue {
        func range(_ r: ByteRange?, resolvedOffset: UInt64?) -> JSONValue {
            guard let r else { return .null }
            let offset = resolvedOffset ?? r.offset
            return .object([("length", .int(Int(clamping: r.length))), ("offset", offset.map { .int(Int(clamping: $0)) } ?? .null)])
        }
        var start = 0.0
        var list: [JSONValue] = []
        list.reserveCapacity(p.segments.count)
        for (index, s) in p.segments.enumerated() {
            let sequence = p.mediaSequence.addingReportingOverflow(UInt64(index))
            list.append(
                .object([
                    ("sequence", sequence.overflow ? .null : .int(Int(clamping: sequence.partialValue))),
                    ("uri", .string(URIResolution.resolve(s.uri, against: url))),
                    ("start", .double(start)),
                    ("duration", .double(s.duration)),
                    ("title", .optional(s.title)),
                    ("byteRange", range(s.byteRange, resolvedOffset: s.resolvedByteRangeOffset)),
                    (
                        "keys",
                        .array(
                            s.keys.map { k in
                                .object([
                                    ("method", .string(k.method.text)), ("uri", .optional(k.uri.map { URIResolution.resolve($0, against: url) })),
                                    ("iv", .optional(k.iv.map { "0x" + $0.map { String(format: "%02x", $0) }.joined() })),
                                    ("keyFormat", .optional(k.keyFormat)),
                                ])
                            })
                    ),
                    (
                        "map",
                        s.map.map { m in
                            .object([("uri", .string(URIResolution.resolve(m.uri, against: url))), ("byteRange", range(m.byteRange, resolvedOffset: nil))])
                        } ?? .null
                    ),
                    ("programDateTime", .optional(s.programDateTime?.text)),
                    ("discontinuity", .bool(s.discontinuity)),
                    ("gap", .bool(s.gap)),
                    ("bitrate", .optional(s.bitrate)),
                    (
                        "parts",
                        .array(
                            s.parts.map { part in
                                .object([
                                    ("uri", .string(URIResolution.resolve(part.uri, against: url))), ("duration", .double(part.duration)),
                                    ("independent", .bool(part.independent)), ("byteRange", range(part.byteRange, resolvedOffset: nil)),
                                    ("gap", .bool(part.gap)),
                                ])
                            })
                    ),
                ]))
            start += s.duration
        }
        return .array(list)
    }
}
