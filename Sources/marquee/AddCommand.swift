import ArgumentParser
import Foundation
import HLS
import JSONDocument
import Library

/// `marquee add`: add files, folders and HLS bundles to the library and package them.
struct AddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add media files, folders or HLS bundles to the library.",
        discussion: "Packages them now unless --queue-only, in which case a running `marquee serve` picks them up."
    )

    @Option(help: "Data directory (default: $XDG_DATA_HOME/marquee or ~/.local/share/marquee).")
    var data: String?

    @Flag(help: "Only queue the ingest jobs.")
    var queueOnly = false

    @Argument(help: "Files, folders or HLS bundle folders (a relative path is read from the current directory).")
    var paths: [String]

    @OptionGroup var storage: StorageOptions

    @Flag(help: "Print JSON lines (the default when standard output is not a terminal).")
    var json = false

    func run() async throws {
        let console = Console(command: "add", json: json)
        try await console.run {
            let (location, store, configuration) = try await storage.open(
                dataDirectory: data.map { URL(fileURLWithPath: $0) } ?? LibraryLocation.defaultDataDirectory())
            let library = try MediaLibrary(
                location: location, packager: IsolatedBundlePackager(executable: IsolatedBundlePackager.currentExecutable()), store: store,
                media: try await storage.mediaStore(for: configuration, location: location))
            // The library takes absolute paths only (a server has no current directory worth
            // reading against); a path typed here means one in the current directory.
            let added = try await library.add(paths: paths.map { Self.absolute($0) })
            for asset in added {
                console.emit(
                    "queued", [("id", .string(asset.id)), ("title", .string(asset.title))],
                    text: "queued \(asset.id)  \(asset.title)")
            }
            guard !queueOnly else { return }
            await library.worker.drain()
            var failed = 0
            for asset in added {
                let job = try await library.jobs(assetID: asset.id).first
                let now = try await library.asset(id: asset.id)
                if job?.state == .succeeded {
                    let badges = now?.badges ?? []
                    console.emit(
                        "ready", [("id", .string(asset.id)), ("title", .string(now?.title ?? asset.title)), ("badges", .strings(badges))],
                        text: "ready  \(asset.id)  \(now?.title ?? asset.title)  \(badges.joined(separator: " "))")
                } else {
                    failed += 1
                    let reason = job?.message ?? "unknown reason"
                    console.emit(
                        "failed", [("id", .string(asset.id)), ("title", .string(asset.title)), ("message", .string(reason))],
                        text: "failed \(asset.id)  \(asset.title): \(reason)")
                }
            }
            if failed > 0 { throw CommandFailure(.failed, "\(failed) of \(added.count) items could not be packaged") }
        }
    }

    /// `path` as an absolute path: as it is when it starts with `/` (or is empty, which the
    /// library refuses with its own sentence), else resolved against the current directory.
    static func absolute(_ path: String, currentDirectory: String = FileManager.default.currentDirectoryPath) -> String {
        guard !path.isEmpty, !path.hasPrefix("/") else { return path }
        return URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: currentDirectory, isDirectory: true)).standardizedFileURL.path
    }
}
