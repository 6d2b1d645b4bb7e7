import ArgumentParser
import Logging
import ServerLogging

/// The `marquee` command line: one subcommand per capability.
@main
struct Marquee: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "marquee",
        abstract: "An open media platform: inspect, download, package and serve HLS.",
        subcommands: [
            InspectCommand.self,
            DownloadCommand.self,
            ProbeCommand.self, ThumbnailsCommand.self, ComposeCommand.self, PackageCommand.self,
            ServeCommand.self, AddCommand.self, UsersCommand.self, RemoteCommand.self,
            PushCommand.self, TextCommand.self,
            WorkerCommand.self, MigrateCommand.self, MediaWorkCommand.self,
        ]
    )

    /// Every logger of the process writes timestamped lines to standard error (`LogSettings`:
    /// text at `warning` unless `serve` or `worker` say otherwise), then the command runs.
    static func main() async {
        LoggingSystem.bootstrap(LogSettings.makeHandler)
        do {
            var command = try parseAsRoot()
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch {
            LogOutput.standardError.flush()
            exit(withError: error)
        }
        LogOutput.standardError.flush()
    }
}
