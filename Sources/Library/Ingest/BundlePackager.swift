import BlockingWork
public import Foundation
import HLS
import MediaCore

/// Probes and packages media in process with MediaCore: FFmpeg's libraries on MediaCore's own
/// threads, cancellable, with FFmpeg's message in every failure.
///
/// The bundle is CMAF HLS from MediaCore's `HLSPackager` — a 720p + 360p H.264 ladder when the
/// picture's short side is at least 720, else the source size (the video copied when it is
/// already 8-bit 4:2:0 H.264, which every browser plays), one AAC rendition per audio track,
/// WebVTT subtitles, I-frame and image playlists — with renditions named and tagged for the
/// player (`English`, `Français`; `en`, `fr`), plus `poster.jpg` and the `trickplay.jpg`
/// sprite sheet described by `trickplay.json`. Audio-only files (music, podcasts) become one
/// AAC variant with their cover art as the poster.
public struct BundlePackager: BundlePackaging {
    /// Target media segment length in seconds (encoded video has a keyframe every 2 s).
    public var segmentDuration: Double

    public init(segmentDuration: Double = 2) {
        self.segmentDuration = segmentDuration
    }

    // MARK: Probe

    public func probe(_ source: URL) async throws -> MediaProbe {
        let asset = MediaAsset(isolatedFile: source)
        let (duration, tracks, metadata) = try await Self.media("read", source) {
            try await asset.load(.duration, .tracks, .metadata)
        }
        let video = tracks.first { $0.mediaType == .video && !$0.isAttachedPicture }
        guard video != nil || tracks.contains(where: { $0.mediaType == .audio }), duration.isNumeric, duration > .zero else {
            throw LibraryError.unsupportedSource(source.path)
        }
        func tag(_ key: String) -> String? {
            metadata.first { $0.key.lowercased() == key && $0.stringValue?.isEmpty == false }?.stringValue
        }
        let size = video?.presentationSize
        var tags: [String: String] = [:]
        for item in metadata {
            if let value = item.stringValue, !value.isEmpty, tags[item.key.lowercased()] == nil { tags[item.key.lowercased()] = value }
        }
        var probe = MediaProbe(
            duration: duration.seconds,
            width: size?.width,
            height: size?.height,
            title: tag("title"),
            subtitle: tag("artist") ?? tag("show"),
            summary: tag("description") ?? tag("comment") ?? tag("synopsis"),
            audioTracks: tracks.filter { $0.mediaType == .audio }.map(MediaProbe.Track.init),
            subtitleTracks: tracks.filter { $0.mediaType == .subtitle }.map(MediaProbe.Track.init)
        )
        probe.episode = EpisodeParser.parse(tags: tags)
        if probe.episode != nil, probe.subtitle == tags["show"] ?? tags["tvsh"] { probe.subtitle = nil }
        probe.releaseDate = ["date_released", "date", "©day", "tdrc", "year"].lazy.compactMap { tags[$0] }.first
        probe.liveStartDate = ["live_start_date", "live_start"].lazy.compactMap { tags[$0].flatMap(LiveDates.parse) }.first
        probe.liveEndDate = ["live_end_date", "live_end"].lazy.compactMap { tags[$0].flatMap(LiveDates.parse) }.first
        return probe
    }

    // MARK: Package

    public func package(
        _ source: URL, probe: MediaProbe, into bundle: URL,
        progress: @escaping @Sendable (PackagingProgress) async -> Void
    ) async throws -> PackagedBundle {
        let asset = MediaAsset(isolatedFile: source)
        let (duration, tracks) = try await Self.media("read", source) { try await asset.load(.duration, .tracks) }
        guard let video = tracks.first(where: { $0.mediaType == .video && !$0.isAttachedPicture }),
            let display = video.presentationSize, display.width > 0, display.height > 0
        else {
            return try await packageAudio(asset, source: source, tracks: tracks, into: bundle, progress: progress)
        }
        let played = try await writeHLS(
            asset, source: source, tracks: tracks, ladder: Self.ladder(for: video, display: display, duration: duration.seconds),
            into: bundle, progress: progress, phase: .packagingVideo, share: 0...0.9)

        await progress(PackagingProgress(.makingPoster, 0.9))
        let poster = try await Self.writePoster(of: asset, duration: duration.seconds, into: bundle)
        await progress(PackagingProgress(.makingThumbnails, 0.93))
        let trickPlay = try await Self.media("make trick-play images of", source) {
            try await TrickPlaySheet.write(of: asset, duration: duration.seconds, display: display, into: bundle)
        }
        await progress(PackagingProgress(.makingThumbnails, 1))
        return PackagedBundle(multivariantPlaylist: BundleLayout.multivariantPlaylist, poster: poster, trickPlay: trickPlay, duration: played)
    }

