public import Foundation

/// One piece of descriptive metadata (title, artist, cover art, ...) read from the container's
/// tags, with a common identifier when the tag has a well-known meaning.
///
/// MP4 (`©nam`, `desc`, `©ART`, `covr`), Matroska (`TITLE`, `DESCRIPTION`, attachments) and
/// ID3 (`TIT2`, `TIT3`, `TPE1`, `APIC`) tags all map to the same identifiers.
public struct MetadataItem: Sendable, Hashable {
    /// Well-known meanings of a tag.
    public enum Identifier: String, Sendable, Hashable, Codable, CaseIterable {
        case title, subtitle, description, artist, artwork, creationDate, album, genre, comment
    }

    /// The common identifier, `nil` for tags without one.
    public var identifier: Identifier?
    /// The tag's key as the container spells it (after FFmpeg's normalisation).
    public var key: String
    public var stringValue: String?
    /// Binary value, for artwork.
    public var dataValue: [UInt8]?

    public init(identifier: Identifier?, key: String, stringValue: String? = nil, dataValue: [UInt8]? = nil) {
        self.identifier = identifier
        self.key = key
        self.stringValue = stringValue
        self.dataValue = dataValue
    }

    /// The date value of a creation-date item (ISO 8601 or a bare year).
    public var dateValue: Date? {
        guard let stringValue else { return nil }
        let iso = ISO8601DateFormatter()
        for options: ISO8601DateFormatter.Options in [[.withInternetDateTime, .withFractionalSeconds], [.withInternetDateTime], [.withFullDate]] {
            iso.formatOptions = options
            if let date = iso.date(from: stringValue) { return date }
        }
        if stringValue.count == 4, let year = Int(stringValue) {
            return DateComponents(calendar: Calendar(identifier: .gregorian), timeZone: .gmt, year: year).date
        }
        return nil
    }

    /// The common identifier for a tag key, case-insensitively.
    static func identifier(forKey key: String) -> Identifier? {
        switch key.lowercased() {
        case "title", "tit2", "©nam": .title
        case "subtitle", "tit3", "subtitle_title": .subtitle
        case "description", "desc", "synopsis", "ldes": .description
        case "artist", "tpe1", "author", "performer", "©art", "album_artist": .artist
        case "creation_time", "date", "date_released", "date_recorded", "tdrc", "year", "©day": .creationDate
        case "album", "talb": .album
        case "genre", "tcon": .genre
        case "comment", "comm": .comment
        default: nil
        }
    }
}

extension Array where Element == MetadataItem {
    /// The first item with `identifier`.
    public func first(_ identifier: MetadataItem.Identifier) -> MetadataItem? {
        first { $0.identifier == identifier }
    }
}
