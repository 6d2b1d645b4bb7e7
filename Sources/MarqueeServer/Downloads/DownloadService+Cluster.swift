import EventFeed
import Foundation
import Library

/// A download another node of the cluster runs, as that node last saved it.
struct ForeignDownload: Sendable {
    var record: DownloadRecord
    var bytesPerSecond: Double
    var secondsRemaining: Double?
    var node: String
    var leaseLapsed: Bool

    /// What a node writes for the others: the record and its live throughput.
    struct Body: Codable {
        var record: DownloadRecord
        var bytesPerSecond: Double
        var secondsRemaining: Double?
    }

    init?(_ shared: SharedDownloadRecord) {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let body = try? decoder.decode(Body.self, from: Data(shared.body.utf8)) else { return nil }
        record = body.record
        bytesPerSecond = body.bytesPerSecond
        secondsRemaining = body.secondsRemaining
        node = shared.node
        leaseLapsed = shared.leaseLapsed
    }

    static func body(of entry: DownloadService.Entry) -> String {
        let body = Body(record: entry.record, bytesPerSecond: entry.bytesPerSecond, secondsRemaining: entry.secondsRemaining)
        return String(decoding: (try? DownloadRecordStore.encoder().encode(body)) ?? Data(), as: UTF8.self)
    }
}

/// Downloads in a cluster (`--database postgres://…`): every node lists every download, and
/// each download runs on the one node that holds it in the shared records.
///
/// - The holder writes the record (state, counters, throughput) at every change and every 2 s
///   of progress; the write's `NOTIFY` makes the other nodes read it and push it to their pages.
/// - A pause, resume, cancel, retry or delete asked through another node is checked against
///   the lifecycle there (a refusal is answered at once), written into the record as wanted,
///   and carried out by the holder when it hears of it; the asking node waits up to 5 s for
///   the holder's answer.
/// - Each node renews its hold every third of the lease. A download whose holder stopped
///   renewing (the node died) is claimed by another node, which starts it again: from the
///   files already in the bundle when it is the same machine (same data directory and
///   journal), from the start on another machine (the partial files were on the dead
///   node's disk). A finished, failed or cancelled one stays listed, and the first node asked
///   to control it takes it over.
extension DownloadService {
    static let controls: [String: DownloadLifecycle.Event] = ["pause": .pause, "resume": .resume, "cancel": .cancel, "retry": .retry]

    static func controlName(_ event: DownloadLifecycle.Event) -> String {
        controls.first { $0.value == event }?.key ?? "retry"
    }

