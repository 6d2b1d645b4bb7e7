import BlockingWork
import Foundation
import HLS
import Library

/// Local files Live Text reads frames from when an asset's media are only in object storage
/// (`--media s3://…`): the asset's largest video rendition, cut down to the segments needed.
///
/// A frame at time `t` needs the rendition's initialization section and the segment holding
/// `t` (and the next one, for a frame at a segment's very end). Concatenated, they are a valid
/// fragmented MP4 (or MPEG-TS) whose timestamps are the asset's own (`tfdt`), so FFmpeg opens
/// it as any local file and seeks to `t` unchanged: no change to MediaCore or recognition, and
/// one whole-object GET per segment rather than the many small reads FFmpeg's seeking would
/// make through a ranged-read AVIO. Indexing for search reads every sampled frame, so it gets
/// the whole rendition the same way. Files are kept in `object-storage/frames/ASSET` under
/// the data directory, the least recently used removed past `byteLimit`.
struct StoredFrameWindows: Sendable {
    let media: any MediaStore
    let root: URL
    let byteLimit: Int

    init(media: any MediaStore, dataDirectory: URL, byteLimit: Int = 512 << 20) {
        self.media = media
        root = dataDirectory.appendingPathComponent("object-storage/frames")
        self.byteLimit = byteLimit
    }

