import Foundation

/// What ingest learns about a file, written into its asset. No I/O.
extension Asset {
    /// Takes what a probe read from the file's container: its duration and picture size, and
    /// the tags it has (an empty or absent tag keeps what the asset says).
    mutating func adopt(_ probe: MediaProbe) {
        duration = probe.duration
        width = probe.width
        height = probe.height
        if let title = probe.title, !title.isEmpty { self.title = title }
        subtitle = probe.subtitle ?? subtitle
        summary = probe.summary ?? summary
        if let episode = probe.episode { self.episode = episode }
        releaseDate = probe.releaseDate ?? releaseDate
        liveStartDate = probe.liveStartDate ?? liveStartDate
        liveEndDate = probe.liveEndDate ?? liveEndDate
    }

    /// Takes how long the packaged media plays when it differs from what the probe read:
    /// what plays is the truth (a truncated file's header may promise more).
    mutating func adopt(_ packaged: PackagedBundle, probed probe: MediaProbe) {
        if let played = packaged.duration, played > 0, abs(played - probe.duration) > 0.5 { duration = played }
    }

    /// Takes what an imported HLS bundle folder says: duration, picture size, and the title
    /// its download recorded.
    mutating func adopt(_ imported: BundleImporter.Imported) {
        duration = imported.duration
        width = imported.width
        height = imported.height
        if let title = imported.title { self.title = title }
    }
}
