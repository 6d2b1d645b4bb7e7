public import Foundation

/// The TV's screens: its browser pages (the player, `/devices`) that listen on
/// `/api/devices/screen` for "Play on…". A paired remote's `playItem` becomes a `PlayRequest`
/// sent to every open screen, which opens the player at that item, time and speed; the
/// session the player creates is then the one on screen that remotes control.
public actor NearbyScreens {
    /// What a screen is asked to play.
    public struct PlayRequest: Codable, Sendable, Hashable {
        public var assetID: String
        /// Where to start, in seconds (0 from the beginning).
        public var time: Double
        /// The speed to play at (1 is normal).
        public var rate: Double
        /// The paired device that asked.
        public var from: String?
        /// The item's title and duration in the sender's library, sent by another TV handing
        /// an item over: this TV plays its own copy (same id, or same title and duration).
        public var title: String?
        public var duration: Double?
        /// An invitation to watch together: the screen opens `/together/{token}` and joins the
        /// group (at the group's time) instead of opening the item on its own.
        public var together: String?
        /// The name the screen joins the group with (this TV's name).
        public var name: String?

        public init(
            assetID: String, time: Double, rate: Double, from: String? = nil, title: String? = nil, duration: Double? = nil,
            together: String? = nil, name: String? = nil
        ) {
            self.assetID = assetID
            self.time = time
            self.rate = rate
            self.from = from
            self.title = title
            self.duration = duration
            self.together = together
            self.name = name
        }

        /// Why a request cannot be shown, or nil: an id the library could have, a finite time, a sane rate.
        public var problem: String? {
            if assetID.isEmpty || assetID.count > 200 || assetID.contains("/") || assetID.contains("?") || assetID.contains("#") {
                return "playItem needs the id of an item in this TV's library"
            }
            if !time.isFinite || time < 0 { return "playItem's time must be a number of seconds from 0" }
            if !rate.isFinite || rate <= 0 || rate > 16 { return "playItem's rate must be between 0 and 16" }
            return nil
        }
    }

    private var screens: [UUID: AsyncStream<PlayRequest>.Continuation] = [:]

    public init() {}

    /// A new screen's requests; it stops receiving when the stream's consumer goes away.
    public func open() -> (UUID, AsyncStream<PlayRequest>) {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: PlayRequest.self, bufferingPolicy: .bufferingNewest(4))
        screens[id] = continuation
        continuation.onTermination = { _ in Task { await self.close(id) } }
        return (id, stream)
    }

    public func close(_ id: UUID) {
        screens.removeValue(forKey: id)?.finish()
    }

    /// How many screens are listening now.
    public var count: Int { screens.count }

    /// Sends the request to every open screen; returns how many got it.
    @discardableResult
    public func show(_ request: PlayRequest) -> Int {
        for continuation in screens.values { continuation.yield(request) }
        return screens.count
    }
}
