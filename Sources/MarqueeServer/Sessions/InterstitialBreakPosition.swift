/// Where the playing event sits in its break, for "Ad 1 of 2".
public struct InterstitialBreakPosition: Codable, Sendable, Hashable {
    public var position: Int
    public var count: Int
    /// Where the primary resumes after the break (the page moves its paused element there ahead).
    public var resumeAt: Double?
    /// The asset of the playing event's asset list that plays now, if the event plays a resolved list.
    public var asset: InterstitialAssetPayload?
    /// What plays after the current ad in this break (the page loads it ahead); nil when the primary resumes next.
    public var next: InterstitialNextPayload?
}
