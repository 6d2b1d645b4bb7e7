import Foundation
import NIOCore
import NIOHTTP1

/// Where one of APNs' services listens: the host and port a connection is opened to.
struct APNsOrigin: Hashable, Sendable, CustomStringConvertible {
    var host: String
    var port: Int

    /// The origin of a base URL such as `https://api.push.apple.com` or
    /// `https://127.0.0.1:4443`; nil for anything but an https URL with a host.
    init?(baseURL: String) {
        guard let components = URLComponents(string: baseURL), components.scheme?.lowercased() == "https",
            let host = components.host, !host.isEmpty
        else { return nil }
        self.host = host
        self.port = components.port ?? 443
    }

    init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    var description: String { "\(host):\(port)" }

    /// True for an IPv4 or IPv6 literal, which TLS may not name in SNI.
    var isIPAddress: Bool {
        (try? SocketAddress(ipAddress: host, port: port)) != nil
    }
}

/// One request as it goes on the wire: method, path and headers (the provider token
/// included), and the body.
struct APNsWireRequest: Sendable {
    var method: HTTPMethod
    var path: String
    var headers: [(String, String)]
    var body: Data?
}

/// APNs' answer to one request: status, headers and body.
struct APNsWireAnswer: Sendable {
    var status: Int
    var headers: HTTPHeaders
    var body: Data

    /// APNs' reason, from the JSON body it sends with every answer but 200 (an empty body
    /// is not parsed: a failed parse costs more than the rest of a push's bookkeeping).
    var reason: String? {
        guard !body.isEmpty else { return nil }
        return (try? JSONSerialization.jsonObject(with: body) as? [String: Any])?["reason"] as? String
    }
}

/// What became of one request on one connection, classified by whether APNs can have acted
/// on it: only a request APNs cannot have processed may be sent again (a second send of one
/// it did process shows the push twice).
enum APNsWireOutcome: Sendable {
    /// APNs answered.
    case answered(APNsWireAnswer)
    /// APNs cannot have processed it: the stream was refused (REFUSED_STREAM), it was above
    /// the last stream id of a GOAWAY, the request was never completely written, or no
    /// connection could be opened. Safe to send again, with the same `apns-id`.
    case notProcessed(String)
    /// It was sent but no answer came (the connection dropped, or the answer did not come
    /// within the time on the wire allowed). APNs may have delivered it: never sent again.
    case unknown(String)
}
