import Foundation
import HLS

/// The human-readable form of `marquee inspect`: aligned tables of variants, renditions and
/// trick-play variants, or a media playlist's summary and interstitials.
enum InspectionTable {
    static func render(_ result: ParseResult, url: URL, source: String, segments: Bool = false) -> String {
        var out = ""
        switch result.playlist {
        case .multivariant(let p)?: out += multivariant(p, url: url)
        case .media(let p)?:
            out += media(p, url: url)
            if segments { out += segmentTable(p, url: url) }
        case nil: out += "Not a usable playlist.\n"
        }
        for w in result.warnings.prefix(20) { out += "warning: \(w.line):\(w.column): \(w.fullMessage)\n" }
        if result.warnings.count > 20 { out += "… and \(result.warnings.count - 20) more warnings (--json lists all)\n" }
        return out
    }

    static func multivariant(_ p: MultivariantPlaylist, url: URL) -> String {
        var out = "Multivariant playlist\(p.version.map { ", version \($0)" } ?? "")"
        let badges = p.badges(baseURL: url)
        if !badges.isEmpty { out += "  [" + badges.map(\.rawValue).joined(separator: "] [") + "]" }
        out += "\n\n"
        let variants = p.inspectedVariants(baseURL: url)
        var rows = [["#", "PEAK", "AVERAGE", "RESOLUTION", "FPS", "RANGE", "CODECS", "AUDIO", "BADGES", "URI"]]
        for (i, v) in variants.enumerated() {
            let audio = (v.audioAttributes?.renditions ?? []).map { r -> String in
                var s = r.language ?? r.name ?? "muxed"
                if let c = r.channelCount { s += " \(c)ch" }
                if r.isImmersive { s += " immersive" }
                if r.isBinaural { s += " binaural" }
                return s
            }
            rows.append([
                "\(i + 1)", rate(v.peakBitRate), rate(v.averageBitRate),
                v.videoAttributes?.presentationSize?.description ?? "-",
                v.videoAttributes?.nominalFrameRate.map { String(format: "%.3g", $0) } ?? "-",
                v.videoAttributes?.videoRange.rawValue ?? "-",
                v.codecs.map(\.string).joined(separator: ","),
                audio.isEmpty ? "-" : audio.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }.joined(separator: ", "),
                v.badges.map(\.rawValue).joined(separator: " "),
                v.uri,
            ])
        }
        out += "Variants (\(variants.count))\n" + table(rows) + "\n"
        if !p.renditions.isEmpty {
            var r = [["TYPE", "GROUP", "NAME", "LANGUAGE", "CHANNELS", "DEFAULT", "URI"]]
            for m in p.renditions {
                r.append([
                    m.type.rawValue, m.groupID, m.name, m.language ?? "-", m.channels?.text ?? "-",
                    m.isDefault ? "yes" : "", m.uri.map { URIResolution.resolve($0, against: url) } ?? "-",
                ])
            }
            out += "Renditions (\(p.renditions.count))\n" + table(r) + "\n"
        }
        if !p.iFrameVariants.isEmpty || !p.imageVariants.isEmpty {
            var r = [["KIND", "PEAK", "RESOLUTION", "CODECS", "URI"]]
            for v in p.iFrameVariants {
                r.append([
                    "I-frame", rate(v.attributes.bandwidth), v.attributes.resolution?.description ?? "-",
                    v.attributes.codecs.joined(separator: ","), URIResolution.resolve(v.uri, against: url),
                ])
            }
            for v in p.imageVariants {
                r.append([
                    "image", rate(v.attributes.bandwidth), v.attributes.resolution?.description ?? "-",
                    v.attributes.codecs.joined(separator: ","), URIResolution.resolve(v.uri, against: url),
                ])
            }
            out += "Trick-play variants (\(p.iFrameVariants.count + p.imageVariants.count))\n" + table(r) + "\n"
        }
        if !p.sessionData.isEmpty {
            out += "Session data\n"
            for d in p.sessionData { out += "  \(d.dataID)\(d.language.map { " (\($0))" } ?? ""): \(d.value ?? d.uri ?? "")\n" }
            out += "\n"
        }
        return out
    }

    /// One row per segment: sequence number, start, duration, byte range and flags.
    static func segmentTable(_ p: MediaPlaylist, url: URL) -> String {
        var rows = [["SEQ", "START", "DURATION", "RANGE", "KEY", "FLAGS", "URI"]]
        var start = 0.0
        for (i, s) in p.segments.enumerated() {
            let sequence = p.mediaSequence.addingReportingOverflow(UInt64(i))
            let range = s.byteRange.map { r in "\(r.length)@\(s.resolvedByteRangeOffset ?? r.offset ?? 0)" } ?? "-"
            var flags: [String] = []
            if s.discontinuity { flags.append("discontinuity") }
            if s.gap { flags.append("gap") }
            if !s.parts.isEmpty { flags.append("\(s.parts.count) parts") }
            if let date = s.programDateTime { flags.append(date.text) }
            rows.append([
                sequence.overflow ? "-" : "\(sequence.partialValue)", String(format: "%.3f", start), String(format: "%.3f", s.duration),
                range, s.keys.map(\.method.text).joined(separator: ",").nilIfEmpty ?? "-",
                flags.joined(separator: " ").nilIfEmpty ?? "-", URIResolution.resolve(s.uri, against: url),
            ])
            start += s.duration
        }
        return "Segments\n" + table(rows) + "\n"
    }

    static func media(_ p: MediaPlaylist, url: URL) -> String {
        var out = "Media playlist\(p.version.map { ", version \($0)" } ?? "")\n"
        let encryption = p.encryptionMethods.map(\.text)
        let lines: [(String, String)] = [
            ("Segments", "\(p.segments.count)"),
            ("Duration", String(format: "%.3f s", p.duration)),
            ("Target duration", "\(p.effectiveTargetDuration) s"),
            ("Playlist type", p.playlistType?.rawValue ?? (p.endList ? "VOD (ended)" : "live")),
            ("End list", p.endList ? "yes" : "no"),
            ("Media sequence", "\(p.mediaSequence)"),
            ("Encryption", encryption.isEmpty ? "none" : encryption.joined(separator: ", ")),
            ("Byte ranges", "\(p.segments.filter { $0.byteRange != nil }.count)"),
            ("Init maps", "\(Set(p.segments.compactMap(\.map?.uri)).count)"),
            ("Discontinuities", "\(p.segments.filter(\.discontinuity).count)"),
            ("Date ranges", "\(p.dateRanges.count)"),
            ("Parts", "\(p.segments.reduce(0) { $0 + $1.parts.count } + p.trailingParts.count)"),
        ]
        for (k, v) in lines { out += "  " + k.padding(toLength: 17, withPad: " ", startingAt: 0) + v + "\n" }
        let interstitials = p.interstitials.compactMap(\.interstitial)
        if !interstitials.isEmpty {
            var r = [["ID", "START", "DURATION", "CUE", "RESTRICT", "ASSET"]]
            for i in interstitials {
                r.append([
                    i.id, i.startDate.flatMap { p.playlistTime(of: $0) }.map { String(format: "%.3f", $0) } ?? "-",
                    i.duration.map { String(format: "%.3f", $0) } ?? "-", i.cue.joined(separator: ","),
                    i.restrict.joined(separator: ","),
                    (i.assetURI ?? i.assetList).map { URIResolution.resolve($0, against: url) } ?? "-",
                ])
            }
            out += "\nInterstitials (\(interstitials.count))\n" + table(r)
        }
        return out + "\n"
    }

    static func rate(_ bps: Int?) -> String {
        guard let bps else { return "-" }
        return bps >= 1_000_000 ? String(format: "%.2f Mb/s", Double(bps) / 1e6) : String(format: "%.0f kb/s", Double(bps) / 1e3)
    }

    static func table(_ rows: [[String]]) -> String {
        guard let header = rows.first else { return "" }
        let widths = header.indices.map { c in rows.map { $0[c].count }.max() ?? 0 }
        return rows.map { row in
            "  "
                + row.enumerated().map { c, cell in c == row.count - 1 ? cell : cell.padding(toLength: widths[c], withPad: " ", startingAt: 0) }
                .joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }
}

extension String {
    fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}
