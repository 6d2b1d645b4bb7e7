import BlockingWork
import Foundation

/// What a worker notes beside a staged bundle once packaging finished: which source it was
/// packaged from (its path, size and, for a local file, modification time) and what the
/// packager reported. When publishing to a remote store fails (the bucket did not answer), the
/// job's next attempt on this machine finds the note, checks the source is unchanged, and
/// publishes the staged bundle instead of packaging the whole file again.
struct PackagedStaging: Sendable {
    /// The staging folder of the asset's bundle; the note is a file beside it.
    let bundle: URL

    var note: URL { bundle.deletingLastPathComponent().appendingPathComponent(bundle.lastPathComponent + ".packaged.json") }

    struct Note: Codable, Sendable {
        var source: String
        var packaged: PackagedBundle
    }

    /// The source as the note names it: its recorded path and size, and for a local file its
    /// modification time (a stored upload's fetched copy is new each attempt; the upload is not).
    static func fingerprint(_ source: URL, sourcePath: String, stored: Bool) throws -> String {
        let attributes = try FileManager.default.attributesOfItem(atPath: source.path)
        let size = (attributes[.size] as? NSNumber)?.int64Value ?? -1
        let modified = stored ? 0 : ((attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)
        return "\(sourcePath)|\(size)|\(modified)"
    }

    /// Notes that the staged bundle is whole and was packaged from `source`.
    func remember(_ packaged: PackagedBundle, from source: URL, sourcePath: String, stored: Bool) async {
        let note = note
        _ = try? await BlockingWork.run {
            let data = try JSONEncoder().encode(Note(source: try Self.fingerprint(source, sourcePath: sourcePath, stored: stored), packaged: packaged))
            try data.write(to: note, options: .atomic)
        }
    }

    /// The packager's report of the staged bundle when it is whole (its multivariant playlist is
    /// there) and was packaged from this same, unchanged source; `nil` otherwise.
    func bundle(packagedFrom source: URL, sourcePath: String, stored: Bool) async -> PackagedBundle? {
        let (note, bundle) = (note, bundle)
        return try? await BlockingWork.run { () -> PackagedBundle? in
            let data = try Data(contentsOf: note)
            let recorded = try JSONDecoder().decode(Note.self, from: data)
            guard recorded.source == (try Self.fingerprint(source, sourcePath: sourcePath, stored: stored)),
                FileManager.default.fileExists(atPath: bundle.appendingPathComponent(recorded.packaged.multivariantPlaylist).path)
            else { return nil }
            return recorded.packaged
        }
    }

    /// Removes the note (the staged bundle is being replaced or was published).
    func forget() async {
        let note = note
        _ = try? await BlockingWork.run { try FileManager.default.removeItem(at: note) }
    }
}
