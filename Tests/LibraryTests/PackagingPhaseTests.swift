import Foundation
import Testing

@testable import Library

/// The packager reports named phases, in process and across the child process, and the job's
/// message comes from the phase: an audio-only file never reads "Making thumbnails".
@Suite("Packaging phases", .serialized)
struct PackagingPhaseTests {
    @Test func anAudioOnlyIngestNeverSaysMakingThumbnails() async throws {
        let temp = try TemporaryLibrary()
        defer { temp.cleanUp() }
        let song = temp.root.appendingPathComponent("song.mp3")
        try await ProcessRunner(executable: "/usr/bin/ffmpeg").run([
            "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=6", "-c:a", "libmp3lame",
            song.path,
        ])
        let seen = try await ingest(song, in: temp)
        #expect(seen.job.state == .succeeded, "\(seen.job.message ?? "")")
        #expect(!seen.phases.isEmpty)
        #expect(Set(seen.phases).isSubset(of: [.packagingAudio, .savingCoverArt]), "\(seen.phases)")
        // Audio packaging runs past 90 %, where a guess from the fraction said "Making thumbnails".
        #expect(zip(seen.phases, seen.fractions).contains { $0 == .packagingAudio && $1 >= 0.9 }, "\(seen.fractions)")
        #expect(!seen.messages.contains("Making thumbnails"), "\(seen.messages)")
        #expect(seen.messages.allSatisfy { $0 == "Packaging" }, "\(seen.messages)")
    }

    @Test func aVideoSaysPackagingThenMakingThumbnails() async throws {
        let temp = try TemporaryLibrary()
        defer { temp.cleanUp() }
        let clip = try await temp.makeClip(seconds: 3)
        let seen = try await ingest(clip, in: temp)
        #expect(seen.job.state == .succeeded, "\(seen.job.message ?? "")")
        #expect(seen.phases.first == .packagingVideo && seen.phases.last == .makingThumbnails, "\(seen.phases)")
        #expect(seen.phases.contains(.makingPoster))
        // Once the thumbnails have begun, the job never reads "Packaging" again.
        let thumbnails = try #require(seen.messages.firstIndex(of: "Making thumbnails"), "\(seen.messages)")
        #expect(seen.messages[..<thumbnails].allSatisfy { $0 == "Packaging" }, "\(seen.messages)")
        #expect(seen.messages[thumbnails...].allSatisfy { $0 == "Making thumbnails" }, "\(seen.messages)")
        // While a phase is reported, the job's row already says it.
        for (phase, message) in zip(seen.phases, seen.messages) { #expect(message == phase.jobMessage) }
    }

    @Test func audioPackagingReportsNoThumbnailPhase() async throws {
        let temp = try TemporaryLibrary()
        defer { temp.cleanUp() }
        let song = temp.root.appendingPathComponent("song.m4a")
        try await ProcessRunner(executable: "/usr/bin/ffmpeg").run([
            "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=4", "-c:a", "aac", song.path,
        ])
        let packager = BundlePackager()
        let bundle = temp.root.appendingPathComponent("bundle")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        let reports = Reports()
        _ = try await packager.package(song, probe: try await packager.probe(song), into: bundle) { await reports.append($0) }
        let seen = await reports.values
        #expect(seen.map(\.phase).allSatisfy { [.packagingAudio, .savingCoverArt].contains($0) }, "\(seen)")
        #expect(seen.map(\.fraction) == seen.map(\.fraction).sorted() && seen.last?.fraction == 1)
    }

    @Test func phasesCrossTheChildProcessBoundary() async throws {
        let temp = try TemporaryLibrary()
        defer { temp.cleanUp() }
        let lines = try [
            MediaWorkEvent.progress(PackagingProgress(.packagingAudio, 0.5)),
            .progress(PackagingProgress(.savingCoverArt, 1)),
            .packaged(PackagedBundle(multivariantPlaylist: "master.m3u8", poster: nil, trickPlay: nil)),
        ].map { try $0.line() }
        let child = temp.root.appendingPathComponent("child.sh")
        try ("#!/bin/sh\n" + lines.map { "echo '\($0)'" }.joined(separator: "\n") + "\n").write(to: child, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: child.path)
        let reports = Reports()
        let probe = MediaProbe(duration: 4, audioTracks: [], subtitleTracks: [])
        let packaged = try await IsolatedBundlePackager(executable: child.path, arguments: []).package(
            URL(fileURLWithPath: "/tmp/song.m4a"), probe: probe, into: temp.root
        ) { await reports.append($0) }
        #expect(packaged.multivariantPlaylist == "master.m3u8")
        #expect(await reports.values == [PackagingProgress(.packagingAudio, 0.5), PackagingProgress(.savingCoverArt, 1)])
    }

    // MARK: Helpers

    /// Ingests `source` with a worker whose packager, after each report has been handed on,
    /// reads the job's row: the phases reported and the message the row had at each.
    func ingest(
        _ source: URL, in temp: TemporaryLibrary
    ) async throws -> (phases: [PackagingPhase], fractions: [Double], messages: [String], job: IngestJob) {
        let seen = SeenMessages()
        let store = temp.library.store
        let packager = WatchingPackager(inner: BundlePackager()) { progress in
            let message = try? await store.jobs().first?.message
            await seen.append(progress, message ?? "")
        }
        let worker = IngestWorker(store: store, location: temp.library.location, packager: packager)
        let asset = try await temp.library.add(paths: [source.path])[0]
        await worker.drain()
        let job = try #require(try await store.jobs(assetID: asset.id).first)
        return (await seen.phases, await seen.fractions, await seen.messages, job)
    }
}

/// Hands every report on, then calls `watch` with it.
struct WatchingPackager: BundlePackaging {
    let inner: any BundlePackaging
    let watch: @Sendable (PackagingProgress) async -> Void

    func probe(_ source: URL) async throws -> MediaProbe { try await inner.probe(source) }

    func package(
        _ source: URL, probe: MediaProbe, into bundle: URL, progress: @escaping @Sendable (PackagingProgress) async -> Void
    ) async throws -> PackagedBundle {
        try await inner.package(source, probe: probe, into: bundle) { reported in
            await progress(reported)
            await watch(reported)
        }
    }

    func decorate(bundle: URL, duration: Double, artwork: String?) async throws -> PackagedBundle {
        try await inner.decorate(bundle: bundle, duration: duration, artwork: artwork)
    }
}

actor Reports {
    private(set) var values: [PackagingProgress] = []
    func append(_ value: PackagingProgress) { values.append(value) }
}

actor SeenMessages {
    private(set) var phases: [PackagingPhase] = []
    private(set) var fractions: [Double] = []
    private(set) var messages: [String] = []
    func append(_ progress: PackagingProgress, _ message: String) {
        phases.append(progress.phase)
        fractions.append(progress.fraction)
        messages.append(message)
    }
}
