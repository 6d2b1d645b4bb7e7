public import Library

/// Assets the player can play before the library has them: downloads under way, played from
/// the part already on disk. `PlaybackManifestStore` asks it for ids the library does not know.
public protocol ProvisionalAssetSource: Sendable {
    /// The asset as the player should show it, when `id` is one it can play now.
    func provisionalAsset(id: String) async -> Asset?
    /// Its playback manifest; nil when `id` is not one of its assets.
    func provisionalManifest(id: String) async throws -> PlaybackManifest?
}
