import Foundation

/// A tiny HTTP/1.1 server on 127.0.0.1 for tests: serves one body (honouring single byte
/// ranges), or accepts connections and never answers (`stall`), to exercise cancellation.
final class LoopbackHTTPServer: @unchecked Sendable {
    enum Behaviour: Sendable {
        case serve([UInt8])
        case stall
    }

    let port: UInt16
    private let listener: Int32
    private let behaviour: Behaviour
    private let lock = NSLock()
    private var connections: [Int32] = []
    private var closed = false

    init(_ behaviour: Behaviour) throws {
        self.behaviour = behaviour
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        listener = fd
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    var url: String { "http://127.0.0.1:\(port)/media" }

    /// Stops accepting and ends open connections. Idempotent. The listening socket is only
    /// shut down here; the accept loop closes it when it ends, so its descriptor number is
    /// never closed twice or used after another test's socket has taken it (which made NIO
    /// in a concurrent test fail with EBADF).
    func close() {
        lock.lock()
        defer { lock.unlock() }
        guard !closed else { return }
        closed = true
        shutdown(listener, Int32(SHUT_RDWR))
        // Under the lock: a handler closes its connection (and drops it from the list) only
        // while holding it, so these descriptors are still ours.
        for connection in connections { shutdown(connection, Int32(SHUT_RDWR)) }
    }

    deinit { close() }

    private func acceptLoop() {
        defer {
            lock.lock()
            closed = true
            Glibc.close(listener)
            lock.unlock()
        }
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 { return }
            lock.lock()
            if closed {
                lock.unlock()
                Glibc.close(connection)
                return
            }
            connections.append(connection)
            lock.unlock()
            Thread.detachNewThread { [self] in handle(connection) }
        }
    }

    private func handle(_ connection: Int32) {
        defer {
            lock.lock()
            connections.removeAll { $0 == connection }
            Glibc.close(connection)
            lock.unlock()
        }
        while let request = readRequest(connection) {
            guard case .serve(let body) = behaviour else {
                // Stall: hold the connection open without answering.
                var byte: UInt8 = 0
                _ = recv(connection, &byte, 1, 0)
                return
            }
            var start = 0
            var end = body.count - 1
            var partial = false
            if let range = request.split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("range: bytes=") }) {
                let spec = range.dropFirst("range: bytes=".count).split(separator: "-", omittingEmptySubsequences: false)
                start = Int(spec[0]) ?? 0
                if spec.count > 1, let last = Int(spec[1]) { end = min(last, body.count - 1) }
                partial = true
            }
            if start > end || start >= body.count {
                send("HTTP/1.1 416 Range Not Satisfiable\r\nContent-Length: 0\r\nContent-Range: bytes */\(body.count)\r\n\r\n", connection)
                continue
            }
            var header = partial ? "HTTP/1.1 206 Partial Content\r\n" : "HTTP/1.1 200 OK\r\n"
            header += "Content-Type: application/octet-stream\r\nAccept-Ranges: bytes\r\nContent-Length: \(end - start + 1)\r\n"
            if partial { header += "Content-Range: bytes \(start)-\(end)/\(body.count)\r\n" }
            header += "\r\n"
            send(header, connection)
            body[start...end].withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let sent = Glibc.send(connection, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                    if sent <= 0 { return }
                    offset += sent
                }
            }
        }
    }

    private func send(_ text: String, _ connection: Int32) {
        let bytes = Array(text.utf8)
        _ = Glibc.send(connection, bytes, bytes.count, Int32(MSG_NOSIGNAL))
    }

    private func readRequest(_ connection: Int32) -> String? {
        var data: [UInt8] = []
        var byte: UInt8 = 0
        while !(data.count >= 4 && data.suffix(4) == [13, 10, 13, 10]) {
            if recv(connection, &byte, 1, 0) <= 0 { return nil }
            data.append(byte)
        }
        return String(decoding: data, as: UTF8.self)
    }
}
