import Foundation
import JSONDocument
import Testing

@testable import HLS

/// Hand-written expectations for what `inspect` reports on real corpus playlists.
@Suite("Variant inspection of corpus playlists")
struct InspectionTests {
    static let base = URL(string: "https://cdn.example.com/show/master.m3u8")!

    func variants(_ name: String) throws -> (MultivariantPlaylist, [Variant]) {
        let p = try #require(try Corpus.parse(name).playlist?.multivariant)
        return (p, p.inspectedVariants(baseURL: Self.base))
    }

    @Test func atmosRenditionIsImmersiveWith16Channels() throws {
        let (p, v) = try variants("shaka-atmos-16-joc-attributes-with-spaces-multivariant.m3u8")
        let audio = try #require(v.first?.audioAttributes?.renditions.first)
        #expect(audio.channelCount == 16)
        #expect(audio.isImmersive)
        #expect(!audio.isBinaural && !audio.isDownmix)
        #expect(audio.language == "eng")
        #expect(audio.uri == "https://cdn.example.com/show/audio")
        #expect(v.first?.badges == [.dolbyAtmos])
        #expect(p.badges(baseURL: Self.base) == [.dolbyAtmos])
        #expect(v.first?.videoAttributes?.nominalFrameRate == 60)
    }

    @Test func dolbyVisionAndHDR10LadderBadgesAndRanges() throws {
        let (p, v) = try variants("apple-authoring-spec-hevc-dolby-vision-hdr10-multivariant.m3u8")
        #expect(v.count == 9)
        let dv2160 = try #require(v.first { $0.uri.hasSuffix("dolby_2160/prog_index.m3u8") })
        #expect(dv2160.videoAttributes?.videoRange == .pq)
        #expect(dv2160.videoAttributes?.codecTypes == ["dvh1"])
        #expect(dv2160.videoAttributes?.presentationSize == Resolution(width: 3840, height: 2160))
        #expect(dv2160.badges == [.fourK, .hdr, .dolbyVision])
        #expect(dv2160.videoAttributes?.hdcpLevel == "TYPE-1")
        let sdr720 = try #require(v.first { $0.uri.hasSuffix("sdr_720/prog_index.m3u8") })
        #expect(sdr720.badges == [.hd])
        #expect(sdr720.videoAttributes?.videoRange == .sdr)
        #expect(sdr720.averageBitRate != nil && sdr720.peakBitRate! > sdr720.averageBitRate!)
        #expect(p.iFrameVariants.count == 9)
        #expect(p.badges(baseURL: Self.base) == [.fourK, .hd, .hdr, .dolbyVision])
    }

    @Test func supplementalCodecsRevealDolbyVisionOnHEVCAndAV1() throws {
        let (_, v) = try variants("hlsjs-supplemental-codecs-dv-pq-hlg-av1-multivariant.m3u8")
        #expect(v.map { $0.videoAttributes?.videoRange } == [.pq, .hlg, .hlg, .pq])
        #expect(v.map { $0.badges.contains(.dolbyVision) } == [true, true, true, false])
        #expect(v[2].videoAttributes?.codecTypes == ["av01", "dav1"])
        #expect(v.allSatisfy { $0.audioAttributes?.formatIDs == ["ec-3"] })
    }

    @Test func multilingualSubtitlesWithForcedAndCharacteristics() throws {
        let (_, v) = try variants("apple-bipbop-16x9-multilingual-subtitles-multivariant.m3u8")
        let subs = try #require(v.first?.subtitleRenditions)
        #expect(subs.count == 8)
        #expect(Set(subs.compactMap(\.language)) == ["en", "fr", "es", "ja"])
        #expect(subs.filter(\.forced).count == 4)
        #expect(subs.first?.characteristics.contains("public.accessibility.transcribes-spoken-dialog") == true)
        #expect(subs.contains { $0.name == "日本語" })
        let audioOnly = try #require(v.last)
        #expect(audioOnly.videoAttributes == nil)
        #expect(audioOnly.audioAttributes?.formatIDs == ["mp4a"])
    }

