import Foundation
import HLS
import Testing

@testable import Downloads

/// Planning and layout on real corpus playlists: what gets fetched, where it lands, and what
/// is refused — without a network.
@Suite("Download planning and layout")
struct DownloadPlanningTests {
    static let shared: URL = {
        if let env = ProcessInfo.processInfo.environment["MARQUEE_SHARED"], !env.isEmpty { return URL(fileURLWithPath: env) }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared")
    }()
    static let base = URL(string: "https://cdn.example.com/show/master.m3u8")!

    func multivariant(_ name: String) throws -> MultivariantPlaylist {
        let data = try Data(contentsOf: Self.shared.appendingPathComponent("corpus/hls/\(name)"))
        return try #require(PlaylistParser.parse(data, options: ParseOptions(url: Self.base)).playlist?.multivariant)
    }

    func media(_ name: String) throws -> MediaPlaylist {
        let data = try Data(contentsOf: Self.shared.appendingPathComponent("corpus/hls/\(name)"))
        return try #require(PlaylistParser.parse(data, options: ParseOptions(url: Self.base)).playlist?.media)
    }

    @Test func auxiliaryAudioSharesThePrimaryVideo() throws {
        // bipbop advanced declares each video playlist three times, with AAC, AC-3 and E-AC-3 groups.
        let playlist = try multivariant("apple-bipbop-advanced-fmp4-multivariant.m3u8")
        let primary = ContentConfiguration(variantQualifiers: [
            try VariantQualifier(format: "peakBitRate < 3000000 AND audioAttributes.formatIDs CONTAINS 'mp4a'")
        ])
        let surround = ContentConfiguration(variantQualifiers: [try VariantQualifier(format: "audioAttributes.formatIDs CONTAINS 'ec-3'")])
        let config = DownloadConfiguration(
            asset: Self.base, title: "t", primaryContentConfiguration: primary,
            auxiliaryContentConfigurations: [surround])
        let (plan, resolution) = try config.plan(for: playlist, url: Self.base)
        #expect(plan.videoEntries.count == 1)
        #expect(plan.videoEntries.first?.url.absoluteString == "https://cdn.example.com/show/v5/prog_index.m3u8")
        #expect(resolution.auxiliary.map(\.sharesPrimaryVideo) == [true])
        #expect(plan.entries.filter { $0.role == .audio }.map(\.rendition?.groupID) == ["aud1", "aud3"])
        #expect(plan.declaredVariants.count == 2)
        let bundle = BundleWriter.multivariant(for: plan)
        #expect(bundle.variants.map(\.uri) == ["\(plan.videoEntries[0].folder)/index.m3u8", "\(plan.videoEntries[0].folder)/index.m3u8"])
        #expect(Set(bundle.variants.compactMap(\.audio)) == ["aud1", "aud3"])
        #expect(bundle.renditions.filter { $0.type == .audio }.allSatisfy { $0.uri?.hasSuffix("/index.m3u8") == true })

        var separate = config
        separate.optimizesAuxiliaryContentConfigurations = false
        let (plan2, resolution2) = try separate.plan(for: playlist, url: Self.base)
        #expect(plan2.videoEntries.count == 2)  // the best E-AC-3 variant is the 1080p one
        #expect(resolution2.auxiliary.map(\.sharesPrimaryVideo) == [false])
    }

