public import Foundation
public import HLS

/// One file to fetch into the bundle: a segment, an init section, or a run of contiguous
/// byte ranges of one resource fetched with a single request.
public struct SegmentJob: Sendable, Hashable {
    /// Path inside the bundle (`folder/seg-00001.ts`); also the job's identity in the journal.
    public var path: String
    /// The resource to fetch, absolute.
    public var url: URL
    /// Where the bytes start in the resource; nil fetches it from the start.
    public var offset: UInt64?
    /// How many bytes to fetch from `offset`; nil fetches to the end.
    public var length: UInt64?
    /// How to decrypt the fetched bytes before they are written; nil for clear media.
    public var decryption: Decryption?
    /// Bytes the job is expected to bring, when the playlist says (byte ranges).
    public var expectedBytes: UInt64? { decryption == nil ? length : nil }

    /// AES-128 (CBC, PKCS7) decryption of a whole segment.
    public struct Decryption: Sendable, Hashable {
        /// Where the 16-byte key is.
        public var keyURL: URL
        /// The 16-byte initialisation vector: the declared IV, or one made from the media sequence number.
        public var iv: [UInt8]
    }
}

/// Turns a downloaded media playlist into the jobs that fetch it and the playlist the bundle
/// keeps: local relative URIs, AES-128 segments stored clear (keys dropped), byte ranges of
/// one resource merged into one request where they are contiguous and clear.
public enum MediaLayout {
    /// Largest merged byte-range request.
    public static let maximumMergedBytes: UInt64 = 16 << 20

    /// Refuses what cannot be stored offline: live playlists and encryption other than
    /// AES-128 with an identity key.
    public static func validate(_ playlist: MediaPlaylist, url: URL) throws {
        guard playlist.endList || playlist.playlistType == .vod else { throw DownloadError.liveStream(url) }
        for segment in playlist.segments {
            for key in segment.keys where key.method != .none {
                if key.method != .aes128 || !key.isIdentityFormat {
                    throw DownloadError.unsupportedEncryption(url: url, method: key.method.text, keyFormat: key.keyFormat)
                }
            }
        }
    }

