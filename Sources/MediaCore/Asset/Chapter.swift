/// A named chapter of an asset.
public struct Chapter: Sendable, Hashable {
    public var title: String?
    public var timeRange: MediaTimeRange

    public init(title: String?, timeRange: MediaTimeRange) {
        self.title = title
        self.timeRange = timeRange
    }
}
