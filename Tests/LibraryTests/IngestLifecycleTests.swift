import Foundation
import Testing

@testable import Library

/// The steps of an ingest job and what becomes of one that stops, as `IngestLifecycle` rules
/// them: no files, no database, no FFmpeg.
@Suite("Ingest lifecycle")
struct IngestLifecycleTests {
    typealias Effect = IngestLifecycle.Effect

    func lifecycle(attempts: Int = 1, maximumAttempts: Int = 3, mediaIsLocal: Bool = true) -> IngestLifecycle {
        IngestLifecycle(
            assetID: "a1", attempts: attempts, policy: IngestRetryPolicy(maximumAttempts: maximumAttempts), mediaIsLocal: mediaIsLocal)
    }

    /// Applies `event` and checks the rule the runner relies on: only the last effect answers.
    @discardableResult
    func handle(
        _ event: IngestLifecycle.Event, _ lifecycle: inout IngestLifecycle, sourceLocation: SourceLocation = #_sourceLocation
    ) -> [Effect] {
        let effects = lifecycle.handle(event)
        #expect(effects.dropLast().allSatisfy { !$0.answers }, "only the last effect may answer: \(effects)", sourceLocation: sourceLocation)
        return effects
    }

    /// Walks a job from its claim to where `events` lead, returning the last effects.
    @discardableResult
    func walk(_ events: [IngestLifecycle.Event], _ lifecycle: inout IngestLifecycle) -> [Effect] {
        events.reduce([]) { _, event in handle(event, &lifecycle) }
    }

    func failure(_ reason: IngestFailure.Reason) -> Effect {
        .recordFailure(reason, message: IngestFailure.message(for: reason))
    }

    /// The failure effects, without the log line.
    func settled(_ effects: [Effect]) -> [Effect] {
        effects.filter { if case .log = $0 { false } else { true } }
    }

    static let upToPackaging: [IngestLifecycle.Event] = [
        .begin, .opened(source: .local("/m/film.mp4")), .inspected(.regularFile, path: "/m/film.mp4"), .probed,
    ]

    // MARK: The steps

