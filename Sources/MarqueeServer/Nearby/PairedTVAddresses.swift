import BlockingWork
public import Foundation
import Logging

/// Where the other Marquee TVs this one paired with listen for nearby devices, by device id:
/// learnt when this TV connected to one to pair ("choose a device" on `/devices`), kept in a
/// JSON file (owner read/write only) so "Play on…" can reach them after a restart.
public actor PairedTVAddresses {
    /// One paired TV's address.
    public struct Entry: Codable, Sendable, Hashable {
        /// The TV's device ID; the key entries are kept and looked up by.
        public var deviceID: String
        /// The TV's name as it gave it, for "Play on…"; `all` sorts by it.
        public var name: String
        /// The TV's identity key fingerprint as it was when paired ("Play on…" checks the key the
        /// trust store holds for the device, not this copy).
        public var fingerprint: String
        /// The host name or IP address this TV reached it at.
        public var host: String
        /// The TCP port its nearby-device listener uses.
        public var port: Int
    }

    private var entries: [String: Entry] = [:]
    /// The last write started; the next one waits for it.
    private var lastWrite: Task<Void, Never>?
    static let logger = Logger(label: "devicelink.paired-tvs")
    private let file: URL?

    /// Reads the saved entries from `file`; a missing file starts empty. A file that cannot be
    /// read as entries also starts empty, but is first moved aside (`….unreadable-DATE`, logged),
    /// so the next write does not destroy what it held. With `nil`, the addresses are kept in
    /// memory only. Reads the file synchronously (once, at start-up: a few hundred bytes).
    public init(file: URL?) {
        self.file = file
        guard let file, FileManager.default.fileExists(atPath: file.path) else { return }
        if let data = try? Data(contentsOf: file), let saved = try? JSONDecoder().decode([Entry].self, from: data) {
            entries = Dictionary(saved.map { ($0.deviceID, $0) }, uniquingKeysWith: { _, last in last })
            return
        }
        let aside = file.appendingPathExtension("unreadable-\(Int(Date().timeIntervalSince1970))")
        do {
            try FileManager.default.moveItem(at: file, to: aside)
            Self.logger.error("\(file.path) could not be read as paired TVs; moved to \(aside.lastPathComponent) and starting empty")
        } catch {
            Self.logger.error("\(file.path) could not be read as paired TVs, nor moved aside: \(error)")
        }
    }

    /// The address of the paired TV with `deviceID`, or `nil` when this TV never paired with it.
    public func entry(deviceID: String) -> Entry? { entries[deviceID] }
    /// Every remembered TV, sorted by name.
    public var all: [Entry] { entries.values.sorted { $0.name < $1.name } }

    /// Adds or replaces the entry for its device ID and waits until the file is written (a failed
    /// write is logged, not thrown).
    public func remember(_ entry: Entry) async {
        entries[entry.deviceID] = entry
        await persist()
    }

    /// Removes the TV with `deviceID` and waits for the file to be written; nothing happens when
    /// it is not remembered.
    public func forget(deviceID: String) async {
        guard entries.removeValue(forKey: deviceID) != nil else { return }
        await persist()
    }

    /// Writes the entries on `BlockingWork`'s threads (never the cooperative pool), one write
    /// after the other, so the file always ends with the latest entries.
    private func persist() async {
        guard let file else { return }
        let snapshot = all
        let previous = lastWrite
        let write = Task {
            await previous?.value
            do {
                try await BlockingWork.run { try Self.write(snapshot, to: file) }
            } catch {
                Self.logger.error("could not save paired TVs to \(file.path): \(error)")
            }
        }
        lastWrite = write
        await write.value
    }

    private static func write(_ entries: [Entry], to file: URL) throws {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(entries).write(to: file, options: .atomic)
        try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
    }
}
