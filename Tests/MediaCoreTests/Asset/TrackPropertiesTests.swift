import Foundation
import Testing

@testable import MediaCore

@Suite struct TrackPropertiesTests {
    @Test func rotatedPhoneVideoReportsItsRotationAndPresentationSize() async throws {
        let tracks = try await MediaAsset(path: try await MediaFixtures.shared.rotatedPhone()).load(.tracks)
        let video = try #require(tracks.first)
        #expect(video.naturalSize == PixelSize(width: 320, height: 180))
        #expect(video.displayRotation == 90 || video.displayRotation == 270)
        #expect(video.presentationSize == PixelSize(width: 180, height: 320))
    }

    @Test func tenBitHEVCReportsDepthAndPQTransfer() async throws {
        let tracks = try await MediaAsset(path: try await MediaFixtures.shared.hevc10bit()).load(.tracks)
        let video = try #require(tracks.first { $0.mediaType == .video })
        #expect(video.codec == "hevc")
        #expect(video.bitDepth == 10)
        #expect(video.colorTransfer == .pq)
        #expect(video.profile == "Main 10")
        let sdr = try await MediaAsset(path: try await MediaFixtures.shared.videoOnly()).load(.tracks)
        #expect(sdr.first?.colorTransfer == .sdr)
        #expect(sdr.first?.bitDepth == 8)
    }

    @Test func audioOnlyAndVideoOnlyHaveJustTheirTracks() async throws {
        let audio = try await MediaAsset(path: try await MediaFixtures.shared.audioOnly()).load(.tracks)
        #expect(audio.map(\.mediaType) == [.audio])
        #expect(audio.first?.sampleRate == 44_100)
        #expect(audio.first?.channelCount == 2)
        #expect(audio.first?.channelLayout == "stereo")
        #expect((audio.first?.estimatedDataRate ?? 0) > 64_000)
        let video = try await MediaAsset(path: try await MediaFixtures.shared.videoOnly()).load(.tracks)
        #expect(video.map(\.mediaType) == [.video])
    }

    @Test func variableFrameRateIsDetected() async throws {
        let tracks = try await MediaAsset(path: try await MediaFixtures.shared.variableFrameRate()).load(.tracks)
        let video = try #require(tracks.first)
        #expect(video.isVariableFrameRate)
        let steady = try await MediaAsset(path: try await MediaFixtures.shared.counter()).load(.tracks)
        #expect(steady.first?.isVariableFrameRate == false)
    }

    @Test func oddAndAnamorphicSizes() async throws {
        let odd = try await MediaAsset(path: try await MediaFixtures.shared.oddSize()).load(.tracks)
        #expect(odd.first?.naturalSize == PixelSize(width: 317, height: 243))
        let wide = try await MediaAsset(path: try await MediaFixtures.shared.anamorphic()).load(.tracks)
        #expect(wide.first?.pixelAspectRatio == PixelAspectRatio(horizontalSpacing: 2, verticalSpacing: 1))
        #expect(wide.first?.presentationSize == PixelSize(width: 400, height: 200))
    }

    @Test func multipleAudioLanguagesSubtitlesChaptersAndMatroskaTags() async throws {
        let asset = MediaAsset(path: try await MediaFixtures.shared.multiLanguage())
        let (tracks, metadata, chapters) = try await asset.load(.tracks, .metadata, .chapters)
        let audio = tracks.filter { $0.mediaType == .audio }
        #expect(audio.map(\.language) == ["eng", "fra"])
        #expect(audio.map(\.channelCount) == [2, 6])
        #expect(audio.last?.channelLayout?.hasPrefix("5.1") == true)
        let subtitles = tracks.filter { $0.mediaType == .subtitle }
        #expect(subtitles.map(\.codec) == ["subrip", "subrip"])
        #expect(subtitles.map(\.language) == ["eng", "ger"])
        #expect(metadata.first(.title)?.stringValue == "Two Languages")
        #expect(metadata.first(.description)?.stringValue == "Audio in two languages")
        #expect(chapters.map(\.title) == ["Opening", "Ending"])
        #expect(chapters.last?.timeRange == MediaTimeRange(start: MediaTime(seconds: 2), end: MediaTime(seconds: 4)))
    }

    @Test func id3TagsAndCoverArtMapToCommonIdentifiers() async throws {
        let asset = MediaAsset(path: try await MediaFixtures.shared.taggedMP3())
        let (metadata, tracks) = try await asset.load(.metadata, .tracks)
        #expect(metadata.first(.title)?.stringValue == "Tagged Song")
        #expect(metadata.first(.artist)?.stringValue == "The Testers")
        #expect(metadata.first(.subtitle)?.stringValue == "The Subtitle")
        #expect(metadata.first(.creationDate)?.dateValue != nil)
        let artwork = try #require(metadata.first(.artwork)?.dataValue)
        #expect(artwork.starts(with: [0xFF, 0xD8]), "cover art is the embedded JPEG")
        #expect(tracks.contains { $0.isAttachedPicture })
    }
}