    /// The jobs that fetch `playlist` (read from `url`) into `folder`, and the playlist as the
    /// bundle keeps it. Bytes that one of `reusing` already brings into the bundle clear (an
    /// I-frame playlist's ranges inside the video segments) are not fetched again: the
    /// segment points at that file, with its offset moved to where the bytes sit there.
    public static func make(
        folder: String, playlist: MediaPlaylist, url: URL,
        reusing: [SegmentJob] = []
    ) throws -> (jobs: [SegmentJob], playlist: MediaPlaylist) {
        try validate(playlist, url: url)
        let reuse = ReuseIndex(reusing, from: folder)
        var jobs: [SegmentJob] = []
        var out = playlist
        out.definitions = []
        out.partInformation = nil
        out.serverControl = nil
        out.preloadHints = []
        out.renditionReports = []
        out.trailingParts = []
        out.skip = nil
        out.endList = true
        // References that stay remote must not be left relative to a folder they were never in.
        for i in out.dateRanges.indices {
            for j in out.dateRanges[i].clientAttributes.indices
            where ["X-ASSET-URI", "X-ASSET-LIST"].contains(out.dateRanges[i].clientAttributes[j].name) {
                let value = out.dateRanges[i].clientAttributes[j].value.text
                out.dateRanges[i].clientAttributes[j].value = .quoted(URIResolution.resolve(value, against: url))
            }
        }
        var maps: [MediaInitializationSection: MediaInitializationSection] = [:]
        var i = 0
        let segments = playlist.segments
        while i < segments.count {
            let s = segments[i]
            let absolute = URL(string: URIResolution.resolve(s.uri, against: url)) ?? url
            let ext = fileExtension(s.uri)
            let key = s.keys.first { $0.method == .aes128 }
            var rewritten = s
            rewritten.keys = []
            rewritten.parts = []
            if let map = s.map {
                if let local = maps[map] {
                    rewritten.map = local
                } else if let mapURL = URL(string: URIResolution.resolve(map.uri, against: url)),
                    let found = reuse.find(mapURL, offset: map.byteRange.map { $0.offset ?? 0 }, length: map.byteRange?.length)
                {
                    var local = MediaInitializationSection(uri: found.path)
                    local.byteRange = map.byteRange.map { ByteRange(length: $0.length, offset: found.offset ?? 0) }
                    maps[map] = local
                    rewritten.map = local
                } else {
                    let name = "init-\(maps.count + 1)\(fileExtension(map.uri, fallback: ".mp4"))"
                    let mapURL = URL(string: URIResolution.resolve(map.uri, against: url)) ?? url
                    let offset = map.byteRange.map { $0.offset ?? 0 }
                    jobs.append(SegmentJob(path: "\(folder)/\(name)", url: mapURL, offset: offset, length: map.byteRange?.length))
                    let local = MediaInitializationSection(uri: name)
                    maps[map] = local
                    rewritten.map = local
                }
            }
            let decryption = try key.map { k -> SegmentJob.Decryption in
                guard let keyURI = k.uri, let keyURL = URL(string: URIResolution.resolve(keyURI, against: url)) else {
                    throw DownloadError.badKey(url: url, reason: "AES-128 key without a URI")
                }
                if let iv = k.iv { return SegmentJob.Decryption(keyURL: keyURL, iv: iv) }
                // Without an IV attribute the IV is the segment's media sequence number, which
                // must itself be a decimal-integer (at most 2^64-1).
                let (sequence, overflow) = playlist.mediaSequence.addingReportingOverflow(UInt64(i))
                guard !overflow else {
                    throw DownloadError.badKey(
                        url: url,
                        reason: "segment \(i + 1) has no IV and its media sequence number is past 2^64-1 (EXT-X-MEDIA-SEQUENCE:\(playlist.mediaSequence))")
                }
                return SegmentJob.Decryption(keyURL: keyURL, iv: ivFromSequence(sequence))
            }
            if decryption == nil, let found = reuse.find(absolute, offset: s.byteRange != nil ? s.resolvedByteRangeOffset : nil, length: s.byteRange?.length) {
                rewritten.uri = found.path
                rewritten.byteRange = s.byteRange.map { ByteRange(length: $0.length, offset: found.offset ?? 0) }
                rewritten.resolvedByteRangeOffset = rewritten.byteRange?.offset
                out.segments[i] = rewritten
                i += 1
                continue
            }
            if let range = s.byteRange, let start = s.resolvedByteRangeOffset, decryption == nil {
                // Merge the run of contiguous clear ranges of the same resource.
                var j = i
                var end = start + range.length
                while j + 1 < segments.count {
                    let n = segments[j + 1]
                    guard n.uri == s.uri, let r = n.byteRange, let o = n.resolvedByteRangeOffset, o == end,
                        reuse.find(absolute, offset: o, length: r.length) == nil,
                        !n.keys.contains(where: { $0.method == .aes128 }), n.map == s.map,
                        end + r.length - start <= maximumMergedBytes
                    else { break }
                    end += r.length
                    j += 1
                }
                let name = "range-\(String(format: "%05d", jobs.count + 1))\(ext)"
                jobs.append(SegmentJob(path: "\(folder)/\(name)", url: absolute, offset: start, length: end - start))
                for k in i...j {
                    var r = segments[k]
                    r.keys = []
                    r.parts = []
                    r.map = rewritten.map
                    r.uri = name
                    r.byteRange = ByteRange(length: segments[k].byteRange!.length, offset: segments[k].resolvedByteRangeOffset! - start)
                    r.resolvedByteRangeOffset = r.byteRange?.offset
                    out.segments[k] = r
                }
                i = j + 1
                continue
            }
            let name = "seg-\(String(format: "%05d", i + 1))\(ext)"
            jobs.append(
                SegmentJob(
                    path: "\(folder)/\(name)", url: absolute, offset: s.byteRange != nil ? s.resolvedByteRangeOffset : nil,
                    length: s.byteRange?.length, decryption: decryption))
            rewritten.uri = name
            rewritten.byteRange = nil
            rewritten.resolvedByteRangeOffset = nil
            out.segments[i] = rewritten
            i += 1
        }
        return (jobs, out)
    }

    /// Files other jobs bring into the bundle clear, by source URL, to find bytes in.
    struct ReuseIndex {
        private var byURL: [URL: [SegmentJob]] = [:]
        private let prefix: String

        init(_ jobs: [SegmentJob], from folder: String) {
            for job in jobs where job.decryption == nil { byURL[job.url, default: []].append(job) }
            prefix = String(repeating: "../", count: folder.split(separator: "/").count)
        }

        /// Where bytes `offset..<offset+length` of `url` (the whole resource when `offset` is
        /// nil) are in the bundle: a path relative to the folder, and the offset inside it.
        func find(_ url: URL, offset: UInt64?, length: UInt64?) -> (path: String, offset: UInt64?)? {
            guard let jobs = byURL[url] else { return nil }
            for job in jobs {
                switch (offset, job.offset) {
                case (nil, nil):
                    return (prefix + job.path, nil)
                case (let o?, nil):
                    return (prefix + job.path, o)
                case (let o?, let start?):
                    guard let length, let jobLength = job.length, o >= start, o + length <= start + jobLength else { continue }
                    return (prefix + job.path, o - start)
                case (nil, _?):
                    continue
                }
            }
            return nil
        }
    }

    /// The implicit IV: the media sequence number as a 128-bit big-endian integer.
    public static func ivFromSequence(_ n: UInt64) -> [UInt8] {
        [UInt8](repeating: 0, count: 8) + (0..<8).map { UInt8((n >> (8 * (7 - UInt64($0)))) & 0xFF) }
    }

    static func fileExtension(_ uri: String, fallback: String = ".bin") -> String {
        let path = uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? uri
        let last = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = last.lastIndex(of: "."), last.index(after: dot) < last.endIndex else { return fallback }
        let ext = last[dot...].lowercased()
        return ext.count <= 8 && ext.dropFirst().allSatisfy({ $0.isLetter || $0.isNumber }) ? ext : fallback
    }
}
