import Foundation

/// One cue of a subtitle file on its way to WebVTT: times in milliseconds, the cue text
/// already in WebVTT's markup (escaped, only the tags WebVTT knows), and its cue settings.
struct SubtitleCue: Sendable, Hashable {
    var start: Int64
    var end: Int64
    /// WebVTT cue text; lines separated by `\n`, none of them empty.
    var text: String
    /// WebVTT cue settings (`line:0 align:left`), or empty.
    var settings: String = ""
}

/// What reading a subtitle file found that a person should hear about.
public enum SubtitleFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes are no subtitle format the library reads.
    case unknownFormat
    /// The file is larger than the library takes.
    case tooLarge(limit: Int)
    /// The file reads as `format` but has no cue with a readable time.
    case noCues(SubtitleFormat)
    /// The language is not a language tag.
    case invalidLanguage(String)
    /// The label is too long or empty after cleaning.
    case invalidLabel(String)
    /// The asset has no added subtitle file with that id.
    case notFound(String)
    /// The asset has as many added subtitle files as it may.
    case tooMany(limit: Int)

    public var description: String {
        switch self {
        case .unknownFormat:
            "This is not a subtitle file Marquee can read: use a SubRip (.srt), WebVTT (.vtt) or ASS/SSA (.ass, .ssa) text file"
        case .tooLarge(let limit): "The subtitle file is too large; at most \(limit >> 20) MB is accepted"
        case .noCues(let format):
            "The \(format.displayName) file has no subtitle with a readable time; check that it is not cut short or damaged"
        case .invalidLanguage(let given):
            "\"\(given.prefix(40))\" is not a language tag; use a code such as en, ja or pt-BR"
        case .invalidLabel(let reason): reason
        case .notFound(let id): "This item has no subtitle file \(id.prefix(40))"
        case .tooMany(let limit): "An item can have at most \(limit) subtitle files; remove one first"
        }
    }
}

extension SubtitleFormat {
    /// The format's name as people know it.
    public var displayName: String {
        switch self {
        case .subRip: "SubRip"
        case .webVTT: "WebVTT"
        case .ass: "ASS"
        case .ssa: "SSA"
        }
    }
}
