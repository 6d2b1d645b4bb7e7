import Foundation

/// How many frames a renderer socket may send: a burst, then a steady rate.
///
/// A player page sends a few frames a second (time reports about four times a second, an
/// intent per gesture, a few more while a key repeats). Each frame is decoded and applied to
/// the session, so a client sending thousands a second would keep the session and its event
/// loop busy for everyone else; past its budget a socket is closed with 1008 (policy
/// violation) and a reason that says so. The budget is per socket; a page that reconnects
/// starts a new one, and an honest page never comes near it.
public struct RendererFrameBudget: Sendable {
    /// Frames a socket may send at once.
    public var burst: Double
    /// Frames per second a socket gets back.
    public var perSecond: Double

    public init(burst: Double = 200, perSecond: Double = 100) {
        self.burst = max(1, burst)
        self.perSecond = max(0, perSecond)
    }

    /// The close reason sent to a socket that went over its budget.
    var closeReason: String {
        "Too many frames: a renderer may send \(Int(perSecond)) a second (\(Int(burst)) at once)"
    }

    /// One socket's bucket of frames.
    struct Bucket: Sendable {
        let budget: RendererFrameBudget
        private var tokens: Double
        private var updated: ContinuousClock.Instant

        init(_ budget: RendererFrameBudget, now: ContinuousClock.Instant = .now) {
            self.budget = budget
            tokens = budget.burst
            updated = now
        }

        /// Takes a frame's token; false when the socket is over its budget.
        mutating func take(now: ContinuousClock.Instant = .now) -> Bool {
            let elapsed = now - updated
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            tokens = min(budget.burst, tokens + max(0, seconds) * budget.perSecond)
            updated = now
            guard tokens >= 1 else { return false }
            tokens -= 1
            return true
        }
    }
}
