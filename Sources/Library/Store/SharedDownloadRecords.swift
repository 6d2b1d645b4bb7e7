import Foundation

/// Where the server nodes of a cluster keep their in-app downloads, so that any node lists
/// and controls every download while each runs on the one node that holds it (PostgreSQL's
/// `PostgreSQLDownloadRows`). A single server keeps its downloads in its data directory and
/// has none of this.
///
/// A record's body is the server's JSON for the download; the store only keeps it. A node
/// holds the downloads it saves for `lease`, renewing while it lives; a resumable download
/// whose holder stopped renewing may be claimed by another node. A control asked for through
/// another node (`want`) waits in the record until the holder takes it.
public protocol SharedDownloadRecords: Sendable {
    /// This node's name in the records it holds.
    var node: String { get }
    /// How long a node holds its downloads without renewing.
    var lease: Duration { get }
    /// Every download, oldest first.
    func all() async throws -> [SharedDownloadRecord]
    func record(id: String) async throws -> SharedDownloadRecord?
    /// Writes the download as held by this node; false when another node holds it now.
    func save(id: String, body: String, resumable: Bool) async throws -> Bool
    func delete(id: String) async throws
    /// Asks the holder of `id` to carry out `command`; false when there is no such download.
    func want(_ command: String, for id: String) async throws -> Bool
    /// The controls asked for this node's downloads, each handed out once.
    func takeWanted() async throws -> [(id: String, command: String)]
    /// Takes over one download whose holder stopped renewing, whatever its state; nil when it
    /// is held (or gone).
    func claim(id: String) async throws -> SharedDownloadRecord?
    func renewLeases() async throws
    /// Takes over resumable downloads whose holder stopped renewing; returns them.
    func claimAbandoned() async throws -> [SharedDownloadRecord]
    /// Ids of downloads other nodes changed (or asked this node to control), from now on;
    /// `nil` after a gap in which anything may have changed.
    func changes() -> AsyncStream<String?>
}

/// One download as the nodes share it.
public struct SharedDownloadRecord: Sendable, Hashable {
    public var id: String
    /// The node holding (running) it.
    public var node: String
    /// The server's JSON for the download.
    public var body: String
    /// Whether it would run again if its holder went away (queued, downloading or paused).
    public var resumable: Bool
    public var wanted: String?
    /// Whether its holder stopped renewing its lease.
    public var leaseLapsed: Bool

    public init(id: String, node: String, body: String, resumable: Bool, wanted: String?, leaseLapsed: Bool) {
        self.id = id
        self.node = node
        self.body = body
        self.resumable = resumable
        self.wanted = wanted
        self.leaseLapsed = leaseLapsed
    }
}