    /// `start()` in a cluster: takes this node's own records back, lists the others', and
    /// starts listening and renewing.
    func startSharing() async throws -> [String] {
        guard let shared else { return [] }
        let changes = shared.changes()
        var problems: [String] = []
        var mine: [DownloadRecord] = []
        for row in try await shared.all() {
            guard let other = ForeignDownload(row) else {
                problems.append("download \(row.id): its shared record could not be read")
                continue
            }
            if row.node == shared.node { mine.append(other.record) } else { foreign[row.id] = other }
        }
        await adopt(mine)
        clusterTasks.append(
            Task { [weak self] in
                for await id in changes {
                    guard let self else { return }
                    await self.heard(id)
                }
            })
        let interval = shared.lease / 3
        clusterTasks.append(
            Task { [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval)
                    guard let self, !Task.isCancelled else { return }
                    await self.keepHold()
                }
            })
        await keepHold()
        return problems
    }

    /// Whether this node runs the download (on a single server, every download it lists).
    public func runsHere(_ id: String) -> Bool { entries[id] != nil }

    /// Stops holding downloads, as a node going away does: no more renewing or listening,
    /// and this node's tasks stop without writing anything (another node claims them once
    /// the lease lapses).
    public func leaveCluster() async {
        for task in clusterTasks { task.cancel() }
        clusterTasks = []
        let running = entries.values
        entries = [:]
        order = []
        for entry in running {
            entry.task?.cancel()
            await entry.running?.resume()
        }
    }

    /// Renews this node's hold, carries out what was asked of it, claims downloads whose
    /// holder went away, and refreshes the others' downloads.
    func keepHold() async {
        guard let shared else { return }
        try? await shared.renewLeases()
        await carryOutWanted()
        if let claimed = try? await shared.claimAbandoned(), !claimed.isEmpty {
            await take(claimed.compactMap { ForeignDownload($0)?.record })
        }
        await refreshForeign()
    }

    /// Downloads this node now holds (claimed): out of `foreign`, into the service.
    private func take(_ records: [DownloadRecord]) async {
        for record in records { foreign[record.id] = nil }
        await adopt(records)
        for record in records { broadcast(record.id) }
    }

    /// Another node changed `id` (nil: anything may have changed).
    func heard(_ id: String?) async {
        guard let shared, let id else {
            await carryOutWanted()
            await refreshForeign()
            return
        }
        if entries[id] != nil {
            await carryOutWanted()
            return
        }
        let row: SharedDownloadRecord?
        do { row = try await shared.record(id: id) } catch { return }
        guard let row else {
            if foreign.removeValue(forKey: id) != nil { feed.publish(.removed(id: id, diskUsage: diskUsage)) }
            return
        }
        guard row.node != shared.node, let other = ForeignDownload(row) else { return }
        foreign[id] = other
        if feed.subscriberCount > 0 { feed.publish(.changed(snapshot(of: other), diskUsage: diskUsage)) }
    }

    /// Reads every other node's download again (after a gap in notices, and every renewal).
    private func refreshForeign() async {
        guard let shared, let rows = try? await shared.all() else { return }
        var seen: Set<String> = []
        for row in rows where row.node != shared.node && entries[row.id] == nil {
            guard let other = ForeignDownload(row) else { continue }
            seen.insert(row.id)
            let before = foreign[row.id]
            foreign[row.id] = other
            if before?.record != other.record || before?.leaseLapsed != other.leaseLapsed, feed.subscriberCount > 0 {
                feed.publish(.changed(snapshot(of: other), diskUsage: diskUsage))
            }
        }
        for id in Set(foreign.keys).subtracting(seen) {
            foreign[id] = nil
            feed.publish(.removed(id: id, diskUsage: diskUsage))
        }
    }

    /// Carries out the controls other nodes asked for this node's downloads.
    private func carryOutWanted() async {
        guard let shared, let asked = try? await shared.takeWanted() else { return }
        for (id, command) in asked {
            if command == "delete" {
                try? await delete(id)
            } else if let event = Self.controls[command] {
                _ = try? await apply(event, to: id)
            }
        }
    }

    /// The shared record of a download another node holds, refreshed into `foreign`.
    private func sharedRecord(_ id: String) async throws(DownloadServiceError) -> (SharedDownloadRecord, ForeignDownload) {
        guard let shared else { throw .notFound("No download \(id)") }
        let row: SharedDownloadRecord?
        do { row = try await shared.record(id: id) } catch { throw .conflict("The shared download records cannot be read: \(error)") }
        guard let row, row.node != shared.node, let other = ForeignDownload(row) else { throw .notFound("No download \(id)") }
        foreign[id] = other
        return (row, other)
    }

    /// A person's control of a download another node holds.
    func controlElsewhere(_ event: DownloadLifecycle.Event, _ id: String) async throws(DownloadServiceError) -> DownloadSnapshot {
        let (row, other) = try await sharedRecord(id)
        // A node that holds its lease runs the download's task.
        var lifecycle = DownloadLifecycle(state: other.record.state, hasTask: !row.leaseLapsed)
        if case .failure(let refusal) = lifecycle.handle(event) { throw .conflict(refusal.message) }
        if row.leaseLapsed { return try await takeOver(event, other) }
        guard (try? await shared?.want(Self.controlName(event), for: id)) == true else { throw .notFound("No download \(id)") }
        for _ in 0..<50 {
            try? await Task.sleep(for: .milliseconds(100))
            guard let now = try? await shared?.record(id: id) else { continue }
            // Its node's answer: a record whose state moved (its progress alone changes the
            // body too, and says nothing about the control).
            if now.body != row.body, let updated = ForeignDownload(now) {
                foreign[id] = updated
                if updated.record.state != other.record.state || updated.record.state == lifecycle.state { return snapshot(of: updated) }
            }
            // Its node went away while this node waited for it.
            if now.leaseLapsed, now.node != shared?.node { return try await takeOver(event, other) }
        }
        // Its node has not written its answer yet (a loaded machine, a slow database): the
        // control is handed over, so answer with the state it leads to; the page hears the
        // node's own record as soon as it is written.
        var projected = other
        projected.record.state = lifecycle.state
        return snapshot(of: projected)
    }

    /// Its node is gone: this node takes the download over and carries the control out.
    private func takeOver(_ event: DownloadLifecycle.Event, _ other: ForeignDownload) async throws(DownloadServiceError) -> DownloadSnapshot {
        let id = other.record.id
        guard let claimed = try? await shared?.claim(id: id), let record = ForeignDownload(claimed)?.record else {
            throw .conflict("Another node took “\(other.record.title)” over at the same moment; try again.")
        }
        await take([record])
        return try await apply(event, to: id)
    }

    /// Deleting a download another node holds: its holder stops it and removes it (or, when
    /// that node is gone, its record goes from here).
    func deleteElsewhere(_ id: String) async throws(DownloadServiceError) {
        let (row, other) = try await sharedRecord(id)
        guard DownloadLifecycle(state: other.record.state).allowsDelete else {
            throw .conflict("“\(other.record.title)” is being added to the library; delete it when that has finished.")
        }
        if !row.leaseLapsed {
            guard (try? await shared?.want("delete", for: id)) == true else { throw .notFound("No download \(id)") }
            var gone = false
            for _ in 0..<50 where !gone {
                try? await Task.sleep(for: .milliseconds(100))
                if case .some(nil) = await Self.lookUp(shared, id) { gone = true }
            }
            guard gone else { throw .conflict("The node running “\(other.record.title)” did not answer; try again.") }
        } else {
            do { try await shared?.delete(id: id) } catch { throw .conflict("The shared download records cannot be written: \(error)") }
        }
        foreign[id] = nil
        feed.publish(.removed(id: id, diskUsage: diskUsage))
    }

    /// The shared record of `id`: `.some(nil)` when there is none, `nil` when it could not be read.
    private static func lookUp(_ shared: (any SharedDownloadRecords)?, _ id: String) async -> SharedDownloadRecord?? {
        guard let shared else { return nil }
        do { return .some(try await shared.record(id: id)) } catch { return nil }
    }

    /// Another node holds `id` now (claimed after this node's hold lapsed): stop it here.
    func letGo(_ id: String) async {
        guard let entry = entries[id] else { return }
        entries[id] = nil
        order.removeAll { $0 == id }
        entry.task?.cancel()
        await entry.running?.resume()
    }
}
