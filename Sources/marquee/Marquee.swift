import ArgumentParser

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
}
