import Foundation

/// Where an activity is in its life, as ActivityKit's `ActivityState`: `pending` until a
/// scheduled start, `active`, `stale` once its stale date has passed, `ended` (still shown
/// until its dismissal date) and `dismissed` (gone from every presentation).
public enum ActivityState: String, Codable, Sendable, Hashable, CaseIterable {
    case pending, active, stale, ended, dismissed

    /// Whether updates are still taken.
    public var acceptsUpdates: Bool { self == .pending || self == .active || self == .stale }
    /// Whether it is shown anywhere.
    public var isVisible: Bool { self != .dismissed }
}