    /// Audio only (music, a podcast): one AAC variant (copied when it is AAC already) with
    /// the file's cover art, when it has a JPEG one, as the poster; no trick-play images, so
    /// no "Making thumbnails" phase.
    func packageAudio(
        _ asset: MediaAsset, source: URL, tracks: [AssetTrack], into bundle: URL,
        progress: @escaping @Sendable (PackagingProgress) async -> Void
    ) async throws -> PackagedBundle {
        guard tracks.contains(where: { $0.mediaType == .audio }) else { throw LibraryError.unsupportedSource(source.path) }
        let played = try await writeHLS(
            asset, source: source, tracks: tracks, ladder: nil, into: bundle, progress: progress, phase: .packagingAudio, share: 0...0.95)
        await progress(PackagingProgress(.savingCoverArt, 0.95))
        let cover = try await Self.coverArtJPEG(of: asset)
        if let cover {
            try await BlockingWork.run { try Data(cover).write(to: bundle.appendingPathComponent(BundleLayout.poster)) }
        }
        await progress(PackagingProgress(.savingCoverArt, 1))
        return PackagedBundle(
            multivariantPlaylist: BundleLayout.multivariantPlaylist, poster: cover == nil ? nil : BundleLayout.poster, trickPlay: nil,
            duration: played)
    }

    /// Runs MediaCore's `HLSPackager` into `bundle` (browser-playable audio: only AAC is copied)
    /// and writes the labelled `master.m3u8`; its progress, reported as `phase`, fills `share`
    /// of the whole. Returns how long the first variant plays (nil when its playlist does not read).
    private func writeHLS(
        _ asset: MediaAsset, source: URL, tracks: [AssetTrack], ladder: [Int]?, into bundle: URL,
        progress: @escaping @Sendable (PackagingProgress) async -> Void, phase: PackagingPhase, share: ClosedRange<Double>
    ) async throws -> Double? {
        var options = PackagingOptions(ladder: ladder)
        options.segmentDuration = segmentDuration
        options.copyableAudioCodecs = ["aac"]
        let packager = HLSPackager(asset: asset, options: options)
        let result = try await Self.media("package", source) {
            try await Self.relaying(progress, phase, share) { report in
                try await packager.package(to: bundle.path, progress: report)
            }
        }
        let master = try Self.labelled(result.multivariant, renditions: result.renditions, tracks: tracks)
        let firstVariant = result.multivariant.variants.first.map { bundle.appendingPathComponent($0.uri) }
        let played = try await BlockingWork.run { () -> Double? in
            try master.write(to: bundle.appendingPathComponent(BundleLayout.multivariantPlaylist), atomically: true, encoding: .utf8)
            guard let firstVariant, let text = try? String(contentsOf: firstVariant, encoding: .utf8) else { return nil }
            return PlaylistParser.parse(text).playlist?.media?.duration
        }
        await progress(PackagingProgress(phase, share.upperBound))
        return played
    }

    /// Ladder heights for `HLSPackager`: 720p and 360p by the short side for sources that large;
    /// else `nil` (copy) for video browsers play as it is and that covers the whole `duration`
    /// (a copy cannot be padded: a picture that starts late or ends early is encoded, with
    /// black before it and its last frame held after), or the source height (encode).
    static func ladder(for video: AssetTrack, display: PixelSize, duration: Double? = nil) -> [Int]? {
        let shortSide = min(display.width, display.height)
        if shortSide >= 720 {
            return [720, 360].map { target in
                display.width >= display.height ? target : Int((Double(target) * Double(display.height) / Double(shortSide)).rounded())
            }
        }
        let range = video.timeRange
        let coversDuration =
            duration.map { total in
                let start = range.start.isNumeric ? range.start.seconds : 0
                let end = range.duration.isNumeric ? range.end.seconds : total
                return start <= 0.5 && end >= total - 0.5
            } ?? true
        let browserSafe =
            video.codec == "h264" && ["yuv420p", "yuvj420p"].contains(video.pixelFormat ?? "")
            && video.pixelAspectRatio?.isSquare != false && video.displayRotation == 0 && coversDuration
        return browserSafe ? nil : [display.height]
    }

