public import Foundation

/// The item offered after this one ends (the next episode of a series), as the system
/// player's "Up Next" card shows it.
public struct UpNextItem: Sendable, Hashable, Codable {
    public var assetID: String
    /// What the card says first: the episode's label ("S1 · E2 · Title") or its title.
    public var title: String
    /// The series' title, when the item belongs to one.
    public var seriesTitle: String?
    public var artworkURL: String?
    /// The player page that plays the item.
    public var playerURL: String
    /// Whether the item can play now; one still being prepared is offered without a countdown.
    public var isReady: Bool

    public init(assetID: String, title: String, seriesTitle: String? = nil, artworkURL: String? = nil, playerURL: String, isReady: Bool) {
        self.assetID = assetID
        self.title = title
        self.seriesTitle = seriesTitle
        self.artworkURL = artworkURL
        self.playerURL = playerURL
        self.isReady = isReady
    }
}

/// Where the Up Next offer of a session is: one value the session owns, so the player page,
/// remotes and the Now Playing Live Activity all show (and act on) the same offer.
///
/// `offered` counts down to `deadline` when the item is ready; when the deadline passes (the
/// server's timer, on its clock) or a viewer asks, the offer becomes `chosen` and every
/// renderer moves on to the item. A viewer may dismiss it; playing the item again (a seek or
/// play after the end) takes the offer back.
public enum UpNext: Sendable, Hashable {
    /// Nothing offered: the item has not ended, or nothing comes next.
    case none
    /// Offered at the end of the item; `deadline` is when it plays by itself (nil: not ready,
    /// so no countdown).
    case offered(UpNextItem, deadline: Date?)
    /// The viewer said no; the card is gone until the item ends again.
    case dismissed(UpNextItem)
    /// Play it: renderers go to `playerURL`.
    case chosen(UpNextItem)

    /// The seconds a ready item's card counts down before it plays.
    public static let countdown: TimeInterval = 8

    /// The item, in every case but `none`.
    public var item: UpNextItem? {
        switch self {
        case .none: nil
        case .offered(let item, _), .dismissed(let item), .chosen(let item): item
        }
    }

    /// The offer made when the item ends at `now`: a countdown for a ready item, none otherwise.
    public static func offer(_ item: UpNextItem, at now: Date) -> UpNext {
        .offered(item, deadline: item.isReady ? now.addingTimeInterval(countdown) : nil)
    }

    /// The state after a viewer's choice. Only an offered, ready item can be chosen; only an
    /// offer can be dismissed.
    public func handling(_ choice: UpNextChoice) -> Result<UpNext, PlaybackRefusal> {
        switch (self, choice) {
        case (.offered(let item, _), .play):
            item.isReady ? .success(.chosen(item)) : .failure(.notReady)
        case (.offered(let item, _), .dismiss):
            .success(.dismissed(item))
        case (.chosen, .play), (.dismissed, .dismiss):
            .success(self)
        default:
            .failure(.noUpNext)
        }
    }

    /// The state at `now`: a countdown whose deadline has passed has chosen its item.
    public func advanced(to now: Date) -> UpNext {
        if case .offered(let item, let deadline?) = self, deadline <= now { return .chosen(item) }
        return self
    }
}

/// What a viewer does with the Up Next card.
public enum UpNextChoice: String, Sendable, Hashable, CaseIterable {
    /// Play the offered item now ("Play next episode").
    case play
    /// Keep it from playing ("Cancel").
    case dismiss
}

extension PlaybackSession {
    /// Offers `item` (what follows this one) now that the item has ended: only at the end,
    /// outside a break, and only once per end. Returns whether the offer changed.
    public mutating func offerUpNext(_ item: UpNextItem?, at now: Date) -> Bool {
        guard let item, status == .ended, activeInterstitial == nil, upNext == .none else { return false }
        upNext = .offer(item, at: now)
        return true
    }

    /// Moves the countdown to `now`; returns whether the offer changed (its deadline passed
    /// and the item was chosen).
    public mutating func advanceUpNext(to now: Date) -> Bool {
        let next = upNext.advanced(to: now)
        guard next != upNext else { return false }
        upNext = next
        return true
    }
}
