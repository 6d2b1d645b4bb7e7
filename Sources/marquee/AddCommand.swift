import ArgumentParser
import Foundation
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

    @Argument(help: "Files, folders or HLS bundle folders.")
    var paths: [String]

    @OptionGroup var storage: StorageOptions

    func run() async throws {
        let (location, store, _) = try await storage.open(dataDirectory: data.map { URL(fileURLWithPath: $0) } ?? LibraryLocation.defaultDataDirectory())
        let library = try MediaLibrary(location: location, store: store)
        let added: [Asset]
        do {
            added = try await library.add(paths: paths)
        } catch let error as LibraryError {
            FileHandle.standardError.write(Data("marquee add: \(error)\n".utf8))
            throw ExitCode(2)
        }
        for asset in added { print("queued \(asset.id)  \(asset.title)") }
        guard !queueOnly else { return }
        await library.worker.drain()
        var failed = false
        for asset in added {
            let job = try await library.jobs(assetID: asset.id).first
            let now = try await library.asset(id: asset.id)
            if job?.state == .succeeded {
                print("ready  \(asset.id)  \(now?.title ?? asset.title)  \(now?.badges.joined(separator: " ") ?? "")")
            } else {
                failed = true
                print("failed \(asset.id)  \(asset.title): \(job?.message ?? "unknown reason")")
            }
        }
        if failed { throw ExitCode(1) }
    }
}