    @Test func losslessAudioOnlyFlac() throws {
        let (_, v) = try variants("shaka-flac-audio-only-multivariant.m3u8")
        #expect(v.allSatisfy { $0.videoAttributes == nil && $0.badges == [.lossless] })
        #expect(v.first?.codecs.first?.family == .flac)
    }

    @Test func surroundAudioGroupsGive51() throws {
        let (p, v) = try variants("apple-bipbop-advanced-fmp4-multivariant.m3u8")
        #expect(v.count == 24)
        let ac3 = try #require(v.first { $0.codecs.contains { $0.family == .ac3 } })
        #expect(ac3.audioAttributes?.renditions.map(\.channelCount) == [6])
        #expect(ac3.badges.contains(.surround51))
        let aac = try #require(v.first)
        #expect(aac.audioAttributes?.renditions.map(\.channelCount) == [2])
        #expect(!aac.badges.contains(.surround51))
        #expect(p.iFrameVariants.count == 6)
        #expect(aac.closedCaptionRenditions.first?.instreamID == "CC1")
    }

    @Test func audioAttributesArePerRenditionNotPerVariant() throws {
        let (_, v) = try variants("multiple-audio-groups-spaces-after-commas-multivariant.m3u8")
        let first = try #require(v.first)
        #expect(first.audioAttributes?.renditions.map(\.language) == ["eng", "fre", "sp"])
        #expect(first.audioAttributes?.renditions.map(\.name) == ["English", "Français", "Espanol"])
        #expect(first.videoAttributes == nil)
    }

    @Test func imageVariantsAreListed() throws {
        let (p, v) = try variants("roku-image-stream-inf-multivariant.m3u8")
        #expect(v.count == 5)
        #expect(p.imageVariants.map(\.attributes.resolution) == [Resolution(width: 320, height: 180), Resolution(width: 640, height: 360)])
        #expect(p.imageVariants.first?.attributes.codecs == ["jpeg"])
        #expect(v.last?.uri == "https://cdn.example.com/show/index_0_a/new_index_0_a.m3u8S")
    }

    @Test func variablesAreSubstitutedEverywhere() throws {
        let (p, v) = try variants("hlsjs-define-substitution-multivariant.m3u8")
        #expect(v.map(\.uri) == ["https://example.com/sec/video/1.m3u8", "https://example.com/sec/avc1.64001f/2.m3u8"])
        #expect(p.contentSteering?.serverURI == "https://example.com/steering-manifest.json")
        #expect(p.contentSteering?.pathwayID == "ok-CDN")
        #expect(p.sessionData.first?.value == "hmm")
        #expect(p.sessionKeys.first?.keyFormat == "com.apple.streamingkeydelivery")
        #expect(p.sessionKeys.first?.iv == [UInt8](repeating: 0, count: 15) + [0x02])
        #expect(p.renditions.first?.groupID == "200k")
        #expect(v.first?.audioAttributes?.renditions.first?.language == "eng")
        #expect(v.first?.codecs.map(\.string) == ["mp4a.40.2", "avc1.64001f"])
    }

    @Test func queryParameterVariablesComeFromThePlaylistURL() throws {
        let p = try #require(try Corpus.parse("hlsjs-define-queryparam-multivariant.m3u8").playlist?.multivariant)
        #expect(p.variants.allSatisfy { !$0.uri.contains("{$") })
        #expect(p.variants.contains { $0.uri.contains("1234") })
    }

    @Test func interstitialsArePlacedOnThePlaylistTimeline() throws {
        let p = try #require(try Corpus.parse("androidx-interstitials-vod-pre-mid-post-media.m3u8").playlist?.media)
        let interstitials = p.interstitials.compactMap(\.interstitial)
        #expect(interstitials.map(\.id) == ["preroll", "midroll-1", "postroll"])
        #expect(interstitials.map { $0.startDate.flatMap { p.playlistTime(of: $0) } } == [0, 15, 72])
        #expect(interstitials.map(\.cue) == [["PRE"], [], ["POST"]])
        #expect(interstitials.first?.restrict == ["JUMP", "SKIP"])
        #expect(interstitials.first?.resumeOffset == 0)
        #expect(p.segments.count == 12 && p.duration == 72)
        #expect(p.segments.map(\.bitrate).first == 4612)
    }

