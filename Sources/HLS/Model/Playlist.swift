/// A parsed HLS playlist: either a multivariant playlist or a media playlist.
public enum Playlist: Sendable, Hashable {
    case multivariant(MultivariantPlaylist)
    case media(MediaPlaylist)

    public var multivariant: MultivariantPlaylist? {
        if case .multivariant(let p) = self { return p }
        return nil
    }

    public var media: MediaPlaylist? {
        if case .media(let p) = self { return p }
        return nil
    }
}
