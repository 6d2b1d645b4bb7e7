public import Foundation

/// The fixed part of a Live Activity's data, with the type of its changing part, as in
/// ActivityKit: `attributesType` names the type on the wire (`attributes-type` in a
/// push-to-start payload), `ContentState` is what updates carry.
public protocol ActivityAttributes: Codable, Sendable, Hashable {
    associatedtype ContentState: Codable, Sendable, Hashable
    static var attributesType: String { get }
}

/// One version of an activity's content: the state, when it goes stale, and how relevant it
/// is next to the app's other activities (higher comes first; not limited to 0…1).
public struct ActivityContent<State: Codable & Sendable & Hashable>: Codable, Sendable, Hashable {
    public var state: State
    public var staleDate: Date?
    public var relevanceScore: Double

    public init(state: State, staleDate: Date? = nil, relevanceScore: Double = 0) {
        self.state = state
        self.staleDate = staleDate
        self.relevanceScore = relevanceScore
    }
}

/// The alert an update may carry: shown as a banner (and the expanded island on an iPhone).
public struct AlertConfiguration: Codable, Sendable, Hashable {
    public var title: String
    public var body: String
    /// A sound file name, or `default`; nil is silent.
    public var sound: String?

    public init(title: String, body: String, sound: String? = nil) {
        self.title = title
        self.body = body
        self.sound = sound
    }
}
