import Foundation
import HLS
import MediaCore
import MediaTesting
import Testing

@testable import Library

/// Media work on a person's file runs in a child process (`IsolatedBundlePackager`): a child
/// that crashes fails its own job with a plain reason, is tried a bounded number of times,
/// and the worker goes on with the next job.
@Suite("Media work in a child process")
struct IsolatedPackagingTests {
    /// Writes an executable shell script and returns its path.
    func script(_ body: String, in folder: URL, named name: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try ("#!/bin/sh\n" + body + "\n").write(to: url, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        return url.path
    }

    @Test func aChildKilledBySignalIsACrashWithItsLastWords() async throws {
        let temp = try TemporaryLibrary()
        defer { temp.cleanUp() }
        let crashing = try script("echo 'double free or corruption (out)' >&2; kill -SEGV $$", in: temp.root, named: "crash.sh")
        let packager = IsolatedBundlePackager(executable: crashing, arguments: [])
        await #expect {
            _ = try await packager.probe(URL(fileURLWithPath: "/tmp/portrait.mp4"))
        } throws: { error in
            guard let crash = error as? MediaWorkCrashed else { return false }
            return crash.signal == SIGSEGV && crash.detail.contains("double free") && IngestFailure(error).reason == .packagerCrashed
        }
    }

    @Test func aChildThatEndsWithoutAnAnswerIsACrashToo() async throws {
        let temp = try TemporaryLibrary()
        defer { temp.cleanUp() }
        let silent = try script("exit 0", in: temp.root, named: "silent.sh")
        await #expect(throws: MediaWorkCrashed.self) {
            _ = try await IsolatedBundlePackager(executable: silent, arguments: []).probe(URL(fileURLWithPath: "/tmp/a.mp4"))
        }
    }

    @Test func aFailureTheChildReportsIsClassifiedAsInProcess() async throws {
        let temp = try TemporaryLibrary()
        defer { temp.cleanUp() }
        let cause = MediaError(.open, url: "/tmp/x.mp4", message: "Invalid data found when processing input", code: IngestFailure.invalidDataCode)
        let line = try MediaWorkEvent.failed(MediaWorkFailure(LibraryError.mediaFailed(step: "read", path: "/tmp/x.mp4", cause: cause))).line()
        let answering = try script("echo '{\"progress\":{\"_0\":0.5}}'; echo '\(line)'", in: temp.root, named: "answer.sh")
        do {
            _ = try await IsolatedBundlePackager(executable: answering, arguments: []).probe(URL(fileURLWithPath: "/tmp/x.mp4"))
            Issue.record("the child's failure must be thrown")
        } catch {
            let failure = IngestFailure(error)
            #expect(failure.reason == .notMedia)
            guard case LibraryError.mediaFailed(let step, _, let kept) = error else {
                Issue.record("expected the library error back, got \(error)")
                return
            }
            #expect(step == "read" && kept.code == IngestFailure.invalidDataCode && kept.kind == .open)
        }
    }

    @Test func aCrashingFileFailsAloneAfterBoundedRetriesAndTheNextJobIsPrepared() async throws {
        let temp = try TemporaryLibrary()
        defer { temp.cleanUp() }
        let crashing = try script("kill -SEGV $$", in: temp.root, named: "crash.sh")
        let packager = RoutingPackager(
            crashing: IsolatedBundlePackager(executable: crashing, arguments: []), otherwise: ScriptedPackager(behaviour: .finish))
        let worker = IngestWorker(store: temp.library.store, location: temp.library.location, packager: packager)
        var ids: [String: String] = [:]
        for name in ["crash-portrait.mp4", "fine.mp4"] {
            ids[name] = try await temp.addPlaceholder(named: name).id
        }
        // The crash is retried once after a short pause, then fails for good.
        try await eventually("the crashing file's job to fail for good", pollingEvery: .milliseconds(100)) {
            await worker.drain()
            return try await temp.library.store.jobs(assetID: ids["crash-portrait.mp4"]!).first?.state == .failed
        }
        let crashed = try #require(try await temp.library.store.jobs(assetID: ids["crash-portrait.mp4"]!).first)
        #expect(crashed.state == .failed)
        #expect(crashed.failureReason == "packagerCrashed")
        #expect(crashed.attempts == IngestWorker.crashAttempts)
        #expect(crashed.message?.contains("crash") == true)
        let fine = try #require(try await temp.library.store.jobs(assetID: ids["fine.mp4"]!).first)
        #expect(fine.state == .succeeded)
    }
}

/// Sends files whose name starts with "crash" to `crashing`, the rest to `otherwise`.
struct RoutingPackager: BundlePackaging {
    let crashing: IsolatedBundlePackager
    let otherwise: ScriptedPackager

    func choose(_ source: URL) -> any BundlePackaging {
        source.lastPathComponent.hasPrefix("crash") ? crashing : otherwise
    }

    func probe(_ source: URL) async throws -> MediaProbe { try await choose(source).probe(source) }

    func package(
        _ source: URL, probe: MediaProbe, into bundle: URL, progress: @escaping @Sendable (PackagingProgress) async -> Void
    ) async throws -> PackagedBundle {
        try await choose(source).package(source, probe: probe, into: bundle, progress: progress)
    }

    func decorate(bundle: URL, duration: Double, artwork: String?) async throws -> PackagedBundle {
        try await otherwise.decorate(bundle: bundle, duration: duration, artwork: artwork)
    }
}
