import Foundation

// Content configurations are stored (a download's metadata.json, its resume journal) and
// read back against a re-fetched playlist. Predicates are stored as their format string;
// an explicit variant as the attributes that identify it (`VariantQualifier.identifies`).

extension VariantPredicate: Codable {
    public init(from decoder: any Decoder) throws {
        let format = try decoder.singleValueContainer().decode(String.self)
        do {
            try self.init(format: format)
        } catch {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "invalid predicate \"\(format)\": \(error)"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}

extension VariantQualifier: Codable {
    private enum CodingKeys: String, CodingKey { case predicate, uri, variant, minimum, maximum, among }

    private struct StreamIdentity: Codable {
        var uri: String
        var bandwidth: Int?
        var audio: String?
        var subtitles: String?
        var video: String?
        var pathwayID: String?
        var stableVariantID: String?
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if let p = try c.decodeIfPresent(VariantPredicate.self, forKey: .predicate) {
            kind = .predicate(p)
        } else if let uri = try c.decodeIfPresent(String.self, forKey: .uri) {
            kind = .uri(uri)
        } else if let id = try c.decodeIfPresent(StreamIdentity.self, forKey: .variant) {
            var attributes = StreamAttributes()
            attributes.bandwidth = id.bandwidth
            attributes.video = id.video
            attributes.pathwayID = id.pathwayID
            attributes.stableVariantID = id.stableVariantID
            var stream = VariantStream(uri: id.uri, attributes: attributes)
            stream.audio = id.audio
            stream.subtitles = id.subtitles
            kind = .variant(stream)
        } else {
            let among = try c.decodeIfPresent(VariantPredicate.self, forKey: .among) ?? .always
            if let key = try c.decodeIfPresent(VariantKeyPath.self, forKey: .minimum) {
                kind = .extremum(.minimum, key, among: among)
            } else if let key = try c.decodeIfPresent(VariantKeyPath.self, forKey: .maximum) {
                kind = .extremum(.maximum, key, among: among)
            } else {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: decoder.codingPath,
                        debugDescription: "expected one of predicate, uri, variant, minimum, maximum"))
            }
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch kind {
        case .predicate(let p): try c.encode(p, forKey: .predicate)
        case .uri(let u): try c.encode(u, forKey: .uri)
        case .variant(let s):
            try c.encode(
                StreamIdentity(
                    uri: s.uri, bandwidth: s.attributes.bandwidth, audio: s.audio, subtitles: s.subtitles,
                    video: s.attributes.video, pathwayID: s.attributes.pathwayID,
                    stableVariantID: s.attributes.stableVariantID), forKey: .variant)
        case .extremum(let e, let key, let among):
            try c.encode(key, forKey: e == .minimum ? .minimum : .maximum)
            if among != .always { try c.encode(among, forKey: .among) }
        }
    }
}
