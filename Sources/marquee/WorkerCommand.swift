import ArgumentParser
import Foundation
import Library
import MarqueeServer
import PostgreSQLStores
import ServerLogging

/// `marquee worker`: an ingest worker without a server, for running packaging on machines of
/// its own next to `marquee serve` nodes that share one PostgreSQL library (and one bucket).
struct WorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Run ingest jobs from a shared library's queue (no web server).",
        discussion: """
            Claims queued jobs under a lease (renewed while a job runs), so several workers on \
            several machines share one queue and a job whose worker dies is taken over by another \
            once its lease expires. Use the same --database and --media as the server nodes. \
            With a PostgreSQL --database it also reads ready assets' frames into the shared Live \
            Text search index, each asset once per cluster (claimed the same way).
            """
    )

    @Option(help: "Data directory for local state (default: $XDG_DATA_HOME/marquee or ~/.local/share/marquee).")
    var data: String?

    @OptionGroup var storage: StorageOptions

    @Option(
        help:
            "Seconds a job (or an asset being read for the Live Text index) stays claimed without a heartbeat; a dead worker's job returns to the queue after this."
    )
    var lease: Double = 30

    @Option(help: "A name for this worker in job rows and logs (default: host:pid:random).")
    var name: String?

    @OptionGroup var logging: LogOptions

    @OptionGroup var metricsListener: WorkerMetricsOptions

    func run() async throws {
        guard lease.isFinite, lease >= 1, lease <= 3600 else { throw ValidationError("--lease must be between 1 and 3600 seconds") }
        logging.apply()
        defer { LogOutput.standardError.flush() }
        let metrics = metricsListener.bootstrap()
        // A database or bucket that cannot be used ends the worker with one line and its
        // documented status (3 when the service does not answer).
        var opened: (MediaLibrary, StorageConfiguration, LiveTextService?)?
        var listening: (Task<Void, any Error>, String)?
        try await Console(command: "worker", json: false).run {
            let (location, store, configuration) = try await storage.open(
                dataDirectory: data.map { URL(fileURLWithPath: $0) } ?? LibraryLocation.defaultDataDirectory())
            let library = try MediaLibrary(
                location: location, packager: IsolatedBundlePackager(executable: IsolatedBundlePackager.currentExecutable()), store: store,
                workerLease: .milliseconds(Int64(lease * 1000)),
                workerID: name ?? IngestWorker.defaultWorkerID(), media: try await storage.mediaStore(for: configuration, location: location))
            // The cluster's frame-text index; the frame cache stays in this worker's data directory.
            let liveText = try (store as? PostgreSQLLibraryStore).map {
                try LiveTextService(
                    library: library, searchIndex: PostgreSQLFrameTextIndex(sharing: $0), indexer: library.worker.workerID,
                    indexingLease: library.worker.lease)
            }
            if let metrics { listening = try await metricsListener.listen(metrics) }
            opened = (library, configuration, liveText)
        }
        guard let (library, configuration, liveText) = opened else { return }
        await library.worker.start()
        await liveText?.startIndexing()
        let line = "Marquee worker \(library.worker.workerID) is taking jobs from \(configuration.database), media in \(configuration.media)\n"
        FileHandle.standardOutput.write(Data(line.utf8))
        if let (_, url) = listening { FileHandle.standardOutput.write(Data("Metrics at \(url)\n".utf8)) }
        // Runs until SIGTERM or SIGINT, then hands the job it was running back to the queue at
        // once (another worker starts it afresh) instead of leaving it to wait out its lease.
        let signal = await StopSignal.next()
        // An asset being indexed is let go at once, for another indexer to take.
        await liveText?.stopIndexing()
        await library.worker.handBack()
        listening?.0.cancel()
        FileHandle.standardOutput.write(Data("Marquee worker \(library.worker.workerID) stopped (\(signal)); its job, if any, is back in the queue\n".utf8))
        throw ExitStatus.interrupted.exitCode
    }
}
