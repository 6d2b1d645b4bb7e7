import ArgumentParser
import Foundation
import HLS
import JSONDocument
import MediaCore

/// `marquee thumbnails`: writes still images of a video at given times.
struct ThumbnailsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnails",
        abstract: "Write thumbnails at given times (or every N seconds), printing requested and actual times.")

    @Argument(help: "A media file path or an http(s) URL.")
    var source: String

    @Option(help: "Comma-separated times in seconds, such as 1,2.5,10.")
    var at: String?

    @Option(help: "One thumbnail every this many seconds, from 0.")
    var every: Double?

    @Option(help: "How far (seconds, each side) the picture may be from the requested time. Default: any (fastest).")
    var tolerance: Double?

    @Flag(help: "The exact frame on screen at each time (zero tolerance).")
    var exact = false

    @Option(help: "Largest thumbnail size, WxH (aspect is kept); 0 leaves a side unbounded.")
    var size: String?

    @Option(help: "jpg, png or webp.")
    var format = "jpg"

    @Option(help: "Directory to write the images into.")
    var out: String

    @Flag(help: "Print one JSON object per thumbnail instead of text (the default when standard output is not a terminal).")
    var json = false

    func validate() throws {
        if (at == nil) == (every == nil) { throw ValidationError("give exactly one of --at and --every") }
        if exact && tolerance != nil { throw ValidationError("--exact and --tolerance exclude each other") }
        if ImageFormat(name: format) == nil { throw ValidationError("--format must be jpg, png or webp") }
        if let every, every <= 0 { throw ValidationError("--every must be positive") }
        if let size, Self.parseSize(size) == nil { throw ValidationError("--size must look like 320x180") }
    }

    static func parseSize(_ text: String) -> PixelSize? {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width >= 0, height >= 0,
            width + height > 0
        else { return nil }
        return PixelSize(width: width, height: height)
    }

    func run() async throws {
        let console = Console(command: "thumbnails", json: json)
        try await console.run { try await makeThumbnails(console) }
    }

    private func makeThumbnails(_ console: Console) async throws {
        let asset = MediaSourceArgument.asset(source)
        let imageFormat = ImageFormat(name: format)!
        var times: [MediaTime]
        if let at {
            times = try at.split(separator: ",").map {
                guard let seconds = Double($0.trimmingCharacters(in: .whitespaces)) else {
                    throw ValidationError("not a time in seconds: \($0)")
                }
                return MediaTime(seconds: seconds, preferredTimescale: 1000)
            }
        } else {
            let duration = try await asset.load(.duration)
            guard duration.isNumeric else { throw CommandFailure(.unusableInput, "\(source): --every needs a finite duration") }
            times = stride(from: 0.0, to: duration.seconds, by: every!).map { MediaTime(seconds: $0, preferredTimescale: 1000) }
        }
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)

        var generator = ImageGenerator(asset: asset)
        if exact { generator.setTolerance(.zero) }
        if let tolerance { generator.setTolerance(MediaTime(seconds: tolerance, preferredTimescale: 1000)) }
        generator.maximumSize = size.flatMap(Self.parseSize)

        var failures = 0
        let started = ContinuousClock.now
        // Encoding runs on a second pool thread while the generator decodes the next time.
        var pending: Task<[UInt8], any Error>?
        var pendingLine: (index: Int, requested: MediaTime, actual: MediaTime, size: PixelSize)?
        var index = 0
        for await result in generator.images(for: times) {
            if let task = pending, let line = pendingLine {
                failures += try await finish(task, line, imageFormat, console) ? 0 : 1
            }
            pending = nil
            pendingLine = nil
            switch result {
            case .success(let requested, let image, let actual):
                pending = Task { try await image.encoded(as: imageFormat) }
                pendingLine = (index, requested, actual, image.size)
            case .failure(let requested, let error):
                failures += 1
                report(index: index, requested: requested, error: error, console)
            }
            index += 1
            console.progress(Double(index) / Double(max(1, times.count)), label: "thumbnails", detail: "\(index)/\(times.count)")
        }
        if let task = pending, let line = pendingLine {
            failures += try await finish(task, line, imageFormat, console) ? 0 : 1
        }
        console.clearProgress()
        let elapsed = ContinuousClock.now - started
        if !console.isJSON {
            FileHandle.standardError.write(Data("\(times.count - failures) of \(times.count) thumbnails in \(elapsed) → \(out)\n".utf8))
        }
        if failures > 0 {
            throw CommandFailure(
                failures == times.count ? .unusableInput : .failed,
                "\(failures) of \(times.count) thumbnails could not be made from \(source)")
        }
    }

    private func finish(
        _ task: Task<[UInt8], any Error>, _ line: (index: Int, requested: MediaTime, actual: MediaTime, size: PixelSize),
        _ imageFormat: ImageFormat, _ console: Console
    ) async throws -> Bool {
        do {
            let bytes = try await task.value
            let name = String(format: "thumb-%04d.%@", line.index + 1, imageFormat.fileExtension)
            let path = (out as NSString).appendingPathComponent(name)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            console.emit(
                "thumbnail",
                [
                    ("index", .int(line.index)), ("requested", .double(line.requested.seconds)),
                    ("actual", .double(line.actual.seconds)), ("file", .string(path)),
                    ("width", .int(line.size.width)), ("height", .int(line.size.height)),
                ],
                text: String(
                    format: "requested %9.3f  actual %9.3f  %@ (%dx%d)", line.requested.seconds,
                    line.actual.seconds, name, line.size.width, line.size.height))
            return true
        } catch {
            report(index: line.index, requested: line.requested, error: error, console)
            return false
        }
    }

    private func report(index: Int, requested: MediaTime, error: any Error, _ console: Console) {
        let message = (error as? MediaError)?.description ?? String(describing: error)
        console.emit(
            "thumbnail",
            [
                ("index", .int(index)), ("requested", requested.isNumeric ? .double(requested.seconds) : .null),
                ("error", .string(message)),
            ],
            text: String(format: "requested %9.3f  failed: %@", requested.seconds, message))
    }
}
