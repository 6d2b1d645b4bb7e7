public import APNs
public import Clocks
import Foundation
public import Library
public import LiveActivities

/// The server's Live Activities: the center (stored in the library's SQLite file), the push
/// relay when APNs is configured, and the built-in activities that follow downloads,
/// playback sessions, ingest jobs and premieres.
public final class LiveActivityHost: Sendable {
    public let center: ActivityCenter
    /// Nil when APNs is not configured: pushes are off, and the API says so.
    public let relay: ActivityPushRelay?
    public let client: APNsClient?
    /// Why pushes are off, when they are.
    public let pushesOffReason: String?
    let premieres: PremiereActivities
    private let tasks: [Task<Void, Never>]

    /// Opens the activity tables in the library's database and starts the built-in drivers
    /// for whichever systems are given.
    public static func start(
        library: MediaLibrary, downloads: DownloadService?, sessions: PlaybackSessions?,
        apns: APNsConfiguration?, pushesOffReason: String? = nil,
        clock: any WallClock = SystemClock(), store given: (any ActivityStore)? = nil
    ) async throws -> LiveActivityHost {
        let store = try given ?? SQLiteActivityStore(url: library.location.databaseURL)
        let center = try await ActivityCenter(store: store, clock: clock)
        var client: APNsClient?
        var relay: ActivityPushRelay?
        if let apns {
            let made = try APNsClient(configuration: apns)
            client = made
            relay = ActivityPushRelay(center: center, client: made)
            await relay?.start()
        }
        var tasks: [Task<Void, Never>] = [Task { await center.run(every: .milliseconds(500)) }]
        if let downloads { tasks.append(DownloadActivities(center: center, downloads: downloads).start()) }
        if let sessions { tasks.append(await NowPlayingActivities(center: center, sessions: sessions, library: library).start()) }
        tasks.append(IngestActivities(center: center, library: library).start())
        let premieres = PremiereActivities(center: center, library: library)
        tasks.append(premieres.start())
        return LiveActivityHost(
            center: center, relay: relay, client: client,
            pushesOffReason: apns == nil ? (pushesOffReason ?? LiveActivityHost.notConfigured) : nil,
            premieres: premieres, tasks: tasks)
    }

    static let notConfigured =
        "APNs is not configured: set MARQUEE_APNS_KEY_FILE, MARQUEE_APNS_KEY_ID, MARQUEE_APNS_TEAM_ID and MARQUEE_APNS_BUNDLE_ID (or pass --apns-config FILE) to push Live Activities to iPhones"

    private init(
        center: ActivityCenter, relay: ActivityPushRelay?, client: APNsClient?, pushesOffReason: String?,
        premieres: PremiereActivities, tasks: [Task<Void, Never>]
    ) {
        self.center = center
        self.relay = relay
        self.client = client
        self.pushesOffReason = pushesOffReason
        self.premieres = premieres
        self.tasks = tasks
    }

    public func stop() async {
        for task in tasks { task.cancel() }
        await relay?.stop()
        try? await client?.shutdown()
    }
}