    @Test func eachDownloadedVideoBringsItsIFramePlaylist() throws {
        let playlist = try multivariant("apple-bipbop-advanced-fmp4-multivariant.m3u8")
        let primary = ContentConfiguration(variantQualifiers: [
            try VariantQualifier(format: "peakBitRate < 3000000 AND audioAttributes.formatIDs CONTAINS 'mp4a'")
        ])
        let aux = ContentConfiguration(variantQualifiers: [try VariantQualifier(format: "peakBitRate > 7000000 AND audioAttributes.formatIDs CONTAINS 'mp4a'")])
        let config = DownloadConfiguration(asset: Self.base, title: "t", primaryContentConfiguration: primary, auxiliaryContentConfigurations: [aux])
        let (plan, _) = try config.plan(for: playlist, url: Self.base)
        // v5 (960x540) has its own; v9 (1080p) has none in its folder and takes v7's 1080p one.
        #expect(
            plan.videoEntries.map { $0.url.lastPathComponent == "prog_index.m3u8" ? $0.url.deletingLastPathComponent().lastPathComponent : "" } == ["v5", "v9"])
        #expect(
            plan.entries.filter { $0.role == .iFrames }.map(\.url.absoluteString)
                == ["https://cdn.example.com/show/v5/iframe_index.m3u8", "https://cdn.example.com/show/v7/iframe_index.m3u8"])
        let bundle = BundleWriter.multivariant(for: plan)
        #expect(bundle.iFrameVariants.map(\.uri) == plan.entries.filter { $0.role == .iFrames }.map { "\($0.folder)/index.m3u8" })
        #expect(bundle.iFrameVariants.map(\.attributes.resolution?.description) == ["960x540", "1920x1080"])

        var without = config
        without.downloadsIFramePlaylists = false
        #expect(try without.plan(for: playlist, url: Self.base).plan.entries.allSatisfy { $0.role != .iFrames })
    }

    @Test func iFramePlaylistsMatchCodecRangeAndResolution() throws {
        // Apple's HEVC ladder: SDR, Dolby Vision and HDR10 at 720p/1080p/2160p, each with its own I-frames.
        let playlist = try multivariant("apple-authoring-spec-hevc-dolby-vision-hdr10-multivariant.m3u8")
        for variant in playlist.variants {
            let match = try #require(IFrameMatching.best(for: variant, among: playlist.iFrameVariants, source: Self.base))
            #expect(match.uri == variant.uri.replacingOccurrences(of: "prog_index", with: "iframe_index"), "\(variant.uri)")
        }
        // Never a larger picture or another range; nothing for audio-only variants.
        var small = VariantStream(uri: "x/sd.m3u8")
        small.attributes.codecs = ["hvc1.2.4.L93.B0"]
        small.attributes.resolution = Resolution(width: 640, height: 360)
        #expect(IFrameMatching.best(for: small, among: playlist.iFrameVariants, source: Self.base) == nil)
        var hlg = small
        hlg.attributes.resolution = Resolution(width: 3840, height: 2160)
        hlg.attributes.videoRange = .hlg
        #expect(IFrameMatching.best(for: hlg, among: playlist.iFrameVariants, source: Self.base) == nil)
        var audio = VariantStream(uri: "a.m3u8")
        audio.attributes.codecs = ["mp4a.40.2"]
        #expect(IFrameMatching.best(for: audio, among: playlist.iFrameVariants, source: Self.base) == nil)
    }

    @Test func iFrameRangesInsideDownloadedFilesAreNotFetchedAgain() throws {
        func parse(_ text: String) throws -> MediaPlaylist {
            try #require(PlaylistParser.parse(Data(text.utf8), options: ParseOptions(url: Self.base)).playlist?.media)
        }
        let video = try parse(
            """
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXT-X-PLAYLIST-TYPE:VOD
            #EXTINF:4,
            a.ts
            #EXTINF:4,
            #EXT-X-BYTERANGE:1000@0
            all.ts
            #EXTINF:4,
            #EXT-X-BYTERANGE:1000
            all.ts
            #EXT-X-ENDLIST
            """)
        let iframes = try parse(
            """
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXT-X-PLAYLIST-TYPE:VOD
            #EXT-X-I-FRAMES-ONLY
            #EXTINF:4,
            #EXT-X-BYTERANGE:300@188
            a.ts
            #EXTINF:4,
            #EXT-X-BYTERANGE:200@1100
            all.ts
            #EXTINF:4,
            #EXT-X-BYTERANGE:200@1700
            all.ts
            #EXTINF:4,
            #EXT-X-BYTERANGE:150@40
            elsewhere.ts
            #EXT-X-ENDLIST
            """)
        let (videoJobs, _) = try MediaLayout.make(folder: "video-1", playlist: video, url: Self.base)
        #expect(videoJobs.map(\.path) == ["video-1/seg-00001.ts", "video-1/range-00002.ts"])
        let (jobs, rewritten) = try MediaLayout.make(folder: "iframes-1", playlist: iframes, url: Self.base, reusing: videoJobs)
        // Only the range that no downloaded file holds is fetched.
        #expect(jobs.count == 1 && jobs[0].url.lastPathComponent == "elsewhere.ts" && jobs[0].offset == 40 && jobs[0].length == 150)
        #expect(
            rewritten.segments.map(\.uri) == [
                "../video-1/seg-00001.ts", "../video-1/range-00002.ts", "../video-1/range-00002.ts",
                jobs[0].path.replacingOccurrences(of: "iframes-1/", with: ""),
            ])
        #expect(rewritten.segments.map { $0.byteRange?.offset } == [188, 1100, 1700, 0])
        #expect(rewritten.segments.map { $0.byteRange?.length } == [300, 200, 200, 150])
        let written = PlaylistWriter.write(rewritten)
        #expect(written.contains("#EXT-X-I-FRAMES-ONLY") && written.contains("#EXT-X-BYTERANGE:200@1700"))
    }

    @Test func assetListsAreReadOrRefusedWithTheReason() throws {
        let list = URL(string: "https://ads.example.com/break/list.json")!
        let (object, urls) = try InterstitialAssets.parseList(
            Data(#"{"ASSETS":[{"URI":"a/1.m3u8","DURATION":15},{"URI":"https://x.example/2.m3u8"}],"X-OTHER":1}"#.utf8), url: list)
        #expect(urls.map(\.absoluteString) == ["https://ads.example.com/break/a/1.m3u8", "https://x.example/2.m3u8"])
        #expect(object["X-OTHER"] as? Int == 1)
        for (text, reason) in [
            ("<html>", "not JSON"), ("[1]", "JSON object"), (#"{"assets":[]}"#, "\"ASSETS\" array"),
            (#"{"ASSETS":[{"URI":"a"},{"DURATION":3}]}"#, "ASSETS[1]"),
        ] {
            #expect {
                _ = try InterstitialAssets.parseList(Data(text.utf8), url: list)
            } throws: { error in
                "\(error)".contains(reason) && "\(error)".hasPrefix(list.absoluteString)
            }
        }
    }

    @Test func unmatchedPrimaryQualifiersAreAnError() throws {
        let playlist = try multivariant("apple-bipbop-advanced-fmp4-multivariant.m3u8")
        let config = DownloadConfiguration(
            asset: Self.base, title: "t",
            primaryContentConfiguration:
                ContentConfiguration(variantQualifiers: [try VariantQualifier(format: "videoAttributes.videoRange == 'PQ'")]))
        #expect(throws: DownloadError.self) { try config.plan(for: playlist, url: Self.base) }
    }

    @Test func byteRangesOfOneResourceMergeIntoOneRequest() throws {
        let p = try media("bento4-dolby-vision-av1-fmp4-byterange-media-crlf.m3u8")
        let (jobs, rewritten) = try MediaLayout.make(folder: "v", playlist: p, url: Self.base)
        let ranged = jobs.filter { $0.offset != nil }
        #expect(ranged.count < p.segments.count)
        // Every segment's range lies inside its merged file, and the file sizes add up.
        for s in rewritten.segments {
            let job = try #require(jobs.first { $0.path == "v/\(s.uri)" })
            #expect((s.byteRange?.offset ?? 0) + (s.byteRange?.length ?? 0) <= job.length ?? 0)
        }
        let total = p.segments.reduce(UInt64(0)) { $0 + ($1.byteRange?.length ?? 0) }
        #expect(jobs.filter { !$0.path.contains("init-") }.reduce(UInt64(0)) { $0 + ($1.length ?? 0) } == total)
        #expect(rewritten.segments.allSatisfy { !$0.uri.contains("/") })
    }

    @Test func aes128UsesTheDeclaredOrTheSequenceIV() throws {
        let implicit = try media("usp-aes-128-implicit-iv-media.m3u8")
        let (jobs, rewritten) = try MediaLayout.make(folder: "a", playlist: implicit, url: Self.base)
        let segmentJobs = jobs.filter { $0.path.contains("/seg-") }
        #expect(segmentJobs.first?.decryption?.iv == MediaLayout.ivFromSequence(implicit.mediaSequence))
        #expect(segmentJobs.dropFirst().first?.decryption?.iv == MediaLayout.ivFromSequence(implicit.mediaSequence + 1))
        #expect(rewritten.segments.allSatisfy { $0.keys.isEmpty })
        #expect(!PlaylistWriter.write(rewritten).contains("EXT-X-KEY"))
        #expect(MediaLayout.ivFromSequence(0x0102) == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2])
    }

    @Test func liveAndDRMPlaylistsAreRefused() throws {
        let live = try media("mux-llhls-live-media.m3u8")
        #expect { try MediaLayout.make(folder: "x", playlist: live, url: Self.base) } throws: { error in
            if case DownloadError.liveStream = error { return true } else { return false }
        }
        let fairplay = try media("fairplay-clear-to-encrypted-discontinuity-media.m3u8")
        #expect { try MediaLayout.make(folder: "x", playlist: fairplay, url: Self.base) } throws: { error in
            if case DownloadError.unsupportedEncryption = error { return true } else { return false }
        }
    }

    @Test func folderNamesAreStableAndUnique() throws {
        let playlist = try multivariant("apple-bipbop-16x9-multilingual-subtitles-multivariant.m3u8")
        var a = DownloadPlan(source: Self.base, multivariant: playlist)
        var b = DownloadPlan(source: Self.base, multivariant: playlist)
        for v in playlist.variants {
            a.addVariant(v)
            b.addVariant(v)
        }
        for r in playlist.renditions {
            a.addRendition(r)
            b.addRendition(r)
        }
        #expect(a == b)
        #expect(Set(a.entries.map(\.folder)).count == a.entries.count)
        #expect(a.entries.allSatisfy { !$0.folder.contains("/") && !$0.folder.contains(" ") })
    }
}

