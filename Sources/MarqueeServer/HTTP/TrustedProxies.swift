import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The reverse proxies (nginx in front of the nodes) whose `X-Forwarded-For` the server
/// believes, and how a request's client address is found from it.
///
/// Behind a proxy every connection comes from the proxy's address, so per-client limits
/// (expensive routes, sign-in attempts, Live Text reads) would put every client in one bucket:
/// one person's failed sign-ins would lock everyone out. From a trusted peer the client is the
/// right-most address in `X-Forwarded-For` that is not itself a trusted proxy (as nginx's
/// `real_ip_recursive` reads it): entries to its left were written by the client and prove
/// nothing. From any other peer the header is ignored, so a client cannot choose its bucket.
public struct TrustedProxies: Sendable, Hashable {
    /// One address or network (`127.0.0.1`, `10.0.0.0/8`, `::1`, `fd00::/8`).
    public struct Network: Sendable, Hashable, CustomStringConvertible {
        let bytes: [UInt8]
        let prefixLength: Int
        public let description: String

        /// Nil when `text` is not an IPv4 or IPv6 address with an optional `/prefix` in range.
        public init?(_ text: String) {
            let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard let bytes = Self.address(parts[0]) else { return nil }
            let length: Int
            if parts.count == 2 {
                guard let value = Int(parts[1]), parts[1].allSatisfy(\.isASCII), (0...(bytes.count * 8)).contains(value) else { return nil }
                length = value
            } else {
                length = bytes.count * 8
            }
            self.bytes = bytes
            self.prefixLength = length
            self.description = text
        }

        /// Whether `address` (an IP address as text) is in this network.
        func contains(_ address: [UInt8]) -> Bool {
            guard address.count == bytes.count else { return false }
            var left = prefixLength
            for (mine, theirs) in zip(bytes, address) where left > 0 {
                let bits = min(8, left)
                let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
                if mine & mask != theirs & mask { return false }
                left -= bits
            }
            return true
        }

        /// The address's bytes (4 or 16), or nil when `text` is not an IP address. An IPv4
        /// address mapped into IPv6 (`::ffff:10.0.0.1`, as a dual-stack socket reports it)
        /// counts as the IPv4 address.
        static func address(_ text: String) -> [UInt8]? {
            // Parsed into plain bytes, not `in_addr`/`in6_addr` values: which module those C
            // types' initializers come from differs from build to build (a clean build saw
            // NIO's C module), so code that creates them does not always compile.
            var bytes = [UInt8](repeating: 0, count: 16)
            if bytes.withUnsafeMutableBytes({ inet_pton(AF_INET, text, $0.baseAddress) }) == 1 { return Array(bytes[0..<4]) }
            guard bytes.withUnsafeMutableBytes({ inet_pton(AF_INET6, text, $0.baseAddress) }) == 1 else { return nil }
            if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF { return Array(bytes[12...]) }
            return bytes
        }
    }

    public var networks: [Network]

    public init(_ networks: [Network] = []) {
        self.networks = networks
    }

    /// No proxy trusted: the client is the connection's peer.
    public static let none = TrustedProxies()

    func trusts(_ address: String) -> Bool {
        guard !networks.isEmpty, let bytes = Network.address(address) else { return false }
        return networks.contains { $0.contains(bytes) }
    }

    /// The client of a request from `peer` carrying `forwardedFor` (every `X-Forwarded-For`
    /// value, in order).
    func client(peer: String, forwardedFor: [String]) -> String {
        guard trusts(peer) else { return peer }
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        var client = peer
        for hop in hops.reversed() {
            guard Network.address(hop) != nil else { break }
            client = hop
            if !trusts(hop) { break }
        }
        return client
    }
}

/// Puts the request's client address (`TrustedProxies`) in its context, before the
/// middlewares and routes that limit per client.
struct ClientAddressMiddleware: RouterMiddleware {
    typealias Context = MarqueeRequestContext
    let proxies: TrustedProxies

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        let peer = context.remoteAddress?.ipAddress ?? "unknown"
        context.clientAddress = proxies.client(peer: peer, forwardedFor: request.headers[values: .xForwardedFor])
        return try await next(request, context)
    }
}

extension HTTPField.Name {
    static let xForwardedFor = Self("X-Forwarded-For")!
}
