import Foundation
import Testing
@testable import Downloads
import HLS

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
        let primary = ContentConfiguration(variantQualifiers: [try VariantQualifier(format: "peakBitRate < 3000000 AND audioAttributes.formatIDs CONTAINS 'mp4a'")])
        let surround = ContentConfiguration(variantQualifiers: [try VariantQualifier(format: "audioAttributes.formatIDs CONTAINS 'ec-3'")])
        let config = DownloadConfiguration(asset: Self.base, title: "t", primaryContentConfiguration: primary,
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

    @Test func unmatchedPrimaryQualifiersAreAnError() throws {
        let playlist = try multivariant("apple-bipbop-advanced-fmp4-multivariant.m3u8")
        let config = DownloadConfiguration(asset: Self.base, title: "t", primaryContentConfiguration:
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
        for v in playlist.variants { a.addVariant(v); b.addVariant(v) }
        for r in playlist.renditions { a.addRendition(r); b.addRendition(r) }
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
