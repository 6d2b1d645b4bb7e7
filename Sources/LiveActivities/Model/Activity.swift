public import Foundation
public import JSONDocument

/// One Live Activity as Marquee keeps it: its type and fixed attributes, its latest content,
/// where it is in its life, and the alert its latest update carried. Attributes and state
/// are JSON so custom types from the API and the built-in ones are kept alike; the typed
/// view is `attributes(as:)` / `state(as:)`.
public struct Activity: Codable, Sendable, Hashable, Identifiable {
    /// Where the lifecycle stands, without the time-derived states (`stale`, `dismissed`,
    /// the scheduled start), which `state(at:)` works out.
    public enum Phase: String, Codable, Sendable, Hashable {
        case pending, active, ended
    }

    /// The activity's identifier (a lower-case UUID unless the caller gave one).
    public var id: String
    /// `attributes-type`: `Downloading`, `NowPlaying`, `Ingest`, `Premiere`, or a custom name.
    public var type: String
    /// The attributes fixed when it was requested, as JSON.
    public var attributes: JSONValue
    /// The latest content: state, stale date and relevance.
    public var content: ActivityContent<JSONValue>
    /// Pending, active or ended.
    public var phase: Phase
    /// When it was requested.
    public var createdAt: Date
    /// When it starts being active: the request's time, or a later scheduled start.
    public var startDate: Date
    /// The timestamp of the last update applied (older ones are dropped).
    public var timestamp: Date
    /// When it ended; nil while it has not.
    public var endedAt: Date?
    /// When an ended activity leaves the screen, as its dismissal policy set it at the end.
    public var dismissalDate: Date?
    /// The alert of the latest update that had one, and when it came.
    public var alert: AlertConfiguration?
    /// When `alert` came.
    public var alertDate: Date?
    /// Ended by the system (the 8-hour limit) rather than by its owner.
    public var endedBySystem: Bool

    public init(
        id: String = UUID().uuidString.lowercased(), type: String, attributes: JSONValue, content: ActivityContent<JSONValue>,
        phase: Phase = .active, createdAt: Date, startDate: Date? = nil, timestamp: Date? = nil
    ) {
        self.id = id
        self.type = type
        self.attributes = attributes
        self.content = content
        self.phase = phase
        self.createdAt = createdAt
        self.startDate = startDate ?? createdAt
        self.timestamp = timestamp ?? createdAt
        self.endedBySystem = false
    }

    /// The state a viewer sees at `now`.
    public func state(at now: Date) -> ActivityState {
        switch phase {
        case .pending:
            return now < startDate ? .pending : (isStale(at: now) ? .stale : .active)
        case .active:
            return isStale(at: now) ? .stale : .active
        case .ended:
            if let dismissalDate, now >= dismissalDate { return .dismissed }
            return .ended
        }
    }

    func isStale(at now: Date) -> Bool {
        guard let staleDate = content.staleDate else { return false }
        return now >= staleDate
    }

    /// The attributes decoded as `type`; throws a decoding error when they do not fit it.
    public func attributes<A: ActivityAttributes>(as type: A.Type) throws -> A { try attributes.decode() }
    /// The latest state decoded as `type`'s content state; throws a decoding error when it does not fit.
    public func state<A: ActivityAttributes>(as type: A.Type) throws -> A.ContentState { try content.state.decode() }
}

extension Array where Element == Activity {
    /// What is live first (active, then pending, then stale, then ended), then the most
    /// relevant; ties go to the one started first (it keeps its place rather than jumping as
    /// others arrive). Without `now` only relevance and start order count.
    public func orderedByRelevance(at now: Date? = nil) -> [Activity] {
        func liveness(_ activity: Activity) -> Int {
            guard let now else { return 0 }
            switch activity.state(at: now) {
            case .active: return 0
            case .pending: return 1
            case .stale: return 2
            case .ended: return 3
            case .dismissed: return 4
            }
        }
        return sorted { a, b in
            let (la, lb) = (liveness(a), liveness(b))
            if la != lb { return la < lb }
            if a.content.relevanceScore != b.content.relevanceScore { return a.content.relevanceScore > b.content.relevanceScore }
            if a.startDate != b.startDate { return a.startDate < b.startDate }
            return a.id < b.id
        }
    }
}
