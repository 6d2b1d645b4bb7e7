import Foundation
import Testing
import VisualAnalysis

@testable import Library
@testable import MarqueeServer

@Suite("Search reads every distinct text of a fast-cut video", .serialized)
struct FastCutSearchTests {
    /// Ten 2-second slides over the same background, each with its own words (two in Japanese).
    static let slides = [
        "Apricot budget review", "Blueberry launch plan", "Cherry market update", "Damson design notes",
        "Elderberry roadmap", "Figure growth results", "Grape team schedule", "Huckleberry questions",
        "新宿駅の案内", "東京タワーの夜景",
    ]
    static let searched = [
        "Apricot", "Blueberry", "Cherry", "Damson", "Elderberry", "Figure", "Grape", "Huckleberry", "新宿", "東京",
    ]

    @Test("Every slide of a 2 s-per-slide video is indexed, each hit spans its slide, and two-character Japanese words are found")
    func everySlideIsFound() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-fastcut-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let library = try MediaLibrary(location: LibraryLocation(dataDirectory: root.appendingPathComponent("data")))
        let latin = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
        let japanese = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
        let filters = Self.slides.enumerated().map { index, text in
            let font = text.unicodeScalars.contains { $0.value > 0x3000 } ? japanese : latin
            return "drawtext=fontfile=\(font):text='\(text)':fontsize=44:fontcolor=black:x=40:y=140:"
                + "enable='between(t,\(index * 2),\(index * 2 + 2) - 0.001)'"
        }
        let path = root.appendingPathComponent("slides.mp4").path
        try await ProcessRunner(executable: "/usr/bin/ffmpeg").run([
            "-hide_banner", "-loglevel", "error", "-y",
            "-f", "lavfi", "-i", "color=c=0xf4f1ea:size=640x360:rate=24:duration=\(Self.slides.count * 2)",
            "-vf", "drawbox=x=20:y=20:w=600:h=60:color=0x3050a0:t=fill," + filters.joined(separator: ","),
            "-c:v", "libx264", "-preset", "ultrafast", "-g", "240", "-pix_fmt", "yuv420p", path,
        ])
        let asset = try await library.add(paths: [path])[0]
        await library.worker.drain()
        let service = try LiveTextService(library: library, analyzer: FrameTextAnalyzer(recognizer: TextRecognizer(threadCount: 1)))
        try await service.index(assetID: asset.id)

        for (index, word) in Self.searched.enumerated() {
            let hits = try await service.store.search(word).filter { $0.assetID == asset.id }
            let slide = Double(index * 2)
            #expect(!hits.isEmpty, "\"\(word)\" (slide \(index + 1), \(slide)–\(slide + 2) s) was not found")
            for hit in hits {
                #expect(hit.time >= slide - 0.5 && hit.time < slide + 2, "\(word): hit at \(hit.time) s")
                #expect(hit.endTime <= slide + 2.5 && hit.endTime - hit.time <= 2.5, "\(word): the hit spans \(hit.time)–\(hit.endTime) s")
            }
        }
    }
}
