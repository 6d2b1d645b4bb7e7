import NIOCore
import NIOPosix

/// Where a PostgreSQL server listens, and whether it accepts a connection now: the one fact
/// that tells a server that is down (refused, or no answer) from a pool that is only busy.
enum ServerEndpoint: Sendable {
    case tcp(host: String, port: Int)
    case unixSocket(String)

    /// Whether a connection (TCP, or to the socket file) opens within `limit`; it is closed at once.
    func acceptsConnections(within limit: Duration) async -> Bool {
        let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.nanoseconds(Int64(limit.components.seconds) * 1_000_000_000 + limit.components.attoseconds / 1_000_000_000))
        do {
            let channel: any Channel
            switch self {
            case .tcp(let host, let port): channel = try await bootstrap.connect(host: host, port: port).get()
            case .unixSocket(let path): channel = try await bootstrap.connect(unixDomainSocketPath: path).get()
            }
            try? await channel.close()
            return true
        } catch {
            return false
        }
    }
}
