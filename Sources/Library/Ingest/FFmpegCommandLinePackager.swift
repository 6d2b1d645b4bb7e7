import Foundation

/// Probes and packages media by running the `ffprobe` and `ffmpeg` command-line tools as
/// async subprocesses — the stand-in until MediaCore's in-process packager lands.
///
/// Output is CMAF HLS (`-hls_segment_type fmp4`): a 720p/360p ladder (or the source size
/// when smaller), one audio rendition per audio track, WebVTT subtitles, a poster frame and
/// a trick-play sprite sheet.
public struct FFmpegCommandLinePackager: MediaPackager {
    let ffmpeg: ProcessRunner
    let ffprobe: ProcessRunner

    public init(ffmpegPath: String = "/usr/bin/ffmpeg", ffprobePath: String = "/usr/bin/ffprobe") {
        ffmpeg = ProcessRunner(executable: ffmpegPath)
        ffprobe = ProcessRunner(executable: ffprobePath)
    }

    // MARK: Probe

    public func probe(_ source: URL) async throws -> MediaProbe {
        let collected = OutputCollector()
        try await ffprobe.run(
            ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", source.path],
            onLine: { await collected.append($0) })
        let json = await collected.text
        guard let report = try? JSONDecoder().decode(FFprobeReport.self, from: Data(json.utf8)) else {
            throw LibraryError.unsupportedSource(source.path)
        }
        let video = report.streams.first { $0.codec_type == "video" && $0.disposition?.attached_pic != 1 }
        let duration = Double(report.format.duration ?? "") ?? 0
        guard video != nil || report.streams.contains(where: { $0.codec_type == "audio" }), duration > 0 else {
            throw LibraryError.unsupportedSource(source.path)
        }
        func track(_ stream: FFprobeReport.Stream) -> MediaProbe.Track {
            MediaProbe.Track(language: Self.twoLetterLanguage(stream.tags?["language"]), title: stream.tags?["title"])
        }
        let tags = report.format.tags ?? [:]
        func tag(_ key: String) -> String? {
            tags.first { $0.key.lowercased() == key }?.value
        }
        return MediaProbe(
            duration: duration,
            width: video?.width,
            height: video?.height,
            title: tag("title"),
            subtitle: tag("artist") ?? tag("show"),
            summary: tag("description") ?? tag("comment") ?? tag("synopsis"),
            audioTracks: report.streams.filter { $0.codec_type == "audio" }.map(track),
            subtitleTracks: report.streams.filter { $0.codec_type == "subtitle" }.map(track)
        )
    }

    static func twoLetterLanguage(_ code: String?) -> String? {
        guard let code = code?.lowercased(), code != "und", !code.isEmpty else { return nil }
        let known = ["eng": "en", "fra": "fr", "fre": "fr", "jpn": "ja", "deu": "de", "ger": "de", "spa": "es",
                     "ita": "it", "por": "pt", "zho": "zh", "chi": "zh", "kor": "ko", "rus": "ru", "nld": "nl", "dut": "nl"]
        if let two = known[code] { return two }
        return code.count == 2 ? code : String(code.prefix(2))
    }

    static func languageName(_ code: String?) -> String {
        switch code {
        case "en": "English"
        case "fr": "Français"
        case "ja": "日本語"
        case "de": "Deutsch"
        case "es": "Español"
        case nil: "Unknown"
        case let other?: other
        }
    }

    // MARK: Package

