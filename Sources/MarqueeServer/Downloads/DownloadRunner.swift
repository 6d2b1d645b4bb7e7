import BlockingWork
public import Downloads
public import Foundation
import HLS
import JSONDocument
import NIOCore
import NIOPosix

/// One download under way, as the service drives it: snapshots of its progress, and run,
/// pause and resume. `run()` throws `CancellationError` when its task is cancelled.
public protocol RunningDownload: Sendable {
    var snapshots: AsyncStream<DownloadProgress> { get }
    func run() async throws
    func pause() async
    func resume() async
}

/// Makes the download for a request into a bundle folder — the seam between the service's
/// state machine and the network: `HLSDownloadRunner` fetches with the `Downloads` module,
/// tests substitute a runner they control.
public protocol DownloadRunner: Sendable {
    /// Plans the download (fetching playlists); throws when it cannot be planned.
    func prepare(_ request: DownloadRequest, into bundle: URL) async throws -> any RunningDownload
}

/// The real runner: plans with `DownloadConfiguration` (the chosen variant or predicate, the
/// audio and subtitle languages) and downloads with `AssetDownloadTask`, whose journal in
/// the bundle makes a second run skip the files the first one finished.
public struct HLSDownloadRunner: DownloadRunner {
    public init() {}

    public func prepare(_ request: DownloadRequest, into bundle: URL) async throws -> any RunningDownload {
        if try await Self.isComplete(bundle) { return CompleteDownload() }
        guard let source = StreamInspector.httpURL(request.url) else {
            throw DownloadError.selection("“\(request.url)” is not an http:// or https:// address")
        }
        let concurrency = min(max(request.concurrency ?? 4, 1), 16)
        let fetcher = HTTPFetcher(concurrency: concurrency)
        do {
            let (data, finalURL) = try await fetcher.fetch(source, maximumBytes: HTTPFetcher.Limit.playlist)
            let multivariant = try StreamInspector.multivariant(from: data, url: finalURL)
            let configuration = try Self.configuration(for: request, asset: finalURL, playlist: multivariant)
            let (plan, _) = try configuration.plan(for: multivariant, url: finalURL)
            let recorded = String(decoding: try JSONEncoder().encode(request), as: UTF8.self)
            let task = AssetDownloadTask(
                plan: plan, output: bundle,
                metadata: BundleMetadataInput(
                    title: configuration.title, sourceURL: finalURL,
                    configuration: .object([
                        ("variant", .optional(request.variant)), ("predicate", .optional(request.predicate)),
                        ("audio", .strings(request.audio ?? [])), ("subtitles", .strings(request.subtitles ?? [])),
                    ])),
                concurrency: concurrency, journalSettings: ["request": recorded], fetcher: fetcher)
            return TaskDownload(task: task, fetcher: fetcher)
        } catch {
            try? await fetcher.shutdown()
            throw error
        }
    }

    /// A bundle whose download already finished: `metadata.json` written, journal gone.
    static func isComplete(_ bundle: URL) async throws -> Bool {
        try await BlockingWork.run {
            FileManager.default.fileExists(atPath: bundle.appendingPathComponent(BundleLayout.metadata).path)
                && !FileManager.default.fileExists(atPath: bundle.appendingPathComponent(AssetDownloadTask.journalFolder).path)
        }
    }

    static func configuration(for request: DownloadRequest, asset: URL, playlist: MultivariantPlaylist) throws -> DownloadConfiguration {
        var primary = ContentConfiguration()
        if let variant = request.variant, !variant.isEmpty {
            let uri = URIResolution.resolve(variant, against: asset)
            let inspected = playlist.inspectedVariants(baseURL: asset)
            if let index = request.variantIndex, inspected.indices.contains(index), inspected[index].uri == uri {
                primary.variantQualifiers.append(VariantQualifier(variant: inspected[index]))
            } else {
                primary.variantQualifiers.append(.variant(uri: uri))
            }
        }
        if let predicate = request.predicate?.trimmingCharacters(in: .whitespacesAndNewlines), !predicate.isEmpty {
            do {
                primary.variantQualifiers.append(try VariantQualifier(format: predicate))
            } catch {
                throw DownloadError.selection("The predicate is not valid at column \(error.column): \(error.message)")
            }
        }
        primary.mediaSelections =
            (request.audio ?? []).map { MediaSelection.audio(language: $0) }
            + (request.subtitles ?? []).map { MediaSelection.subtitles(language: $0) }
        return DownloadConfiguration(
            asset: asset, title: request.title ?? StreamInspector.suggestedTitle(for: asset),
            primaryContentConfiguration: primary)
    }
}

/// `AssetDownloadTask` behind `RunningDownload`; shuts its HTTP client down when it ends.
final class TaskDownload: RunningDownload {
    let task: AssetDownloadTask
    let fetcher: HTTPFetcher

    init(task: AssetDownloadTask, fetcher: HTTPFetcher) {
        self.task = task
        self.fetcher = fetcher
    }

    var snapshots: AsyncStream<DownloadProgress> { task.snapshots }

    func run() async throws {
        do {
            try await task.run()
            try? await fetcher.shutdown()
        } catch {
            try? await fetcher.shutdown()
            throw error
        }
    }

    func pause() async { await task.pause() }
    func resume() async { await task.resume() }
}

/// A download that finished before (its bundle is complete): nothing left to fetch.
struct CompleteDownload: RunningDownload {
    var snapshots: AsyncStream<DownloadProgress> { AsyncStream { $0.finish() } }
    func run() async throws {}
    func pause() async {}
    func resume() async {}
}