    @Test func aFileIsOpenedInspectedProbedPackagedPublishedAndFinished() {
        var job = lifecycle()
        #expect(handle(.begin, &job) == [.openAsset])
        #expect(job.step == .opening)
        #expect(handle(.opened(source: .local("/m/film.mp4")), &job) == [.inspectSource])
        #expect(job.step == .inspecting)
        #expect(
            handle(.inspected(.regularFile, path: "/m/film.mp4"), &job) == [
                .clearStaging, .createStaging, .announce("Probing"), .probe,
            ])
        #expect(job.step == .probing)
        #expect(handle(.probed, &job) == [.announce("Packaging"), .package])
        #expect(job.step == .packaging)
        #expect(handle(.packaged, &job) == [.readBadges, .publish], "a folder media store publishes in place, unannounced")
        #expect(job.step == .publishing)
        #expect(handle(.published, &job) == [.confirmLease])
        #expect(handle(.leaseConfirmed(true), &job) == [.recordSuccess])
        #expect(job.step == .finishing)
        #expect(handle(.recorded, &job) == [])
        #expect(job.step == .ended(.succeeded))
        #expect(job.hasEnded)
    }

    @Test func aStoredSourceIsFetchedFirstAndPublishingIsAnnounced() {
        var job = lifecycle(mediaIsLocal: false)
        handle(.begin, &job)
        #expect(handle(.opened(source: .stored("uploads/a1")), &job) == [.announce("Fetching the source"), .fetchSource])
        #expect(job.step == .fetching)
        #expect(handle(.fetched(found: true), &job) == [.inspectSource])
        handle(.inspected(.regularFile, path: "/data/scratch/sources/a1/film.mp4"), &job)
        handle(.probed, &job)
        #expect(handle(.packaged, &job) == [.readBadges, .announce("Publishing"), .publish])
    }

    @Test func aStoredSourceThatIsNotThereFailsAsMissing() {
        var job = lifecycle(mediaIsLocal: false)
        let effects = walk([.begin, .opened(source: .stored("uploads/a1")), .fetched(found: false)], &job)
        #expect(settled(effects) == [failure(.sourceMissing)])
        #expect(job.step == .ended(.failed(.sourceMissing)))
    }

    @Test func aBundleFolderIsImportedThenDecorated() {
        var job = lifecycle()
        let effects = walk([.begin, .opened(source: .local("/m/Download")), .inspected(.directory, path: "/m/Download")], &job)
        #expect(effects == [.clearStaging, .announce("Importing bundle"), .importBundle])
        #expect(job.step == .importing)
        #expect(handle(.imported(duration: 12), &job) == [.announce("Making thumbnails"), .decorate])
        #expect(job.step == .decorating)
        #expect(handle(.decorated, &job) == [.readBadges, .publish])
    }

    @Test(arguments: [nil, 0.0])
    func aBundleWithoutADurationIsPublishedUndecorated(duration: Double?) {
        var job = lifecycle()
        walk([.begin, .opened(source: .local("/m/Download")), .inspected(.directory, path: "/m/Download")], &job)
        #expect(handle(.imported(duration: duration), &job) == [.readBadges, .publish])
    }

    @Test func anAssetDeletedBeforeItsJobBeganEndsItQuietly() {
        var job = lifecycle()
        handle(.begin, &job)
        #expect(handle(.assetGone, &job) == [])
        #expect(job.step == .ended(.assetGone))
    }

    @Test func anAssetWithoutASourcePathIsNotMedia() {
        var job = lifecycle()
        let effects = walk([.begin, .opened(source: nil)], &job)
        #expect(settled(effects) == [failure(.notMedia)])
    }

    @Test func aVanishedSourceIsMarkedMissingThenFails() {
        var job = lifecycle()
        let effects = walk([.begin, .opened(source: .local("/m/gone.mp4")), .inspected(.missing, path: "/m/gone.mp4")], &job)
        #expect(effects == [.markSourceMissing])
        #expect(job.step == .markingMissing)
        let failed = handle(.sourceMarkedMissing, &job)
        #expect(settled(failed) == [failure(.sourceMissing)])
        #expect(failed.contains(.log("ingest of asset a1 failed (sourceMissing): No file or folder at /m/gone.mp4")))
    }

    @Test func aFIFOInPlaceOfTheSourceIsRefusedBeforeAnythingOpensIt() {
        var job = lifecycle()
        let effects = walk([.begin, .opened(source: .local("/m/pipe")), .inspected(.other("a FIFO (named pipe)"), path: "/m/pipe")], &job)
        #expect(settled(effects) == [failure(.notMedia)])
        #expect(!effects.contains(.probe))
    }

    @Test func eventsThatDoNotBelongToTheStepChangeNothing() {
        var job = lifecycle()
        #expect(handle(.packaged, &job) == [])
        #expect(job.step == .claimed)
        walk(Self.upToPackaging, &job)
        #expect(handle(.probed, &job) == [])
        #expect(handle(.fetched(found: true), &job) == [])
        #expect(handle(.recorded, &job) == [])
        #expect(job.step == .packaging)
    }

    @Test func anEndedRunTakesNoMoreEvents() {
        var job = lifecycle()
        walk([.begin, .assetGone], &job)
        #expect(handle(.failed(IngestTrouble(MediaWorkOtherFailure(message: "late"))), &job) == [])
        #expect(handle(.interrupt(.handBack), &job) == [], "nothing to stop")
        #expect(job.step == .ended(.assetGone))
    }

    // MARK: The retry policy

    @Test func aJobStartedMoreOftenThanAllowedFailsAsInterrupted() {
        var job = lifecycle(attempts: 4, maximumAttempts: 3)
        #expect(settled(handle(.begin, &job)) == [failure(.interrupted)])
        #expect(job.step == .ended(.failed(.interrupted)))
        var last = lifecycle(attempts: 3, maximumAttempts: 3)
        #expect(handle(.begin, &last) == [.openAsset], "the last allowed start runs")
    }

    @Test func aCrashedChildIsTriedOnceMoreThenFails() {
        let crash = IngestTrouble(MediaWorkCrashed(request: .probe(source: "/m/bad.mp4"), signal: SIGSEGV, detail: "double free"))
        var first = lifecycle(attempts: 1)
        walk(Self.upToPackaging, &first)
        let retried = handle(.failed(crash), &first)
        #expect(settled(retried) == [.requeue(after: .seconds(1), message: "Retrying after the media converter crashed", attempts: 1)])
        #expect(retried.contains { if case .log(let line) = $0 { line.hasSuffix("trying once more") } else { false } })
        #expect(first.step == .ended(.retrying(after: .seconds(1))))

        var second = lifecycle(attempts: IngestRetryPolicy.crashAttempts)
        walk(Self.upToPackaging, &second)
        #expect(settled(handle(.failed(crash), &second)) == [failure(.packagerCrashed)])
    }

    @Test func aFaultOutsideTheMediaIsRetriedWithBackoffUpToTheLimit() {
        struct DatabaseWentAway: Error {}
        var first = lifecycle(attempts: 1, maximumAttempts: 3)
        walk(Self.upToPackaging, &first)
        #expect(
            settled(handle(.failed(IngestTrouble(DatabaseWentAway())), &first)) == [
                .requeue(after: .seconds(2), message: "Retrying in 2 s", attempts: 1)
            ])
        var second = lifecycle(attempts: 2, maximumAttempts: 3)
        handle(.begin, &second)
        #expect(
            settled(handle(.failed(IngestTrouble(DatabaseWentAway())), &second)) == [
                .requeue(after: .seconds(4), message: "Retrying in 4 s", attempts: 2)
            ])
        var last = lifecycle(attempts: 3, maximumAttempts: 3)
        handle(.begin, &last)
        #expect(settled(handle(.failed(IngestTrouble(DatabaseWentAway())), &last)) == [failure(.unknown)])
    }

    @Test func theBackoffDoublesUpToAMinute() {
        let policy = IngestRetryPolicy(maximumAttempts: 10)
        #expect((0...8).map { policy.backoff(attempts: $0).components.seconds } == [1, 2, 4, 8, 16, 32, 60, 60, 60])
    }

    @Test func aLibraryErrorOrAMediaFailureIsNeverRetried() {
        for error: any Error in [
            LibraryError.jobNotRetryable(1, state: "running"), LibraryError.unsupportedSource("/m/a.txt"),
            LibraryError.toolFailed(tool: "ffmpeg", status: 1, message: "boom"),
        ] {
            var job = lifecycle(attempts: 1)
            walk(Self.upToPackaging, &job)
            let effects = settled(handle(.failed(IngestTrouble(error)), &job))
            #expect(effects == [failure(IngestFailure(error).reason)], "\(error)")
        }
    }

    @Test func aWorkerStoppingOnSIGTERMHandsTheJobBackWithoutCountingTheAttempt() {
        var job = lifecycle(attempts: 2)
        walk(Self.upToPackaging, &job)
        #expect(handle(.interrupt(.handBack), &job) == [.stopWork])
        #expect(job.step == .packaging, "the step ends when its work does")
        #expect(
            handle(.failed(IngestTrouble(CancellationError())), &job) == [
                .requeue(after: .zero, message: "Waiting for a worker", attempts: 1)
            ])
        #expect(job.step == .ended(.handedBack))
    }

    @Test func aHandBackWinsOverACrashThatFollows() {
        var job = lifecycle(attempts: 1)
        walk(Self.upToPackaging, &job)
        handle(.interrupt(.handBack), &job)
        let crash = IngestTrouble(MediaWorkCrashed(request: .probe(source: "/m/x.mp4"), signal: SIGKILL, detail: ""))
        #expect(handle(.failed(crash), &job) == [.requeue(after: .zero, message: "Waiting for a worker", attempts: 0)])
    }

    @Test func aLostLeaseLetsTheJobGoWithoutWritingAnything() {
        var heartbeat = lifecycle()
        walk(Self.upToPackaging, &heartbeat)
        #expect(handle(.interrupt(.leaseLost), &heartbeat) == [.stopWork])
        #expect(handle(.failed(IngestTrouble(CancellationError())), &heartbeat) == [.letGo])
        #expect(heartbeat.step == .ended(.letGo))

        var save = lifecycle()
        walk(Self.upToPackaging, &save)
        #expect(handle(.failed(IngestTrouble(IngestWorker.LeaseLost())), &save) == [.letGo])

        var finish = lifecycle()
        walk(Self.upToPackaging + [.packaged, .published], &finish)
        #expect(handle(.leaseConfirmed(false), &finish) == [.letGo], "the last word on the asset is the holder's")
    }

    @Test func aLostLeaseWinsOverAHandBack() {
        var job = lifecycle()
        walk(Self.upToPackaging, &job)
        handle(.interrupt(.handBack), &job)
        handle(.interrupt(.leaseLost), &job)
        #expect(handle(.failed(IngestTrouble(CancellationError())), &job) == [.letGo])
    }

    @Test func aStalledJobFailsWithTheWatchdogsWordsAndIsNotRetried() {
        var job = lifecycle(attempts: 1)
        walk(Self.upToPackaging, &job)
        #expect(handle(.interrupt(.stalled(limit: .seconds(600))), &job) == [.stopWork])
        // Whatever the cancelled work threw, even a crash or a passing fault: it was stopped.
        let crash = IngestTrouble(MediaWorkCrashed(request: .probe(source: "/m/x.mp4"), signal: SIGKILL, detail: ""))
        #expect(settled(handle(.failed(crash), &job)) == [.recordFailure(.packagerCrashed, message: "Stopped: no progress for 600 s")])
    }

    @Test func aJobWhoseAssetIsDeletedFailsAsCancelled() {
        var job = lifecycle()
        walk(Self.upToPackaging, &job)
        handle(.interrupt(.cancelled), &job)
        #expect(settled(handle(.failed(IngestTrouble(CancellationError())), &job)) == [.recordFailure(.unknown, message: "Cancelled")])
    }

    @Test func aCancelledStepWithoutAStopReasonSaysCancelled() {
        var job = lifecycle()
        walk(Self.upToPackaging, &job)
        #expect(settled(handle(.failed(IngestTrouble(CancellationError())), &job)) == [.recordFailure(.unknown, message: "Cancelled")])
    }

    @Test func anInterruptionBeforeTheJobBeginsIsRemembered() {
        var job = lifecycle()
        #expect(handle(.interrupt(.handBack), &job) == [.stopWork])
        handle(.begin, &job)
        #expect(
            handle(.failed(IngestTrouble(CancellationError())), &job) == [
                .requeue(after: .zero, message: "Waiting for a worker", attempts: 0)
            ])
    }

    // MARK: Phases

    @Test func phasesNameTheJobsMessage() {
        #expect(PackagingPhase.packagingVideo.jobMessage == "Packaging")
        #expect(PackagingPhase.packagingAudio.jobMessage == "Packaging")
        #expect(PackagingPhase.savingCoverArt.jobMessage == "Packaging")
        #expect(PackagingPhase.makingPoster.jobMessage == "Making thumbnails")
        #expect(PackagingPhase.makingThumbnails.jobMessage == "Making thumbnails")
    }

    @Test func theAssetTakesWhatTheProbeReadButKeepsWhatATagLeavesOut() {
        var asset = Asset(title: "film", subtitle: "Kept", summary: "Kept too")
        var probe = MediaProbe(duration: 12, width: 1280, height: 720, title: "", audioTracks: [], subtitleTracks: [])
        probe.releaseDate = "2024"
        asset.adopt(probe)
        #expect(asset.title == "film" && asset.subtitle == "Kept" && asset.summary == "Kept too")
        #expect(asset.duration == 12 && asset.width == 1280 && asset.height == 720 && asset.releaseDate == "2024")
        asset.adopt(PackagedBundle(multivariantPlaylist: "master.m3u8", poster: nil, trickPlay: nil, duration: 12.3), probed: probe)
        #expect(asset.duration == 12, "within half a second the probe stands")
        asset.adopt(PackagedBundle(multivariantPlaylist: "master.m3u8", poster: nil, trickPlay: nil, duration: 7), probed: probe)
        #expect(asset.duration == 7, "what plays is the truth")
    }
}
