import EventFeed
import Foundation
import Library
import LiveActivities

/// The Ingest activity: while library jobs are queued or running, one activity with their
/// count, the title being worked on and its percent; it ends when the last job is done.
struct IngestActivities: Sendable {
    let center: ActivityCenter
    let library: MediaLibrary
    static let activityID = "ingest"

    func start() -> Task<Void, Never> {
        Task {
            let changes = library.changes.subscribe()
            await refresh()
            for await _ in changes { await refresh() }
        }
    }

    func refresh() async {
        guard let jobs = try? await library.jobs() else { return }
        let open = jobs.filter { $0.state == .queued || $0.state == .running }
        let existing = try? await center.snapshot(id: Self.activityID)
        let live = existing?.state.acceptsUpdates == true
        if open.isEmpty {
            if live {
                let last = try? existing?.activity.state(as: IngestAttributes.self)
                let done = ActivityContent(state: IngestAttributes.ContentState(count: 0, currentTitle: last?.currentTitle, percent: 100), relevanceScore: 30)
                _ = try? await center.end(id: Self.activityID, content: done, dismissalPolicy: .after(await center.currentDate.addingTimeInterval(60)))
            }
            return
        }
        let current = open.first { $0.state == .running } ?? open.last!
        let title = try? await library.asset(id: current.assetID)?.title
        let state = IngestAttributes.ContentState(count: open.count, currentTitle: title, percent: Int((current.progress * 100).rounded(.down)))
        let content = ActivityContent(state: state, relevanceScore: 30)
        if live {
            if let old = try? existing?.activity.state(as: IngestAttributes.self), old == state { return }
            _ = try? await center.update(id: Self.activityID, content: content)
        } else {
            // An ended one with the same id is replaced by a new run of jobs.
            if existing != nil { try? await center.delete(id: Self.activityID) }
            _ = try? await center.request(attributes: IngestAttributes(), content: content, id: Self.activityID)
        }
    }
}