    @Test func interstitialPlayoutLimitsAndCues() throws {
        let p = try #require(try Corpus.parse("shaka-interstitials-cue-pre-once-playout-limit-media.m3u8").playlist?.media)
        let i = p.interstitials.compactMap(\.interstitial)
        #expect(i.map(\.cue) == [["PRE", "ONCE"], ["ONCE"]])
        #expect(i.map(\.playoutLimit) == [5, 5])
        #expect(i.map(\.resumeOffset) == [0, 6])
        #expect(i.map { $0.startDate.flatMap { p.playlistTime(of: $0) } } == [2, 4])
        #expect(i.last?.restrict == ["SKIP", "JUMP"])
    }

    @Test func skipControlAttributes() throws {
        let p = try #require(try Corpus.parse("androidx-interstitial-skip-control-media.m3u8").playlist?.media)
        let first = try #require(p.interstitials.first?.interstitial)
        #expect(first.skipControlOffset == 5.5)
        #expect(first.skipControlDuration == 10)
        #expect(first.skipControlLabelID == "skip-label")
    }

    @Test func lowLatencyPartsHintsAndReports() throws {
        let p = try #require(try Corpus.parse("rfc8216bis-llhls-parts-preload-rendition-reports-media.m3u8").playlist?.media)
        #expect(p.partInformation?.partTarget == 0.33334)
        #expect(p.serverControl?.canBlockReload == true)
        #expect(p.serverControl?.partHoldBack == 1.0)
        #expect(p.segments.first { !$0.parts.isEmpty }?.parts.count == 12)
        #expect(!p.preloadHints.isEmpty)
        #expect(!p.renditionReports.isEmpty)
        #expect(p.mediaSequence == 266)
    }

    @Test func aes128ImplicitIVAndByteRanges() throws {
        let p = try #require(try Corpus.parse("usp-aes-128-implicit-iv-media.m3u8").playlist?.media)
        #expect(p.encryptionMethods == [.aes128])
        #expect(p.segments.allSatisfy { $0.keys.first?.iv == nil })
        let br = try #require(try Corpus.parse("androidx-aes-128-iv-byterange-discontinuity-media.m3u8").playlist?.media)
        #expect(br.segments.contains { $0.byteRange != nil })
        #expect(br.segments.allSatisfy { $0.byteRange == nil || $0.resolvedByteRangeOffset != nil })
    }

    @Test func imagePlaylistTiles() throws {
        let p = try #require(try Corpus.parse("roku-image-media-tiles-vod.m3u8").playlist?.media)
        #expect(p.imagesOnly)
        let tiled = p.segments.filter { $0.tiles != nil }
        #expect(tiled.count == 8)
        #expect(tiled.first?.tiles?.columns == 5 && tiled.first?.tiles?.rows == 2)
        #expect(tiled.first?.tiles?.resolution == Resolution(width: 640, height: 360))
        #expect(p.segments.filter(\.discontinuity).count == 3)
    }

    @Test func reportUsesTheDocumentedFieldNames() throws {
        let result = try Corpus.parse("shaka-atmos-16-joc-attributes-with-spaces-multivariant.m3u8")
        let json = InspectionReport.json(for: result, url: Self.base).serialized()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["kind"] as? String == "multivariant")
        let variant = try #require((object["variants"] as? [[String: Any]])?.first)
        for key in ["uri", "peakBitRate", "averageBitRate", "codecs", "videoAttributes", "audioAttributes", "badges", "score"] {
            #expect(variant.keys.contains(key), "missing \(key)")
        }
        #expect(variant["averageBitRate"] is NSNull)
        let video = try #require(variant["videoAttributes"] as? [String: Any])
        #expect((video["presentationSize"] as? [String: Any])?["width"] as? Int == 960)
        let rendition = try #require(((variant["audioAttributes"] as? [String: Any])?["renditions"] as? [[String: Any]])?.first)
        #expect(rendition["channelCount"] as? Int == 16)
        #expect(rendition["isImmersive"] as? Bool == true)
        #expect(object["warnings"] is [Any] && object["errors"] is [Any])
        #expect(object["iFrameVariants"] is [Any] && object["imageVariants"] is [Any])
    }
}

