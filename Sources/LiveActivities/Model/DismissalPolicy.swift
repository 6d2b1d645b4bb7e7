public import Foundation

/// When an ended activity leaves the lock screen, as ActivityKit's `ActivityUIDismissalPolicy`:
/// by default it stays up to four hours; `immediate` removes it at once; `after(date)` removes
/// it at the date or after four hours, whichever comes first.
public enum DismissalPolicy: Codable, Sendable, Hashable {
    case `default`
    case immediate
    case after(Date)

    /// The longest an ended activity stays on the lock screen.
    public static let longestStay: TimeInterval = 4 * 3600

    /// When an activity that ended at `end` is dismissed.
    public func dismissalDate(endedAt end: Date) -> Date {
        switch self {
        case .default: end.addingTimeInterval(Self.longestStay)
        case .immediate: end
        case .after(let date): max(end, min(date, end.addingTimeInterval(Self.longestStay)))
        }
    }
}
