/// A property of an `MediaAsset` that loads asynchronously, typed by its value, like
/// `AVAsyncProperty`. Pass several to `MediaAsset.load(_:)` to get a typed tuple back.
public struct AssetProperty<Value: Sendable>: Sendable, Hashable, CustomStringConvertible {
    public let name: String
    let extract: @Sendable (AssetInspection) -> Value

    init(_ name: String, _ extract: @escaping @Sendable (AssetInspection) -> Value) {
        self.name = name
        self.extract = extract
    }

    public static func == (a: Self, b: Self) -> Bool { a.name == b.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
    public var description: String { name }
}

extension AssetProperty where Value == MediaTime {
    /// The asset's duration; `.indefinite` for live streams.
    public static var duration: AssetProperty<MediaTime> { .init("duration") { $0.duration } }
}

extension AssetProperty where Value == [AssetTrack] {
    /// Every track, in container order.
    public static var tracks: AssetProperty<[AssetTrack]> { .init("tracks") { $0.tracks } }
}

extension AssetProperty where Value == [MetadataItem] {
    /// Container-level metadata, including artwork.
    public static var metadata: AssetProperty<[MetadataItem]> { .init("metadata") { $0.metadata } }
}

extension AssetProperty where Value == [Chapter] {
    /// Chapters, in order.
    public static var chapters: AssetProperty<[Chapter]> { .init("chapters") { $0.chapters } }
}

extension AssetProperty where Value == String {
    /// libavformat's name for the container format, such as `mov,mp4,m4a,3gp,3g2,mj2`.
    public static var formatName: AssetProperty<String> { .init("formatName") { $0.formatName } }
}

extension AssetProperty where Value == Int? {
    /// Overall bit rate in bits per second, when known.
    public static var bitRate: AssetProperty<Int?> { .init("bitRate") { $0.bitRate } }
}

/// Where a property's loading stands, like `AVAsyncProperty.Status`.
public enum AssetPropertyStatus<Value: Sendable>: Sendable {
    case notYetLoaded
    case loading
    case loaded(Value)
    case failed(any Error)
}
