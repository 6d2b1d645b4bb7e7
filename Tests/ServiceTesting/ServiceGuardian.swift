import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Keeps a throwaway test server from outliving the test process.
///
/// The server runs under a small shell guardian in a process group of its own (Foundation's
/// `Process` starts every child in a new group), so a signal sent to the test run's group (a
/// timeout, a cancelled CI job) does not kill the guardian before it has cleaned up. The
/// guardian stops the server and removes its
/// folder when any of these happens first: the test process exits normally (an `atexit`
/// handler signals every guardian and waits for them), the test process dies any other way
/// (the guardian watches its `/proc` entry), or the guardian itself is signalled. A folder
/// that a killed guardian left behind is removed by the next test process that starts one.
enum ServiceGuardian {
    /// The folders of the services this process started; each guardian writes its PID there.
    private static let folders = Mutex<[URL]>([])
    private static let exitHandler: Void = {
        atexit { ServiceGuardian.stopAll() }
    }()

    /// The name of the file in a service's folder that records the test process that owns it.
    static let ownerFile = "owner.pid"
    /// The name of the file in which the guardian shell records its own PID (under `runuser`
    /// it is not the process this one started).
    static let guardianFile = "guardian.pid"
    /// A file whose appearance tells the guardian to stop its server now. Signals cannot be
    /// relied on: the guardian inherits the test process's signal mask, in which TERM and CHLD
    /// may be blocked (a guardian waiting on `wait` for a background `sleep` then never woke,
    /// and its server outlived the tests), so it polls with foreground sleeps instead.
    static let stopFile = "stop"

    /// The shell script that runs `start` (which must leave the server's PID in `$server`),
    /// then waits for the test process to go and stops the server with `signal`, escalating
    /// to SIGKILL after 5 s, and removes `folder`.
    static func script(starting start: String, signal: String, folder: URL) -> String {
        """
        echo $$ > '\(folder.appendingPathComponent(guardianFile).path)'
        \(start)
        stop() {
            trap '' TERM INT HUP
            kill -\(signal) $server 2>/dev/null || true
            for i in 1 2 3 4 5 6 7 8 9 10; do kill -0 $server 2>/dev/null || break; sleep 0.5; done
            kill -KILL $server 2>/dev/null || true
            wait $server 2>/dev/null || true
            rm -rf '\(folder.path)'
            exit 0
        }
        trap stop TERM INT HUP
        while [ -d /proc/\(ProcessInfo.processInfo.processIdentifier) ] && [ ! -e '\(folder.appendingPathComponent(stopFile).path)' ]; do sleep 0.2; done
        stop
        """
    }

    /// Starts `arguments` (a command that runs the guardian script) and registers it to be
    /// stopped when this process exits.
    static func launch(_ arguments: [String], folder: URL) throws -> Process {
        _ = exitHandler
        try? String(ProcessInfo.processInfo.processIdentifier).write(
            to: folder.appendingPathComponent(ownerFile), atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        folders.withLock { $0.append(folder) }
        return process
    }

    /// Removes the folders named `prefix*` under `parent` whose owning test process is gone
    /// (left by a guardian that was killed before it could clean up).
    static func removeAbandonedFolders(in parent: String, prefix: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? []
        for name in names where name.hasPrefix(prefix) {
            let folder = URL(fileURLWithPath: parent).appendingPathComponent(name)
            guard let text = try? String(contentsOf: folder.appendingPathComponent(ownerFile), encoding: .utf8),
                let owner = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)),
                !FileManager.default.fileExists(atPath: "/proc/\(owner)")
            else { continue }
            try? FileManager.default.removeItem(at: folder)
        }
    }

    /// Signals every guardian and waits (up to 10 s) until each has stopped its server.
    static func stopAll() {
        let pids = folders.withLock { $0 }.compactMap { folder in
            (try? String(contentsOf: folder.appendingPathComponent(guardianFile), encoding: .utf8))
                .flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        for folder in folders.withLock({ $0 }) {
            FileManager.default.createFile(atPath: folder.appendingPathComponent(stopFile).path, contents: nil)
        }
        for pid in pids { kill(pid, SIGTERM) }
        let deadline = Date().addingTimeInterval(10)
        // Synchronous on purpose (it runs at exit): polls until the servers have gone, for at most 10 s.
        while Date() < deadline, pids.contains(where: isAlive) { usleep(50_000) }
    }

    /// Whether `pid` is running (not gone and not a zombie waiting to be reaped).
    private static func isAlive(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first
        return state != "Z" && state != "X"
    }
}