@Suite("Retry policy")
struct RetryPolicyTests {
    let policy = RetryPolicy(maximumAttempts: 4, initialDelay: 0.5, maximumDelay: 3)

    @Test func serverErrorsBackOffExponentiallyWithJitter() {
        #expect(policy.delay(after: .status(500, retryAfter: nil), attempt: 1, random: 1) == 0.5)
        #expect(policy.delay(after: .status(502, retryAfter: nil), attempt: 2, random: 1) == 1)
        #expect(policy.delay(after: .status(503, retryAfter: nil), attempt: 3, random: 0.5) == 1)
        #expect(policy.delay(after: .transport, attempt: 3, random: 1) == 2)
        #expect(policy.delay(after: .truncated, attempt: 4, random: 1) == nil)
    }

    @Test func retryAfterIsHonouredFor429And503() {
        #expect(policy.delay(after: .status(429, retryAfter: 7), attempt: 1, random: 0.1) == 7)
        #expect(policy.delay(after: .status(503, retryAfter: 2), attempt: 1, random: 0.1) == 2)
        #expect(policy.delay(after: .status(429, retryAfter: 600), attempt: 1, random: 0.1) == 60)
        #expect(RetryPolicy.retryAfter("120") == 120)
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(RetryPolicy.retryAfter("Tue, 14 Nov 2023 22:13:50 GMT", now: now) == 30)
    }

    @Test func otherClientErrorsAreNotRetried() {
        #expect(policy.delay(after: .status(404, retryAfter: nil), attempt: 1, random: 1) == nil)
        #expect(policy.delay(after: .status(403, retryAfter: 5), attempt: 1, random: 1) == nil)
    }
}
