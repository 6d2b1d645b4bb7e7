import Foundation
import LiveActivities

/// The Downloading activity: one per download, started when it is queued, updated with its
/// bytes, percent, ETA and paused/failed state, ended when it finishes (or is cancelled or
/// deleted, which dismiss it at once). Follows the download service's event stream.
struct DownloadActivities: Sendable {
    let center: ActivityCenter
    let downloads: DownloadService

    static func activityID(_ downloadID: String) -> String { "download-" + downloadID }

    func start() -> Task<Void, Never> {
        Task {
            let events = await downloads.events()
            for snapshot in await downloads.list().downloads { await follow(snapshot) }
            for await event in events {
                switch event {
                case .changed(let snapshot, _): await follow(snapshot)
                case .removed(let id, _):
                    _ = try? await center.end(id: Self.activityID(id), content: nil, dismissalPolicy: .immediate)
                }
            }
        }
    }

    func follow(_ download: DownloadSnapshot) async {
        // In a cluster the node running a download keeps its activity (the others only list it).
        guard await downloads.runsHere(download.id) else { return }
        let id = Self.activityID(download.id)
        let state = DownloadingAttributes.ContentState(
            phase: download.state, bytesWritten: download.bytesWritten, expectedBytes: download.expectedBytes,
            percent: Int((download.progress * 100).rounded(.down)), secondsRemaining: download.secondsRemaining,
            bytesPerSecond: download.bytesPerSecond, message: download.message)
        // A running download is the most relevant thing; a paused or failed one less so.
        let relevance: Double =
            switch download.state {
            case "downloading": 80
            case "importing": 70
            case "queued": 50
            default: 40
            }
        let content = ActivityContent(state: state, relevanceScore: relevance)
        let existing = try? await center.snapshot(id: id)
        switch download.state {
        case "finished", "cancelled":
            guard let existing, existing.state.acceptsUpdates else { return }
            _ = try? await center.end(id: id, content: content, dismissalPolicy: download.state == "cancelled" ? .immediate : .default)
        default:
            if let existing {
                guard existing.state.acceptsUpdates else { return }
                if let old = try? existing.activity.state(as: DownloadingAttributes.self), old == state { return }
                let alert =
                    download.state == "failed" && (try? existing.activity.state(as: DownloadingAttributes.self))?.phase != "failed"
                    ? AlertConfiguration(title: download.title, body: download.message ?? "The download failed") : nil
                _ = try? await center.update(id: id, content: content, alert: alert)
            } else {
                _ = try? await center.request(
                    attributes: DownloadingAttributes(downloadID: download.id, title: download.title),
                    content: content, id: id)
            }
        }
    }
}