@Suite("Codec strings")
struct CodecDescriptionTests {
    @Test func avc() {
        let c = CodecDescription("avc1.640028")
        #expect(c.family == .avc && c.profile == "High" && c.level == "4" && c.bitDepth == 8 && c.kind == .video)
        #expect(CodecDescription("avc3.4D401F").profile == "Main")
        #expect(CodecDescription("avc1.42e01e").level == "3")
        #expect(CodecDescription("avc1.6e0033").bitDepth == 10)
    }

    @Test func hevc() {
        let c = CodecDescription("hvc1.2.4.L153.B0")
        #expect(c.family == .hevc && c.profile == "Main 10" && c.level == "5.1" && c.tier == "Main" && c.bitDepth == 10)
        #expect(CodecDescription("hev1.1.6.L93.B0").level == "3.1")
        #expect(CodecDescription("hvc1.1.6.H120.90").tier == "High")
    }

    @Test func dolbyVision() {
        let c = CodecDescription("dvh1.08.07/db4h")
        #expect(c.family == .dolbyVision && c.profile == "8" && c.level == "7" && c.transfer == .hlg && c.compatibilityBrand == "db4h")
        #expect(CodecDescription("dvhe.05.06").transfer == .pq)
        #expect(CodecDescription("dav1.10.01/db1p").transfer == .pq)
        #expect(CodecDescription("dvav.09.05").bitDepth == 8)
        #expect(CodecDescription("dva1.09.05").isDolbyVision)
    }

    @Test func av1AndVP9() {
        let c = CodecDescription("av01.0.13M.10.0.112.09.16.09.0")
        #expect(c.family == .av1 && c.profile == "Main" && c.level == "5.1" && c.bitDepth == 10 && c.transfer == .pq)
        #expect(CodecDescription("av01.0.05M.08").transfer == nil)
        let v = CodecDescription("vp09.02.10.10.01.09.18.09.00")
        #expect(v.family == .vp9 && v.profile == "2" && v.level == "1" && v.bitDepth == 10 && v.transfer == .hlg)
    }

    @Test func audioAndText() {
        #expect(CodecDescription("mp4a.40.2").profile == "AAC-LC")
        #expect(CodecDescription("mp4a.40.5").profile == "HE-AAC")
        #expect(CodecDescription("mp4a.40.29").profile == "HE-AACv2")
        #expect(CodecDescription("mp4a.40.34").family == .mp3)
        #expect(CodecDescription("mp4a.69").family == .mp3)
        #expect(CodecDescription("ec-3").family == .eac3)
        #expect(CodecDescription("ac-3").family == .ac3)
        #expect(CodecDescription("ac-4.02.01.03").family == .ac4)
        #expect(CodecDescription("alac").isLossless)
        #expect(CodecDescription("fLaC").isLossless)
        #expect(CodecDescription("Opus").family == .opus)
        #expect(CodecDescription("wvtt").kind == .text)
        #expect(CodecDescription("stpp.ttml.im1t").family == .ttml)
    }

    @Test func channels() {
        let joc = ChannelsDescription(parsing: "16/JOC")
        #expect(joc?.count == 16 && joc?.isImmersive == true && joc?.isJointObjectCoding == true)
        let binaural = ChannelsDescription(parsing: "2/-/BINAURAL")
        #expect(binaural?.isBinaural == true && binaural?.isImmersive == false)
        let hoa = ChannelsDescription(parsing: "16/3OA/IMMERSIVE,DOWNMIX")
        #expect(hoa?.ambisonicsOrder == 3 && hoa?.isDownmix == true && hoa?.isImmersive == true)
        #expect(ChannelsDescription(parsing: "6")?.text == "6")
        #expect(ChannelsDescription(parsing: "2/-/BINAURAL")?.text == "2/-/BINAURAL")
        #expect(ChannelsDescription(parsing: "x") == nil)
    }
}
