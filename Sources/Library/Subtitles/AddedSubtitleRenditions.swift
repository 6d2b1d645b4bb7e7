import Foundation
import HLS

/// The playlists that serve added subtitle files: one `EXT-X-MEDIA TYPE=SUBTITLES` rendition
/// per file in the multivariant playlist, beside the renditions packaged from the media file,
/// each with a media playlist of one WebVTT segment that covers the whole item.
enum AddedSubtitleRenditions {
    /// The group added renditions join when the variants name none yet.
    static let defaultGroup = "subs"

    /// `multivariant` (the playlist's text) with the added renditions it had replaced by
    /// those of `files`; the variants name the subtitle group while it has any rendition.
    static func multivariant(_ multivariant: String, files: [SubtitleFile]) throws -> String {
        let parsed = PlaylistParser.parse(multivariant)
        guard var playlist = parsed.playlist?.multivariant else {
            throw LibraryError.invalidRequest("The item's playlist could not be read, so subtitles cannot be added to it")
        }
        playlist.renditions.removeAll { $0.type == .subtitles && isAddedFile($0.uri ?? "") }
        let group = playlist.variants.lazy.compactMap(\.subtitles).first ?? defaultGroup
        var taken = Set(playlist.renditions.filter { $0.type == .subtitles && $0.groupID == group }.map(\.name))
        for file in files {
            var name = file.label
            var counter = 2
            while taken.contains(name) {
                name = "\(file.label) \(counter)"
                counter += 1
            }
            taken.insert(name)
            var rendition = Rendition(type: .subtitles, groupID: group, name: name)
            rendition.uri = file.playlistPath
            rendition.language = file.language
            rendition.autoselect = true
            rendition.forced = file.isForced
            playlist.renditions.append(rendition)
        }
        let hasSubtitles = playlist.renditions.contains { $0.type == .subtitles && $0.groupID == group }
        for index in playlist.variants.indices {
            playlist.variants[index].subtitles = hasSubtitles ? group : nil
        }
        return PlaylistWriter.write(playlist)
    }

    /// Whether `path` (in the bundle) is one of an added file's: `subtitles/sub-…(.m3u8|.vtt)`,
    /// never a bundle's own files that happen to sit in a `subtitles` folder.
    static func isAddedFile(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0] == BundleLayout.subtitlesFolder else { return false }
        let name = (String(parts[1]) as NSString)
        return ["m3u8", "vtt"].contains(name.pathExtension) && SubtitleFile.isValidID(name.deletingPathExtension)
    }

    /// The media playlist of one added file: a single segment, the item's `duration` long.
    static func mediaPlaylist(for file: SubtitleFile, duration: Double) -> String {
        let length = duration.isFinite && duration > 0 ? duration : 1
        var playlist = MediaPlaylist()
        playlist.version = 3
        playlist.playlistType = .vod
        playlist.endList = true
        playlist.targetDuration = Int(length.rounded(.up))
        playlist.segments = [MediaSegment(uri: "\(file.id).vtt", duration: length)]
        return PlaylistWriter.write(playlist)
    }

    /// Every file the renditions need, by path in the bundle, the multivariant playlist last
    /// (so a reader never finds it naming a playlist not written yet).
    static func files(for files: [SubtitleFile], multivariant: String, duration: Double) throws -> [(path: String, data: Data)] {
        var written: [(String, Data)] = []
        for file in files {
            written.append((file.webVTTPath, Data(file.webVTT.utf8)))
            written.append((file.playlistPath, Data(mediaPlaylist(for: file, duration: duration).utf8)))
        }
        written.append((BundleLayout.multivariantPlaylist, Data(try Self.multivariant(multivariant, files: files).utf8)))
        return written
    }

    /// Writes the renditions into a local bundle folder (a staged bundle before it is
    /// published); nothing when there are no files. Blocking: run it on `BlockingWork`.
    static func install(_ files: [SubtitleFile], duration: Double, into bundle: URL) throws {
        guard !files.isEmpty else { return }
        let master = bundle.appendingPathComponent(BundleLayout.multivariantPlaylist)
        let text = try String(contentsOf: master, encoding: .utf8)
        for (path, data) in try Self.files(for: files, multivariant: text, duration: duration) {
            let target = bundle.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: target, options: .atomic)
        }
    }
}
