public import Foundation

/// The fixed part of a Live Activity's data, with the type of its changing part, as in
/// ActivityKit: `attributesType` names the type on the wire (`attributes-type` in a
/// push-to-start payload), `ContentState` is what updates carry.
public protocol ActivityAttributes: Codable, Sendable, Hashable {
    /// The part of the activity's data that updates change.
    associatedtype ContentState: Codable, Sendable, Hashable
    /// The type's name on the wire and in the store (`Downloading`).
    static var attributesType: String { get }
}

/// One version of an activity's content: the state, when it goes stale, and how relevant it
/// is next to the app's other activities (higher comes first; not limited to 0…1).
public struct ActivityContent<State: Codable & Sendable & Hashable>: Codable, Sendable, Hashable {
    /// The activity's state.
    public var state: State
    /// When the state is out of date if no update comes; nil never.
    public var staleDate: Date?
    /// How the activity ranks among the app's others; higher comes first.
    public var relevanceScore: Double

    /// Content with `state`, never stale unless `staleDate` is given, at relevance 0 unless given.
    public init(state: State, staleDate: Date? = nil, relevanceScore: Double = 0) {
        self.state = state
        self.staleDate = staleDate
        self.relevanceScore = relevanceScore
    }
}

/// The alert an update may carry: shown as a banner (and the expanded island on an iPhone).
public struct AlertConfiguration: Codable, Sendable, Hashable {
    /// The banner's title.
    public var title: String
    /// The banner's text.
    public var body: String
    /// A sound file name, or `default`; nil is silent.
    public var sound: String?

    /// An alert with `title` and `body`, silent unless `sound` is given.
    public init(title: String, body: String, sound: String? = nil) {
        self.title = title
        self.body = body
        self.sound = sound
    }
}
