/// Pause and resume for a running download: workers wait at the gate before starting the
/// next file while it is closed; files already in flight finish.
actor DownloadGate {
    private var paused = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    var isPaused: Bool { paused }

    func pause() { paused = true }

    func resume() {
        paused = false
        let continuations = waiting
        waiting = []
        for c in continuations { c.resume() }
    }

    func waitWhilePaused() async {
        guard paused else { return }
        await withCheckedContinuation { waiting.append($0) }
    }
}