    public func package(
        _ source: URL, probe: MediaProbe, into bundle: URL,
        progress: @escaping @Sendable (Double) async -> Void
    ) async throws -> PackagedBundle {
        guard let width = probe.width, let height = probe.height else {
            throw LibraryError.unsupportedSource(source.path)
        }
        let rungs = Self.ladder(width: width, height: height)
        var arguments = ["-hide_banner", "-nostats", "-loglevel", "error", "-y", "-i", source.path]
        let split = rungs.indices.map { "[v\($0)]" }.joined()
        let scales = rungs.enumerated().map { index, rung in "[v\(index)]scale=\(rung.width):\(rung.height)[v\(index)o]" }
        arguments += ["-filter_complex", "[0:v:0]split=\(rungs.count)\(split);" + scales.joined(separator: ";")]
        for index in rungs.indices { arguments += ["-map", "[v\(index)o]"] }
        for index in probe.audioTracks.indices { arguments += ["-map", "0:a:\(index)"] }
        arguments += ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-profile:v", "high",
                      "-g", "48", "-keyint_min", "48", "-sc_threshold", "0", "-r", "24"]
        for (index, rung) in rungs.enumerated() { arguments += ["-b:v:\(index)", "\(rung.bitrate)k", "-maxrate:v:\(index)", "\(rung.bitrate * 3 / 2)k", "-bufsize:v:\(index)", "\(rung.bitrate * 2)k"] }
        if !probe.audioTracks.isEmpty { arguments += ["-c:a", "aac", "-b:a", "128k", "-ac", "2", "-ar", "48000"] }
        var streamMap = rungs.enumerated().map { index, rung in
            "v:\(index),name:\(rung.name)" + (probe.audioTracks.isEmpty ? "" : ",agroup:aud")
        }
        for (index, track) in probe.audioTracks.enumerated() {
            let language = track.language ?? "und"
            streamMap.append("a:\(index),agroup:aud,name:audio_\(index)_\(language),language:\(language)" + (index == 0 ? ",default:yes" : ""))
        }
        arguments += [
            "-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod", "-hls_segment_type", "fmp4",
            "-hls_flags", "independent_segments", "-hls_fmp4_init_filename", "init.mp4",
            "-hls_segment_filename", bundle.appendingPathComponent("%v/segment%03d.m4s").path,
            "-master_pl_name", "master.m3u8", "-var_stream_map", streamMap.joined(separator: " "),
            "-progress", "pipe:1",
            bundle.appendingPathComponent("%v/index.m3u8").path,
        ]
        let duration = probe.duration
        try await ffmpeg.run(arguments) { line in
            if line.hasPrefix("out_time_us="), let micros = Double(line.dropFirst("out_time_us=".count)), duration > 0 {
                await progress(min(0.9, micros / 1_000_000 / duration * 0.9))
            }
        }

        var subtitleEntries: [String] = []
        if !probe.subtitleTracks.isEmpty {
            try FileManager.default.createDirectory(at: bundle.appendingPathComponent("subtitles"), withIntermediateDirectories: true)
        }
        for (index, track) in probe.subtitleTracks.enumerated() {
            let language = track.language ?? "und"
            let name = "\(language)-\(index)"
            try await ffmpeg.run(["-hide_banner", "-loglevel", "error", "-y", "-i", source.path, "-map", "0:s:\(index)",
                                  "-c:s", "webvtt", bundle.appendingPathComponent("subtitles/\(name).vtt").path])
            let playlist = """
                #EXTM3U
                #EXT-X-VERSION:7
                #EXT-X-TARGETDURATION:\(Int(duration.rounded(.up)))
                #EXT-X-PLAYLIST-TYPE:VOD
                #EXTINF:\(String(format: "%.3f", duration)),
                \(name).vtt
                #EXT-X-ENDLIST

                """
            try playlist.write(to: bundle.appendingPathComponent("subtitles/\(name).m3u8"), atomically: true, encoding: .utf8)
            let languageName = track.title ?? Self.languageName(track.language)
            subtitleEntries.append(
                "#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"subs\",NAME=\"\(languageName)\",LANGUAGE=\"\(language)\",DEFAULT=NO,AUTOSELECT=YES,URI=\"subtitles/\(name).m3u8\"")
        }
        try rewriteMultivariant(in: bundle, probe: probe, subtitleEntries: subtitleEntries)
        await progress(0.93)

