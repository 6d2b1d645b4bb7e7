import Foundation

/// An activity with the state it is in now, as the API and the pages see it.
public struct ActivitySnapshot: Codable, Sendable, Hashable {
    public var activity: Activity
    public var state: ActivityState

    public init(activity: Activity, state: ActivityState) {
        self.activity = activity
        self.state = state
    }

    enum Keys: String, CodingKey { case state }

    public init(from decoder: any Decoder) throws {
        activity = try Activity(from: decoder)
        state = try decoder.container(keyedBy: Keys.self).decode(ActivityState.self, forKey: .state)
    }

    public func encode(to encoder: any Encoder) throws {
        try activity.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(state, forKey: .state)
    }
}

/// What happened to an activity, for pages and for the push relay.
public enum ActivityEvent: Sendable, Hashable {
    /// Requested (or, when scheduled, became active).
    case started(ActivitySnapshot)
    /// New content (and the alert it carried, in the snapshot, when `alerted`).
    case updated(ActivitySnapshot, alerted: Bool)
    /// Stale, or no longer stale, or any other change of state time made.
    case stateChanged(ActivitySnapshot)
    case ended(ActivitySnapshot)
    /// Gone from every presentation (its dismissal date passed, or it was deleted).
    case dismissed(id: String)

    public var name: String {
        switch self {
        case .started: "started"
        case .updated: "updated"
        case .stateChanged: "state"
        case .ended: "ended"
        case .dismissed: "dismissed"
        }
    }

    public var snapshot: ActivitySnapshot? {
        switch self {
        case .started(let s), .updated(let s, _), .stateChanged(let s), .ended(let s): s
        case .dismissed: nil
        }
    }
}
