import BlockingWork
public import Foundation
import HLS
import Logging
import Synchronization

/// Subtitle files added to an asset: stored as WebVTT in the library's rows and served as HLS
/// subtitle renditions of the asset's bundle (written into it when it is ready, and again each
/// time it is packaged).
extension MediaLibrary {
    /// The most subtitle files one asset may have.
    public static let maximumSubtitleFiles = 30

    /// The asset's added subtitle files, oldest first.
    public func subtitleFiles(for assetID: String) async throws -> [SubtitleFile] {
        try await store.subtitleFiles(for: assetID)
    }

    /// Reads `data` (SRT, WebVTT, ASS or SSA), stores it as WebVTT with its language and label,
    /// and, when the asset is ready, adds it to the asset's playlists.
    @discardableResult
    public func addSubtitleFile(
        _ data: Data, to assetID: String, language: String?, label: String?, isForced: Bool = false
    ) async throws -> SubtitleFile {
        guard let asset = try await store.asset(id: assetID) else { throw LibraryError.assetNotFound(assetID) }
        let language = try SubtitleLanguage.normalized(language)
        let label = try SubtitleLanguage.label(label, language: language)
        let converted = try await BlockingWork.run { () throws(SubtitleFileError) -> SubtitleConversion.Converted in
            try SubtitleConversion.webVTT(from: data)
        }
        guard try await store.subtitleFiles(for: assetID).count < Self.maximumSubtitleFiles else {
            throw SubtitleFileError.tooMany(limit: Self.maximumSubtitleFiles)
        }
        let file = SubtitleFile(
            assetID: assetID, language: language, label: label, format: converted.format, isForced: isForced,
            cueCount: converted.cueCount, webVTT: converted.webVTT)
        try await store.saveSubtitleFile(file)
        try await publishSubtitleRenditions(of: asset)
        return file
    }

    /// Removes one added subtitle file from the asset and its playlists.
    public func removeSubtitleFile(id: String, from assetID: String) async throws {
        guard let asset = try await store.asset(id: assetID) else { throw LibraryError.assetNotFound(assetID) }
        guard SubtitleFile.isValidID(id), try await store.deleteSubtitleFile(id: id, assetID: assetID) else {
            throw SubtitleFileError.notFound(id)
        }
        try await publishSubtitleRenditions(of: asset)
    }

    /// Writes the asset's added renditions into its published media and rewrites its
    /// multivariant playlist to list them (`SubtitlePublishing`). Reads the asset again first:
    /// while it is not ready nothing is written (packaging installs the files, and the worker
    /// publishes again a file added after it took the list). One asset's playlist is rewritten
    /// by one caller at a time.
    func publishSubtitleRenditions(of asset: Asset) async throws {
        try await subtitlePublishing.run(asset.id) {
            guard let current = try await self.store.asset(id: asset.id), current.status == .ready else { return }
            try await SubtitlePublishing.publish(assetID: asset.id, duration: current.duration ?? 0, store: self.store, media: self.media)
        }
    }

    /// Reads the sidecar subtitle files next to `media` as subtitle files of `assetID` (those
    /// that do not read are skipped and logged: the media file is still added).
    func addSidecarSubtitles(of media: URL, to assetID: String) async {
        let found = await (try? BlockingWork.run { SidecarSubtitles.find(nextTo: media) }) ?? []
        for sidecar in found {
            do {
                let data = try await BlockingWork.run { () throws -> Data in
                    let size = (try FileManager.default.attributesOfItem(atPath: sidecar.url.path)[.size] as? NSNumber)?.intValue ?? 0
                    guard size <= SubtitleConversion.maximumBytes else { throw SubtitleFileError.tooLarge(limit: SubtitleConversion.maximumBytes) }
                    return try Data(contentsOf: sidecar.url)
                }
                let converted = try SubtitleConversion.webVTT(from: data)
                let file = SubtitleFile(
                    assetID: assetID, language: sidecar.language, label: try SubtitleLanguage.label(nil, language: sidecar.language),
                    format: converted.format, isForced: sidecar.isForced, cueCount: converted.cueCount, webVTT: converted.webVTT)
                try await store.saveSubtitleFile(file)
            } catch {
                Self.logger.warning("The subtitle file \(sidecar.url.lastPathComponent) next to \(media.lastPathComponent) was not added: \(error)")
            }
        }
    }
}

/// Runs one job at a time per key (an asset's playlist rewrites), in the order they asked.
final class KeyedSerialQueue: Sendable {
    private let tails = Mutex<[String: Task<Void, Never>]>([:])

    func run<T: Sendable>(_ key: String, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let (previous, mine) = tails.withLock { tails -> (Task<Void, Never>?, Task<T, any Error>) in
            let previous = tails[key]
            let task = Task<T, any Error> {
                await previous?.value
                return try await body()
            }
            tails[key] = Task { _ = try? await task.value }
            return (previous, task)
        }
        _ = previous
        return try await mine.value
    }
}