        let poster = "poster.jpg"
        try await ffmpeg.run(["-hide_banner", "-loglevel", "error", "-y", "-ss", String(format: "%.2f", duration / 3), "-i", source.path,
                              "-frames:v", "1", "-vf", "scale='min(1280,iw)':-2", "-q:v", "4", bundle.appendingPathComponent(poster).path])
        await progress(0.96)
        let trickPlay = try await makeTrickPlay(source: source, duration: duration, width: width, height: height, into: bundle)
        await progress(1)
        return PackagedBundle(multivariantPlaylist: "master.m3u8", poster: poster, trickPlay: trickPlay)
    }

    struct Rung: Sendable {
        var name: String
        var width: Int
        var height: Int
        var bitrate: Int
    }

    /// 720p and 360p for sources that large (short side), else the source size alone.
    static func ladder(width: Int, height: Int) -> [Rung] {
        let shortSide = min(width, height)
        let targets = shortSide >= 720 ? [720, 360] : [shortSide - shortSide % 2]
        return targets.map { target in
            let scale = Double(target) / Double(shortSide)
            func even(_ value: Double) -> Int { max(2, Int(value.rounded()) / 2 * 2) }
            let w = width <= height ? target : even(Double(width) * scale)
            let h = width <= height ? even(Double(height) * scale) : target
            let bitrate = target >= 720 ? 2500 : target >= 480 ? 1200 : 700
            return Rung(name: "\(target)p", width: w, height: h, bitrate: bitrate)
        }
    }

    /// Gives audio renditions human names and adds the subtitle group ffmpeg does not write.
    func rewriteMultivariant(in bundle: URL, probe: MediaProbe, subtitleEntries: [String]) throws {
        let url = bundle.appendingPathComponent("master.m3u8")
        var lines = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n")
        var audioIndex = 0
        for index in lines.indices {
            if lines[index].hasPrefix("#EXT-X-MEDIA:TYPE=AUDIO"), audioIndex < probe.audioTracks.count,
               let nameRange = lines[index].range(of: #"NAME="[^"]*""#, options: .regularExpression) {
                let track = probe.audioTracks[audioIndex]
                let name = track.title ?? Self.languageName(track.language)
                lines[index].replaceSubrange(nameRange, with: "NAME=\"\(name)\"")
                if !lines[index].contains("AUTOSELECT") { lines[index] += ",AUTOSELECT=YES" }
                audioIndex += 1
            }
            if lines[index].hasPrefix("#EXT-X-STREAM-INF"), !subtitleEntries.isEmpty {
                lines[index] += ",SUBTITLES=\"subs\""
            }
        }
        if let firstVariant = lines.firstIndex(where: { $0.hasPrefix("#EXT-X-STREAM-INF") }) {
            lines.insert(contentsOf: subtitleEntries, at: firstVariant)
        }
        try lines.joined(separator: "\n").write(to: url, atomically: true, encoding: .utf8)
    }

    func makeTrickPlay(source: URL, duration: Double, width: Int, height: Int, into bundle: URL) async throws -> String {
        let interval = max(1, (duration / 100).rounded(.up))
        let count = max(1, Int((duration / interval).rounded(.up)))
        let columns = min(10, count)
        let rows = (count + columns - 1) / columns
        let tileWidth = width >= height ? 160 : 90
        let tileHeight = max(2, Int((Double(tileWidth) * Double(height) / Double(width)).rounded()) / 2 * 2)
        try await ffmpeg.run(["-hide_banner", "-loglevel", "error", "-y", "-i", source.path,
                              "-vf", "fps=1/\(Int(interval)),scale=\(tileWidth):\(tileHeight),tile=\(columns)x\(rows)",
                              "-frames:v", "1", "-q:v", "5", bundle.appendingPathComponent("trickplay.jpg").path])
        let description = TrickPlayImages(image: "trickplay.jpg", interval: interval, columns: columns, rows: rows,
                                          tileWidth: tileWidth, tileHeight: tileHeight, count: count)
        try JSONEncoder().encode(description).write(to: bundle.appendingPathComponent("trickplay.json"))
        return "trickplay.json"
    }
}

/// Collects a tool's standard output lines.
actor OutputCollector {
    private var lines: [String] = []
    func append(_ line: String) { lines.append(line) }
    var text: String { lines.joined(separator: "\n") }
}

/// The parts of `ffprobe -print_format json` the library reads.
struct FFprobeReport: Decodable {
    struct Stream: Decodable {
        struct Disposition: Decodable { var attached_pic: Int? }
        var codec_type: String?
        var width: Int?
        var height: Int?
        var tags: [String: String]?
        var disposition: Disposition?
    }

    struct Format: Decodable {
        var duration: String?
        var tags: [String: String]?
    }

    var streams: [Stream]
    var format: Format
}
