import Foundation

/// Reads SubRip (and, with `webVTT`, WebVTT) cues: blocks separated by blank lines, each with
/// a timing line and text. A block whose timing does not read is skipped, not fatal: one bad
/// line in a hand-edited file should not lose the rest.
enum SubRipReader {
    /// The most cues read from one file; the rest are dropped (a 5 MB file holds far fewer).
    static let maximumCues = 200_000

    static func cues(_ text: String, webVTT: Bool) -> [SubtitleCue] {
        var lines = SubtitleText.lines(text)
        if webVTT, !lines.isEmpty { lines.removeFirst() }  // the WEBVTT line
        var cues: [SubtitleCue] = []
        var index = 0
        while index < lines.count, cues.count < maximumCues {
            // One block: non-blank lines up to the next blank one.
            while index < lines.count, lines[index].trimmingCharacters(in: .whitespaces).isEmpty { index += 1 }
            var block: [String] = []
            while index < lines.count, !lines[index].trimmingCharacters(in: .whitespaces).isEmpty {
                block.append(lines[index])
                index += 1
            }
            guard let timingIndex = block.prefix(2).firstIndex(where: { $0.contains("-->") }) else { continue }
            if webVTT, let first = block.first, first.hasPrefix("NOTE") || first.hasPrefix("STYLE") || first.hasPrefix("REGION") {
                continue
            }
            guard let timing = SubtitleTime.timing(block[timingIndex]) else { continue }
            let body = block[(timingIndex + 1)...].map { CueMarkup.clean($0, keepVTTTags: webVTT) }.filter { !$0.isEmpty }
            guard !body.isEmpty else { continue }
            var cue = SubtitleCue(start: timing.start, end: timing.end, text: body.joined(separator: "\n"))
            if webVTT {
                cue.settings = CueMarkup.cleanSettings(timing.rest)
            } else if let braces = body.first, braces.contains("{\\") {
                cue = ASSReader.applyInlineOverrides(to: cue)
            }
            cues.append(cue)
        }
        return cues
    }
}

/// Cue text made safe for WebVTT: the tags a cue may carry kept, others dropped, the rest escaped.
enum CueMarkup {
    static let basicTags: Set<String> = ["i", "b", "u"]
    static let vttTags: Set<String> = ["i", "b", "u", "c", "v", "lang", "ruby", "rt"]

    /// One line of cue text: `<i>`, `<b>`, `<u>` (and with `keepVTTTags`, WebVTT's own tags)
    /// kept, `<font …>` and other tags dropped, entities kept, other `&`, `<`, `>` escaped.
    static func clean(_ line: String, keepVTTTags: Bool) -> String {
        let allowed = keepVTTTags ? vttTags : basicTags
        var out = ""
        var rest = Substring(line)
        while let open = rest.firstIndex(of: "<") {
            out += escapeText(rest[..<open])
            guard let close = rest[open...].firstIndex(of: ">") else {
                out += escapeText(rest[open...])
                rest = ""
                break
            }
            let inside = rest[rest.index(after: open)..<close]
            let closing = inside.hasPrefix("/")
            let name = inside.dropFirst(closing ? 1 : 0).prefix { $0.isLetter }.lowercased()
            // A tag's name ends where its classes (`.yellow`) or annotation (` Anna`) begin; a
            // name run on into other characters is no tag WebVTT knows.
            let tail = inside.dropFirst((closing ? 1 : 0) + name.count)
            if allowed.contains(name), tail.isEmpty || (!closing && (tail.first == "." || tail.first == " " || tail.first == "\t")) {
                if closing {
                    out += "</\(name)>"
                } else {
                    // Without markup characters, and not ending in `-` (`<v A-->` would read as a timing arrow).
                    var extra = tail.filter { $0 != "<" && $0 != "&" && $0 != ">" }
                    while extra.hasSuffix("-") { extra.removeLast() }
                    out += "<\(name)\(extra)>"
                }
            }
            rest = rest[rest.index(after: close)...]
        }
        out += escapeText(rest)
        // Text never holds `>` unescaped and tags never end in `-`, so no line can read as a timing.
        return out.trimmingCharacters(in: .whitespaces)
    }

    /// Escapes `<`, `>` and a `&` that does not start an entity.
    private static func escapeText(_ text: Substring) -> String {
        var out = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            switch character {
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "&":
                let tail = text[text.index(after: index)...].prefix(10)
                if let semicolon = tail.firstIndex(of: ";"), tail[..<semicolon].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "#" }),
                    semicolon != tail.startIndex
                {
                    out += "&"
                } else {
                    out += "&amp;"
                }
            default: out.append(character)
            }
            index = text.index(after: index)
        }
        return out
    }

    /// WebVTT cue settings kept: `name:value` pairs of the settings WebVTT defines, values
    /// without spaces or markup.
    static func cleanSettings(_ text: String) -> String {
        let names: Set<String> = ["vertical", "line", "position", "size", "align", "region"]
        return text.split(whereSeparator: \.isWhitespace).filter { setting in
            let parts = setting.split(separator: ":", maxSplits: 1)
            return parts.count == 2 && names.contains(String(parts[0]))
                && parts[1].allSatisfy { $0.isLetter || $0.isNumber || "%.,-".contains($0) } && parts[1].count <= 20
        }.prefix(6).joined(separator: " ")
    }
}
