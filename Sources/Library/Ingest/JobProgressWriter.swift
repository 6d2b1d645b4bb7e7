/// Writes a running job's packaging progress to the store: whenever the phase's message
/// changes, else at most once per whole percent. The message comes from the packager's named
/// phase (`PackagingPhase.jobMessage`), never from how far it is.
actor JobProgressWriter {
    let store: any LibraryStore
    let worker: String
    /// The job as last written.
    private(set) var job: IngestJob

    init(store: any LibraryStore, job: IngestJob, worker: String) {
        self.store = store
        self.job = job
        self.worker = worker
    }

    /// Records `progress`; a write that fails (or finds the lease gone) is left to the heartbeat.
    func report(_ progress: PackagingProgress) async {
        let message = progress.phase.jobMessage
        let advanced = Int(progress.fraction * 100) > Int(job.progress * 100)
        guard advanced || message != job.message else { return }
        if advanced { job.progress = progress.fraction }
        job.message = message
        _ = try? await store.save(job, leasedBy: worker)
    }
}
