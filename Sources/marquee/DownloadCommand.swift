import ArgumentParser
import Downloads
import Foundation
import HLS
import JSONDocument

/// `marquee download`: an HLS stream for offline use, chosen by variant qualifiers, with
/// progress, retries and resume.
struct DownloadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "download",
        abstract: "Download an HLS stream for offline use, choosing variants with qualifiers.",
        discussion: """
            Predicates use key paths over each variant — peakBitRate, averageBitRate, score,
            videoAttributes.presentationSize.width/.height, videoAttributes.videoRange,
            videoAttributes.codecTypes, videoAttributes.nominalFrameRate, audioAttributes.formatIDs —
            with == != < <= > >= IN CONTAINS BEGINSWITH AND OR NOT, e.g.
              --prefer 'peakBitRate < 5000000 AND videoAttributes.videoRange == "PQ"'
            An auxiliary configuration is "PREDICATE; audio=LANGS; subtitles=LANGS" (each part optional).
            A killed download resumes when the same command is run again, or with --resume DIR.
            """
    )

    @Argument(help: "Multivariant (or media) playlist URL.")
    var url: String?

    @Option(name: .customLong("prefer"), help: "A variant qualifier predicate; the first that matches wins (repeatable).")
    var preferences: [String] = []

    @Option(name: .customLong("variant"), help: "Take this variant URI as is.")
    var variantURI: String?

    @Option(help: "Audio languages, comma-separated (e.g. en,fr).")
    var audio: String?

    @Option(help: "Subtitle languages, comma-separated.")
    var subtitles: String?

    @Option(name: .customLong("auxiliary"), help: "An auxiliary configuration: \"PREDICATE; audio=en; subtitles=fr\" (repeatable).")
    var auxiliaries: [String] = []

    @Flag(name: .customLong("no-optimize-auxiliary"), help: "Resolve auxiliary configurations on their own (may download another video).")
    var noOptimizeAuxiliary = false

    @Flag(name: .customLong("interstitials"), help: "Also download interstitial (ad) assets (X-ASSET-URI and X-ASSET-LIST).")
    var downloadsInterstitialAssets = false

    @Flag(name: .customLong("no-iframes"), help: "Leave out the I-frame playlists that make scrubbing and fast-forward work offline.")
    var noIFrames = false

    @Option(help: "Give up on a server that sends less than 16 KiB in this many seconds.")
    var stallTimeout: Int = 30

    @Option(help: "Files fetched at once.")
    var concurrency: Int = 8

    @Option(help: "Title recorded in metadata.json.")
    var title: String?

    @Option(help: "Artwork image URL to store in the bundle.")
    var artwork: String?

    @Option(name: .shortAndLong, help: "Bundle folder.")
    var output: String?

    @Option(help: "Resume the unfinished download in this folder.")
    var resume: String?

    @Flag(help: "Print one JSON object per line instead of a progress bar.")
    var json = false

    mutating func validate() throws {
        if resume == nil && (url == nil || output == nil) {
            throw ValidationError("give a playlist URL and --output DIR, or --resume DIR")
        }
        guard (1...64).contains(concurrency) else { throw ValidationError("--concurrency must be between 1 and 64") }
    }

    func run() async throws {
        let console = Console(command: "download", json: json)
        try await console.run {
            do {
                if let folder = resume {
                    guard let saved = try await AssetDownloadTask.unfinishedSettings(in: URL(fileURLWithPath: folder), key: "arguments"),
                        let arguments = try? JSONDecoder().decode([String].self, from: Data(saved.utf8))
                    else {
                        throw CommandFailure(.unusableInput, "\(folder): no unfinished download to resume")
                    }
                    var original = try DownloadCommand.parse(arguments)
                    original.json = json || original.json
                    try await original.download(reporter: DownloadReporter(console: Console(command: "download", json: original.json)))
                } else {
                    try await download(reporter: DownloadReporter(console: console))
                }
            } catch is CancellationError {
                throw CommandFailure(.interrupted, "cancelled; run the same command again, or --resume, to continue")
            } catch let error as DownloadError {
                // A failure while the download ran; input problems were reported before it started.
                switch error {
                case .selection, .resume, .liveStream, .unsupportedEncryption: throw CommandFailure(.unusableInput, error.description)
                default: throw CommandFailure(.failed, error.description)
                }
            }
        }
    }

    /// The arguments this download was started with, for `--resume`.
    var recordedArguments: [String] {
        var a: [String] = [url ?? ""]
        for p in preferences { a += ["--prefer", p] }
        if let variantURI { a += ["--variant", variantURI] }
        if let audio { a += ["--audio", audio] }
        if let subtitles { a += ["--subtitles", subtitles] }
        for x in auxiliaries { a += ["--auxiliary", x] }
        if noOptimizeAuxiliary { a.append("--no-optimize-auxiliary") }
        if downloadsInterstitialAssets { a.append("--interstitials") }
        if noIFrames { a.append("--no-iframes") }
        a += ["--concurrency", String(concurrency)]
        if let title { a += ["--title", title] }
        if let artwork { a += ["--artwork", artwork] }
        if let output { a += ["--output", URL(fileURLWithPath: output).standardizedFileURL.path] }
        return a
    }

    func download(reporter: DownloadReporter) async throws {
        guard let urlText = url, let source = URL(string: urlText), ["http", "https"].contains(source.scheme?.lowercased() ?? ""),
            let outputPath = output
        else {
            throw DownloadError.selection("expected an http(s) playlist URL and --output")
        }
        let folder = URL(fileURLWithPath: outputPath).standardizedFileURL
        if FileManager.default.fileExists(atPath: folder.appendingPathComponent(BundleLayout.metadata).path),
            !FileManager.default.fileExists(atPath: folder.appendingPathComponent(AssetDownloadTask.journalFolder).path)
        {
            reporter.message("\(folder.path): already downloaded (metadata.json present)")
            return
        }
        let fetcher = HTTPFetcher(
            concurrency: concurrency, stall: HTTPFetcher.StallRule(window: .seconds(max(1, stallTimeout))), onRetry: { reporter.retry($0) })
        do {
            let data: Data
            let finalURL: URL
            do {
                (data, finalURL) = try await fetcher.fetch(source, maximumBytes: HTTPFetcher.Limit.playlist)
            } catch let error as DownloadError {
                throw CommandFailure(.unusableInput, error.description)
            }
            let parsed = PlaylistParser.parse(data, options: ParseOptions(url: finalURL))
            guard let playlist = parsed.playlist, parsed.errors.isEmpty else {
                throw CommandFailure(.unusableInput, DownloadError.playlist(url: finalURL, errors: parsed.errors).description)
            }
            let multivariant: MultivariantPlaylist
            switch playlist {
            case .multivariant(let m): multivariant = m
            case .media:
                var m = MultivariantPlaylist()
                m.variants = [VariantStream(uri: finalURL.absoluteString)]
                multivariant = m
            }
            let configuration = try makeConfiguration(asset: finalURL)
            let (plan, resolution) = try configuration.plan(for: multivariant, url: finalURL)
            reporter.plan(plan, resolution: resolution)
            let argumentsJSON = String(decoding: try JSONEncoder().encode(recordedArguments), as: UTF8.self)
            let task = AssetDownloadTask(
                plan: plan, output: folder,
                metadata: BundleMetadataInput(
                    title: title ?? finalURL.deletingPathExtension().lastPathComponent, sourceURL: finalURL,
                    artworkURL: artwork.flatMap(URL.init(string:)), configuration: configurationJSON),
                concurrency: concurrency, journalSettings: ["arguments": argumentsJSON],
                downloadsInterstitialAssets: configuration.downloadsInterstitialAssets, fetcher: fetcher)
            let watcher = Task { for await snapshot in task.snapshots { reporter.progress(snapshot) } }
            let summary = try await withTaskCancellationHandler {
                try await task.run()
            } onCancel: {
                watcher.cancel()
            }
            await watcher.value
            reporter.finished(summary, folder: folder)
            try await fetcher.shutdown()
        } catch {
            try? await fetcher.shutdown()
            throw error
        }
    }

    func makeConfiguration(asset: URL) throws -> DownloadConfiguration {
        var primary = ContentConfiguration()
        if let variantURI {
            primary.variantQualifiers.append(.variant(uri: URIResolution.resolve(variantURI, against: asset)))
        }
        primary.variantQualifiers += try preferences.map { try VariantQualifier(format: $0) }
        primary.mediaSelections = Self.selections(audio: audio, subtitles: subtitles)
        let aux = try auxiliaries.map { try Self.auxiliary($0) }
        return DownloadConfiguration(
            asset: asset, title: title ?? asset.lastPathComponent, artworkURL: artwork.flatMap(URL.init(string:)),
            primaryContentConfiguration: primary, auxiliaryContentConfigurations: aux,
            optimizesAuxiliaryContentConfigurations: !noOptimizeAuxiliary,
            downloadsInterstitialAssets: downloadsInterstitialAssets,
            downloadsIFramePlaylists: !noIFrames)
    }

    static func selections(audio: String?, subtitles: String?) -> [MediaSelection] {
        func langs(_ s: String?) -> [String] {
            (s ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        return langs(audio).map { MediaSelection.audio(language: $0) } + langs(subtitles).map { MediaSelection.subtitles(language: $0) }
    }

    /// `PREDICATE; audio=en,fr; subtitles=en` — every part optional.
    static func auxiliary(_ text: String) throws -> ContentConfiguration {
        var c = ContentConfiguration()
        var audio: String?
        var subtitles: String?
        for part in text.split(separator: ";").map({ $0.trimmingCharacters(in: .whitespaces) }) where !part.isEmpty {
            if part.hasPrefix("audio=") {
                audio = String(part.dropFirst(6))
            } else if part.hasPrefix("subtitles=") {
                subtitles = String(part.dropFirst(10))
            } else {
                c.variantQualifiers.append(try VariantQualifier(format: part))
            }
        }
        c.mediaSelections = selections(audio: audio, subtitles: subtitles)
        return c
    }

    var configurationJSON: JSONValue {
        .object([
            ("prefer", .strings(preferences)), ("variant", .optional(variantURI)),
            ("audio", .optional(audio)), ("subtitles", .optional(subtitles)),
            ("auxiliary", .strings(auxiliaries)), ("optimizesAuxiliaryContentConfigurations", .bool(!noOptimizeAuxiliary)),
            ("downloadsInterstitialAssets", .bool(downloadsInterstitialAssets)),
            ("downloadsIFramePlaylists", .bool(!noIFrames)),
        ])
    }
}
