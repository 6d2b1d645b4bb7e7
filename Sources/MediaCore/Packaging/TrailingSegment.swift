import Foundation
import HLS

/// Folds a runt last segment of an fMP4 media playlist into the segment before it.
///
/// libavformat's HLS muxer cuts a segment whenever a stream passes the next multiple of the
/// target duration, measured from the stream's first packet. AAC's priming packet starts
/// about 21 ms before zero, so the audio cuts fall that much early and a clip that ends on a
/// whole segment boundary gets one last audio segment holding a single packet. Such a
/// segment is legal but degenerate: players that decide by time what to fetch next skip it,
/// and the stream never ends. Its fragment (`moof` + `mdat`, positioned relative to the
/// `moof`) is appended to the previous segment file, whose `sidx` then covers both; the
/// playlist lists one segment less.
enum TrailingSegment {
    /// A last segment shorter than this many seconds (for a target of `segmentDuration`) is folded.
    static func threshold(segmentDuration: Double) -> Double { min(0.5, segmentDuration / 4) }

    /// Folds the last segment of the playlist at `playlistPath` into the one before when it
    /// is shorter than `threshold` seconds. Returns whether it did.
    @discardableResult
    static func fold(playlistAt playlistPath: String, shorterThan threshold: Double) throws -> Bool {
        let text = try String(contentsOfFile: playlistPath, encoding: .utf8)
        guard var playlist = PlaylistParser.parse(text, options: .strict).playlist?.media else {
            throw MediaError(.packaging, url: playlistPath, message: "FFmpeg's segment playlist does not parse")
        }
        let count = playlist.segments.count
        guard count >= 2 else { return false }
        let last = playlist.segments[count - 1]
        let previous = playlist.segments[count - 2]
        guard last.duration < threshold, last.byteRange == nil, previous.byteRange == nil, last.map == previous.map,
            !last.discontinuity, !last.uri.contains("/"), !previous.uri.contains("/")
        else { return false }
        let directory = (playlistPath as NSString).deletingLastPathComponent
        let lastPath = (directory as NSString).appendingPathComponent(last.uri)
        let previousPath = (directory as NSString).appendingPathComponent(previous.uri)
        guard let runt = FileManager.default.contents(atPath: lastPath),
            let head = FileManager.default.contents(atPath: previousPath)
        else {
            throw MediaError(.packaging, url: lastPath, message: "cannot read the last two segments")
        }
        let merged = try merge(Array(head), Array(runt), url: lastPath)
        try Data(merged).write(to: URL(fileURLWithPath: previousPath), options: .atomic)
        try FileManager.default.removeItem(atPath: lastPath)

        playlist.segments.removeLast()
        // (Rounded to the microsecond, as libavformat writes them.)
        playlist.segments[count - 2].duration = ((previous.duration + last.duration) * 1_000_000).rounded() / 1_000_000
        let longest = playlist.segments.map(\.duration).max() ?? 0
        playlist.targetDuration = max(playlist.targetDuration ?? 0, Int(longest.rounded()))
        try PlaylistWriter.write(playlist).write(toFile: playlistPath, atomically: true, encoding: .utf8)
        return true
    }

    /// `head` followed by the fragments of `runt` (its `styp` and `sidx` dropped), with the
    /// head's single-reference `sidx` grown to cover both, or removed when it has several.
    static func merge(_ head: [UInt8], _ runt: [UInt8], url: String) throws -> [UInt8] {
        let runtBoxes = try boxes(runt, url: url)
        let fragments = runtBoxes.filter { !["styp", "sidx"].contains($0.type) }
        guard fragments.contains(where: { $0.type == "moof" }) else {
            throw MediaError(.packaging, url: url, message: "the last segment holds no movie fragment")
        }
        let appended = fragments.flatMap { Array(runt[$0.range]) }
        let runtDuration = runtBoxes.first { $0.type == "sidx" }.flatMap { SegmentIndex(runt, $0)?.subsegmentDuration }

        var output: [UInt8] = []
        output.reserveCapacity(head.count + appended.count)
        for box in try boxes(head, url: url) {
            guard box.type == "sidx" else {
                output += head[box.range]
                continue
            }
            // One reference describing the whole segment: widen it. Otherwise leave it out
            // (the index is optional in a CMAF segment; a wrong one is worse than none).
            if var index = SegmentIndex(head, box), let runtDuration {
                index.grow(bytes: appended.count, duration: runtDuration)
                output += index.bytes
            }
        }
        return output + appended
    }

    struct Box {
        var type: String
        var range: Range<Int>
    }

    /// The top-level boxes of an ISO BMFF file.
    static func boxes(_ bytes: [UInt8], url: String) throws -> [Box] {
        var result: [Box] = []
        var offset = 0
        while offset < bytes.count {
            guard offset + 8 <= bytes.count else { throw MediaError(.packaging, url: url, message: "truncated box at byte \(offset)") }
            var size = Int(readUInt32(bytes, offset))
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            if size == 1 {
                guard offset + 16 <= bytes.count else { throw MediaError(.packaging, url: url, message: "truncated box at byte \(offset)") }
                size = Int(readUInt32(bytes, offset + 8)) << 32 | Int(readUInt32(bytes, offset + 12))
            } else if size == 0 {
                size = bytes.count - offset
            }
            guard size >= 8, offset + size <= bytes.count else {
                throw MediaError(.packaging, url: url, message: "box '\(type)' at byte \(offset) overruns the file")
            }
            result.append(Box(type: type, range: offset..<(offset + size)))
            offset += size
        }
        return result
    }

    /// A segment index (`sidx`) box with exactly one reference, as libavformat writes per segment.
    struct SegmentIndex {
        var bytes: [UInt8]
        /// Where the reference's size and duration words sit within `bytes`.
        let referenceOffset: Int

        init?(_ file: [UInt8], _ box: Box) {
            let bytes = Array(file[box.range])
            guard bytes.count >= 12, readUInt32(bytes, 0) == UInt32(bytes.count) else { return nil }
            let version = bytes[8]
            let counts = 12 + 4 + 4 + (version == 0 ? 8 : 16)  // header, reference_ID, timescale, times
            guard bytes.count >= counts + 4 + 12, readUInt16(bytes, counts + 2) == 1 else { return nil }
            self.bytes = bytes
            referenceOffset = counts + 4
        }

        var subsegmentDuration: UInt32 { readUInt32(bytes, referenceOffset + 4) }

        mutating func grow(bytes added: Int, duration: UInt32) {
            let word = readUInt32(bytes, referenceOffset)
            let type = word & 0x8000_0000
            let size = word & 0x7FFF_FFFF
            writeUInt32(&bytes, referenceOffset, type | ((size + UInt32(added)) & 0x7FFF_FFFF))
            writeUInt32(&bytes, referenceOffset + 4, subsegmentDuration &+ duration)
        }
    }

    static func readUInt32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }

    static func readUInt16(_ bytes: [UInt8], _ offset: Int) -> UInt16 {
        UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }

    static func writeUInt32(_ bytes: inout [UInt8], _ offset: Int, _ value: UInt32) {
        for index in 0..<4 { bytes[offset + index] = UInt8((value >> (24 - 8 * index)) & 0xFF) }
    }
}