    /// A local file with the frames of `assetID` around `time` (every frame when `time` is
    /// `nil`), or `nil` when the asset has no video rendition.
    func file(assetID: String, around time: Double?) async throws -> URL? {
        guard let rendition = try await largestVideoRendition(of: assetID) else { return nil }
        let segments = rendition.playlist.segments
        guard !segments.isEmpty else { return nil }
        var chosen = 0..<segments.count
        if let time {
            let starts = rendition.playlist.segmentStartTimes
            let index = max(0, (starts.lastIndex { $0 <= time }) ?? 0)
            chosen = index..<min(segments.count, index + 2)
        }
        // The files to join, in order, each once (a single-file rendition names one file many times).
        var paths: [String] = []
        if let map = segments[chosen.lowerBound].map ?? segments.first?.map, let path = rendition.resolve(map.uri) { paths.append(path) }
        for segment in segments[chosen] {
            guard let path = rendition.resolve(segment.uri) else { continue }
            if !paths.contains(path) { paths.append(path) }
        }
        let name =
            "\(rendition.folder.replacingOccurrences(of: "/", with: "_"))-\(rendition.version)-\(time == nil ? "all" : "\(chosen.lowerBound)-\(chosen.upperBound)").\(rendition.fileExtension)"
        let folder = root.appendingPathComponent(assetID)
        let target = folder.appendingPathComponent(name)
        let reused = try await BlockingWork.run {
            guard FileManager.default.fileExists(atPath: target.path) else { return false }
            try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: target.path)
            return true
        }
        if reused { return target }
        let partial = folder.appendingPathComponent(".\(name).\(UUID().uuidString.prefix(8))")
        let handle = try await BlockingWork.run {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: partial.path, contents: nil)
            return try FileHandle(forWritingTo: partial)
        }
        do {
            for path in paths {
                guard let stream = try await media.stream(path, of: assetID, range: nil, ifMatch: nil) else {
                    throw LibraryError.invalidRequest("\(path) of \(assetID) is not in \(media)")
                }
                var pending = Data()
                for try await chunk in stream.chunks {
                    pending.append(chunk)
                    if pending.count >= 1 << 20 {
                        let bytes = pending
                        pending = Data()
                        try await BlockingWork.run { try handle.write(contentsOf: bytes) }
                    }
                }
                let bytes = pending
                try await BlockingWork.run { try handle.write(contentsOf: bytes) }
            }
            try await BlockingWork.run {
                try handle.close()
                _ = try? FileManager.default.removeItem(at: target)
                try FileManager.default.moveItem(at: partial, to: target)
            }
        } catch {
            _ = try? await BlockingWork.run {
                try? handle.close()
                try FileManager.default.removeItem(at: partial)
            }
            throw error
        }
        await trim(keeping: target)
        return target
    }

    /// Forgets what was kept for an asset (its media changed or it was deleted).
    func forget(assetID: String) async {
        guard LibraryLocation.isSafeComponent(assetID) else { return }
        let folder = root.appendingPathComponent(assetID)
        _ = try? await BlockingWork.run { try FileManager.default.removeItem(at: folder) }
    }

    /// Removes the least recently used files until the kept ones fit in `byteLimit`.
    func trim(keeping kept: URL) async {
        let (root, limit) = (root, byteLimit)
        _ = try? await BlockingWork.run {
            let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey, .isRegularFileKey]
            guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: keys) else { return }
            var files: [(url: URL, size: Int, used: Date)] = []
            for case let url as URL in walker {
                guard let values = try? url.resourceValues(forKeys: Set(keys)), values.isRegularFile == true else { continue }
                files.append((url, values.fileSize ?? 0, values.contentModificationDate ?? .distantPast))
            }
            var total = files.reduce(0) { $0 + $1.size }
            for file in files.sorted(by: { $0.used < $1.used }) where total > limit && file.url.standardizedFileURL != kept.standardizedFileURL {
                try? FileManager.default.removeItem(at: file.url)
                total -= file.size
            }
        }
    }

    /// A media playlist of the bundle and the folder its URIs are relative to.
    struct Rendition {
        var folder: String
        var playlist: MediaPlaylist
        /// A stable digest of the playlist's text: a re-packaged bundle gets new file names.
        var version = ""

        /// The bundle path of a URI in the playlist, or `nil` when it would leave the bundle.
        func resolve(_ uri: String) -> String? {
            guard !uri.contains("://"), !uri.hasPrefix("/") else { return nil }
            var parts = folder.split(separator: "/").map(String.init)
            for part in uri.split(separator: "?").first.map({ $0.split(separator: "/") }) ?? [] {
                if part == ".." {
                    guard !parts.isEmpty else { return nil }
                    parts.removeLast()
                } else if part != "." {
                    parts.append(String(part))
                }
            }
            return parts.isEmpty ? nil : parts.joined(separator: "/")
        }

        /// `mp4` for fragmented MP4 segments (with an initialization section), else `ts`.
        var fileExtension: String { playlist.segments.first?.map != nil ? "mp4" : "ts" }
    }

    /// The video rendition with the most pixels, read from the store's local playlist copies.
    func largestVideoRendition(of assetID: String) async throws -> Rendition? {
        let playlists = try await media.playlistFolder(for: assetID)
        return try await BlockingWork.run { () -> Rendition? in
            let master = playlists.appendingPathComponent(BundleLayout.multivariantPlaylist)
            guard let multivariant = try? PlaybackManifest.multivariantPlaylist(at: master) else { return nil }
            let largest = multivariant.inspectedVariants().max { a, b in
                let sizeA = a.videoAttributes?.presentationSize
                let sizeB = b.videoAttributes?.presentationSize
                return (sizeA?.width ?? 0) * (sizeA?.height ?? 0) < (sizeB?.width ?? 0) * (sizeB?.height ?? 0)
            }
            guard let uri = largest?.stream.uri, let path = Rendition(folder: "", playlist: MediaPlaylist()).resolve(uri),
                MediaPath.components(path, assetID: assetID) != nil
            else { return nil }
            let file = path.split(separator: "/").reduce(playlists) { $0.appendingPathComponent(String($1)) }
            guard let text = try? String(contentsOf: file, encoding: .utf8), let playlist = PlaylistParser.parse(text).playlist?.media else { return nil }
            let folder = path.split(separator: "/").dropLast().joined(separator: "/")
            // FNV-1a: stable across runs, unlike `hashValue`.
            let digest = text.utf8.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
            return Rendition(folder: folder, playlist: playlist, version: String(digest, radix: 36))
        }
    }
}
