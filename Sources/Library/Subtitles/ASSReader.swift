import Foundation

/// Reads ASS (Advanced SubStation Alpha) and SSA cues and keeps what WebVTT can show of their
/// styling: bold, italic and underline (from the style and from `\b`, `\i`, `\u` override tags)
/// as `<b>`, `<i>`, `<u>`, the `\an`/`\a` alignment (and the style's) as cue settings, `\N` as a
/// line break. Colours, fonts, positions, karaoke, transforms and drawings have no WebVTT
/// equivalent and are dropped; a drawing's commands (`\p1`) are not shown as text.
enum ASSReader {
    /// The style of a line, as a `Style:` row or an override tag sets it.
    struct Style: Equatable {
        var bold = false
        var italic = false
        var underline = false
        /// Numpad alignment (1–9; 2 is bottom centre).
        var alignment = 2
    }

    static let defaultEventFields = ["layer", "start", "end", "style", "name", "marginl", "marginr", "marginv", "effect", "text"]
    static let defaultStyleFields = [
        "name", "fontname", "fontsize", "primarycolour", "secondarycolour", "outlinecolour", "backcolour",
        "bold", "italic", "underline",
    ]

    /// The file's dialogue lines as cues, in time order. `legacy` is SSA (its alignment numbers differ).
    static func cues(_ text: String, legacy: Bool) -> [SubtitleCue] {
        var section = ""
        var styleFields = defaultStyleFields
        var eventFields = defaultEventFields
        var styles: [String: Style] = [:]
        var cues: [SubtitleCue] = []
        for raw in SubtitleText.lines(text) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("["), line.hasSuffix("]") {
                section = line.lowercased()
                continue
            }
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...]
            if section.hasSuffix("styles]") {
                if key == "format" { styleFields = fields(value) }
                if key == "style" {
                    let row = split(value, count: styleFields.count)
                    let named = Dictionary(zip(styleFields, row), uniquingKeysWith: { first, _ in first })
                    var style = Style()
                    style.bold = flag(named["bold"])
                    style.italic = flag(named["italic"])
                    style.underline = flag(named["underline"])
                    if let number = named["alignment"].flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) {
                        style.alignment = legacy ? numpad(legacy: number) : (1...9).contains(number) ? number : 2
                    }
                    styles[(named["name"] ?? "").trimmingCharacters(in: .whitespaces).lowercased()] = style
                }
            } else if section == "[events]" {
                if key == "format" {
                    let given = fields(value)
                    if given.last == "text" { eventFields = given }
                }
                guard key == "dialogue", cues.count < SubRipReader.maximumCues else { continue }
                let row = split(value, count: eventFields.count)
                guard row.count == eventFields.count else { continue }
                let named = Dictionary(zip(eventFields, row), uniquingKeysWith: { first, _ in first })
                guard let start = named["start"].flatMap({ SubtitleTime.parse($0.trimmingCharacters(in: .whitespaces)) }),
                    let end = named["end"].flatMap({ SubtitleTime.parse($0.trimmingCharacters(in: .whitespaces)) }), end > start
                else { continue }
                let styleName = (named["style"] ?? "").trimmingCharacters(in: .whitespaces).lowercased().replacingOccurrences(of: "*", with: "")
                let base = styles[styleName] ?? styles["default"] ?? Style()
                let (body, alignment) = convert(row[row.count - 1], style: base, styles: styles, legacy: legacy)
                guard !body.isEmpty else { continue }
                cues.append(SubtitleCue(start: start, end: end, text: body, settings: settings(forAlignment: alignment)))
            }
        }
        return cues.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
    }

    /// A dialogue's text as WebVTT cue text, and the alignment it ends up with.
    static func convert(_ text: String, style base: Style, styles: [String: Style] = [:], legacy: Bool = false) -> (String, Int) {
        var state = base
        var alignment: Int?
        var drawing = false
        var out = ""
        var open: [String] = []
        // Tags open lazily, just before the text they style, and close before a line break
        // when the style changed, so each line carries its own tags.
        func sync(opening: Bool) {
            let wanted = [("b", state.bold), ("i", state.italic), ("u", state.underline)].filter(\.1).map(\.0)
            guard wanted != open else { return }
            for tag in open.reversed() { out += "</\(tag)>" }
            open = []
            guard opening else { return }
            for tag in wanted { out += "<\(tag)>" }
            open = wanted
        }
        func emit(_ piece: String) {
            sync(opening: true)
            out += piece
        }
        let characters = Array(text)
        // Past the last `}`, a `{` opens nothing (and is not searched for again: a hostile line of
        // braces stays linear).
        let lastClose = characters.lastIndex(of: "}") ?? -1
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "{", index < lastClose, let close = characters[index...].firstIndex(of: "}") {
                for tag in String(characters[(index + 1)..<close]).split(separator: "\\").map(String.init) {
                    apply(tag, to: &state, alignment: &alignment, drawing: &drawing, base: base, styles: styles, legacy: legacy)
                }
                index = close + 1
                continue
            }
            if character == "\\", index + 1 < characters.count, "Nnh".contains(characters[index + 1]) {
                if !drawing {
                    switch characters[index + 1] {
                    case "N":
                        sync(opening: false)
                        out += "\n"
                    case "h": emit("\u{00A0}")
                    default: emit(" ")
                    }
                }
                index += 2
                continue
            }
            if !drawing { emit(SubtitleText.escaped(String(character))) }
            index += 1
        }
        for tag in open.reversed() { out += "</\(tag)>" }
        let lines = out.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !isOnlyTags($0) }
        let body = lines.joined(separator: "\n").replacingOccurrences(of: "-->", with: "--&gt;")
        return (body, alignment ?? base.alignment)
    }

    /// Carries out one override tag (the text between two backslashes of a `{…}` block).
    static func apply(
        _ tag: String, to state: inout Style, alignment: inout Int?, drawing: inout Bool,
        base: Style, styles: [String: Style], legacy: Bool
    ) {
        let tag = tag.trimmingCharacters(in: .whitespaces)
        func number(after prefix: String) -> Int? {
            guard tag.hasPrefix(prefix) else { return nil }
            let rest = tag.dropFirst(prefix.count)
            guard rest.count <= 6, rest.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return rest.isEmpty ? 1 : Int(rest)
        }
        if let value = number(after: "an") {
            if alignment == nil, (1...9).contains(value) { alignment = value }
        } else if let value = number(after: "a"), tag.count > 1 {
            if alignment == nil { alignment = numpad(legacy: value) }
        } else if let value = number(after: "i") {
            state.italic = value != 0
        } else if let value = number(after: "b") {
            state.bold = value == 1 || value >= 600
        } else if let value = number(after: "u") {
            state.underline = value != 0
        } else if let value = number(after: "p") {
            drawing = value != 0
        } else if tag.hasPrefix("r") {
            let name = tag.dropFirst().trimmingCharacters(in: .whitespaces).lowercased()
            let alignmentBefore = state.alignment
            state = name.isEmpty ? base : styles[name] ?? base
            state.alignment = alignmentBefore
        }
    }

    /// An SSA alignment (1–3 bottom, 5–7 top, 9–11 middle) on the numpad.
    static func numpad(legacy value: Int) -> Int {
        switch value {
        case 1, 2, 3: value
        case 5, 6, 7: value + 2
        case 9, 10, 11: value - 5
        default: 2
        }
    }

    /// WebVTT cue settings for a numpad alignment: top and middle rows move the line up, left
    /// and right columns align the text to that side.
    static func settings(forAlignment alignment: Int) -> String {
        var parts: [String] = []
        switch alignment {
        case 7, 8, 9: parts.append("line:0")
        case 4, 5, 6: parts.append("line:50%")
        default: break
        }
        switch alignment {
        case 1, 4, 7: parts += ["position:5%", "align:left"]
        case 3, 6, 9: parts += ["position:95%", "align:right"]
        default: break
        }
        return parts.joined(separator: " ")
    }

    /// A cue from a SubRip file whose lines carry ASS override blocks (`{\an8}`, common in
    /// fansubs): the blocks removed, their alignment kept as cue settings.
    static func applyInlineOverrides(to cue: SubtitleCue) -> SubtitleCue {
        var alignment: Int?
        var out = ""
        var rest = Substring(cue.text)
        while let open = rest.range(of: "{\\") {
            out += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].firstIndex(of: "}") else {
                out += rest[open.lowerBound...]
                rest = ""
                break
            }
            var state = Style()
            var drawing = false
            for tag in rest[open.upperBound..<close].split(separator: "\\") {
                apply(String(tag), to: &state, alignment: &alignment, drawing: &drawing, base: Style(), styles: [:], legacy: false)
            }
            rest = rest[rest.index(after: close)...]
        }
        out += rest
        var result = cue
        result.text = out.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: "\n")
        if let alignment { result.settings = settings(forAlignment: alignment) }
        return result
    }

    private static func isOnlyTags(_ line: String) -> Bool {
        var inside = false
        for character in line {
            if character == "<" { inside = true } else if character == ">" { inside = false } else if !inside { return false }
        }
        return true
    }

    private static func fields(_ text: Substring) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    }

    /// `count` comma-separated fields, the last taking the rest of the line (text may hold commas).
    private static func split(_ text: Substring, count: Int) -> [String] {
        guard count > 0 else { return [] }
        return text.split(separator: ",", maxSplits: count - 1, omittingEmptySubsequences: false).map(String.init)
            .enumerated().map { $0.offset == count - 1 ? $0.element.drop { $0 == " " }.description : $0.element }
    }

    private static func flag(_ text: String?) -> Bool {
        guard let value = text.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) else { return false }
        return value != 0
    }
}