    /// The multivariant playlist with each audio and subtitle rendition named and tagged as
    /// the player shows it (title, else the language's own name; two-letter language), names
    /// kept unique within a group, checked with the strict parser.
    static func labelled(
        _ playlist: MultivariantPlaylist, renditions: [PackagingResult.Rendition],
        tracks: [AssetTrack]
    ) throws -> String {
        var playlist = playlist
        let sourceTrack = Dictionary(renditions.map { ($0.playlist, $0.sourceTrack) }, uniquingKeysWith: { first, _ in first })
        let trackByID = Dictionary(tracks.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var taken: [String: Set<String>] = [:]
        for index in playlist.renditions.indices {
            let rendition = playlist.renditions[index]
            var name = rendition.name
            if let uri = rendition.uri, let id = sourceTrack[uri], let track = trackByID[id] {
                let label = MediaProbe.Track(track)
                playlist.renditions[index].language = label.language
                name = label.title ?? LanguageTag.name(of: label.language) ?? name
            }
            let group = "\(rendition.type.rawValue) \(rendition.groupID)"
            var unique = name
            var counter = 2
            while taken[group, default: []].contains(unique) {
                unique = "\(name) \(counter)"
                counter += 1
            }
            taken[group, default: []].insert(unique)
            playlist.renditions[index].name = unique
        }
        let text = PlaylistWriter.write(playlist)
        if let error = PlaylistParser.parse(text, options: .strict).errors.first {
            throw LibraryError.mediaFailed(
                step: "label the renditions of", path: BundleLayout.multivariantPlaylist,
                cause: MediaError(.packaging, url: BundleLayout.multivariantPlaylist, message: error.fullMessage))
        }
        return text
    }

    public func decorate(bundle: URL, duration: Double, artwork: String?) async throws -> PackagedBundle {
        let master = bundle.appendingPathComponent(BundleLayout.multivariantPlaylist)
        let asset = MediaAsset(path: master.path)
        // The download's own artwork, when it brought one, is the poster as it is.
        let copiedArtwork = try await BlockingWork.run { () -> Bool in
            guard let artwork, artwork != BundleLayout.poster,
                FileManager.default.fileExists(atPath: bundle.appendingPathComponent(artwork).path)
            else { return false }
            try? FileManager.default.removeItem(at: bundle.appendingPathComponent(BundleLayout.poster))
            try FileManager.default.copyItem(at: bundle.appendingPathComponent(artwork), to: bundle.appendingPathComponent(BundleLayout.poster))
            return true
        }
        let poster = copiedArtwork ? BundleLayout.poster : try await Self.writePoster(of: asset, duration: duration, into: bundle)
        var trickPlay: String?
        let tracks = try await Self.media("read", master) { try await asset.load(.tracks) }
        if let video = tracks.first(where: { $0.mediaType == .video && !$0.isAttachedPicture }), let display = video.presentationSize {
            trickPlay = try await Self.media("make trick-play images of", master) {
                try await TrickPlaySheet.write(of: asset, duration: duration, display: display, into: bundle)
            }
        }
        return PackagedBundle(multivariantPlaylist: BundleLayout.multivariantPlaylist, poster: poster, trickPlay: trickPlay)
    }

    /// The poster as `poster.jpg`: the file's embedded cover art (an attached picture, JPEG as
    /// it is, another format re-encoded) when it has one, else the best of a few frames from 10 %
    /// to 50 % of the way in (`PosterChoice`), at most 1280 pixels wide; `nil` when there is
    /// neither (the bundle still plays).
    static func writePoster(of asset: MediaAsset, duration: Double, into bundle: URL) async throws -> String? {
        let target = bundle.appendingPathComponent(BundleLayout.poster)
        if let cover = try await coverArtJPEG(of: asset) {
            try await BlockingWork.run { try Data(cover).write(to: target) }
            return BundleLayout.poster
        }
        var generator = ImageGenerator(asset: asset)
        generator.maximumSize = PixelSize(width: 1280, height: 0)
        generator.setTolerance(MediaTime(seconds: 1, preferredTimescale: 1000))
        let times = PosterChoice.sampleFractions.map { MediaTime(seconds: duration * $0, preferredTimescale: 1000) }
        var frames: [VideoImage] = []
        for await generated in generator.images(for: times) {
            if let image = try? generated.image { frames.append(image) }
        }
        try Task.checkCancellation()
        let candidates = frames
        guard let best = try await BlockingWork.run({ PosterChoice.best(of: candidates) }) else { return nil }
        let jpeg: [UInt8]
        do {
            jpeg = try await frames[best].encoded(as: .jpeg(quality: 0.85))
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            try Task.checkCancellation()
            return nil
        }
        try await BlockingWork.run { try Data(jpeg).write(to: target) }
        return BundleLayout.poster
    }

    /// The file's embedded cover art as JPEG bytes: a JPEG attached picture as it is; a PNG (or
    /// other image) one decoded and re-encoded; `nil` when there is none or it does not decode.
    static func coverArtJPEG(of asset: MediaAsset) async throws -> [UInt8]? {
        guard let metadata = try? await asset.load(.metadata),
            let cover = metadata.first(where: { $0.identifier == .artwork && ($0.dataValue?.isEmpty == false) })?.dataValue
        else { return nil }
        if cover.starts(with: [0xFF, 0xD8, 0xFF]) { return cover }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-cover-\(UUID().uuidString)")
        try await BlockingWork.run { try Data(cover).write(to: file) }
        var generator = ImageGenerator(asset: MediaAsset(path: file.path))
        generator.maximumSize = PixelSize(width: 1280, height: 0)
        let jpeg: [UInt8]?
        do {
            let (image, _) = try await generator.image(at: .zero)
            jpeg = try await image.encoded(as: .jpeg(quality: 0.9))
        } catch {
            jpeg = nil
        }
        _ = try? await BlockingWork.run { try FileManager.default.removeItem(at: file) }
        try Task.checkCancellation()
        return jpeg
    }

    /// Runs MediaCore work, turning its errors into `LibraryError.mediaFailed` with FFmpeg's message.
    static func media<T: Sendable>(_ step: String, _ source: URL, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as MediaError {
            try Task.checkCancellation()
            throw LibraryError.mediaFailed(step: step, path: source.path, cause: error)
        }
    }

    /// Runs `body` with a synchronous progress callback whose fractions reach `progress` as
    /// `phase`, mapped into `range`, in order and without blocking the caller.
    static func relaying<T: Sendable>(
        _ progress: @escaping @Sendable (PackagingProgress) async -> Void, _ phase: PackagingPhase, _ range: ClosedRange<Double>,
        _ body: (@escaping @Sendable (Double) -> Void) async throws -> T
    ) async throws -> T {
        let (fractions, continuation) = AsyncStream.makeStream(of: Double.self, bufferingPolicy: .bufferingNewest(1))
        async let relayed: Void = {
            for await fraction in fractions {
                await progress(PackagingProgress(phase, range.lowerBound + fraction * (range.upperBound - range.lowerBound)))
            }
        }()
        let result: Result<T, any Error>
        do {
            result = .success(try await body { continuation.yield($0) })
        } catch {
            result = .failure(error)
        }
        continuation.finish()
        await relayed
        return try result.get()
    }
}

extension MediaProbe.Track {
    /// A track's two-letter language and its title (handler names such as `SoundHandler`,
    /// which MP4 muxers write, are not titles).
    init(_ track: AssetTrack) {
        let title = track.title.flatMap { $0.isEmpty || $0.hasSuffix("Handler") ? nil : $0 }
        self.init(language: LanguageTag.twoLetter(track.language), title: title)
    }
}
