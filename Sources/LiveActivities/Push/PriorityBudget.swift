public import Foundation

/// How many pushes at priority 10 each activity may still have this hour. Apple throttles
/// high-priority Live Activity pushes; past the budget a push goes at priority 5, which the
/// device takes when it suits its power state.
public struct PriorityBudget: Sendable {
    public let perHour: Int
    private var sent: [String: [Date]] = [:]

    public init(perHour: Int) { self.perHour = max(0, perHour) }

    /// The priority to use for a push to `activityID` that would like `wanted`; a 10 that is
    /// granted is counted.
    public mutating func priority(for activityID: String, wanted: Int, now: Date) -> Int {
        guard wanted == 10 else { return 5 }
        let cutoff = now.addingTimeInterval(-3600)
        var recent = (sent[activityID] ?? []).filter { $0 > cutoff }
        defer { sent[activityID] = recent }
        guard recent.count < perHour else { return 5 }
        recent.append(now)
        return 10
    }

    public mutating func forget(_ activityID: String) { sent[activityID] = nil }
}
