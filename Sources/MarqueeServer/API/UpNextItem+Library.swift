import Library
import Playback

extension UpNextItem {
    /// The next episode of `assetID`'s series as the Up Next card shows it, or nil when there
    /// is none (or the library cannot say: the card is a convenience, never an error).
    static func following(_ assetID: String, in library: MediaLibrary) async -> UpNextItem? {
        guard let next = try? await library.nextEpisode(after: assetID),
            let resource = try? await AssetResource.make([next], library: library, viewer: nil).first
        else { return nil }
        return UpNextItem(
            assetID: resource.id, title: resource.series?.label ?? resource.title, seriesTitle: resource.series?.title,
            artworkURL: resource.artworkURL, playerURL: resource.playerURL, isReady: resource.status == Asset.Status.ready.rawValue)
    }
}
