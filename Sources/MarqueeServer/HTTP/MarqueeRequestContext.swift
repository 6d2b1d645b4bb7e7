public import Accounts
public import Foundation
public import Hummingbird
public import HummingbirdWebSocket
public import NIOCore

/// The request context of every Marquee route: JSON with ISO 8601 dates, WebSocket upgrades.
public struct MarqueeRequestContext: RequestContext, WebSocketRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let webSocket: WebSocketHandlerReference<Self>
    /// The connection's peer address.
    public let remoteAddress: SocketAddress?
    /// The client's address, for per-client limits: the peer's, or behind a trusted proxy the
    /// one it forwarded (`TrustedProxies`, set by `ClientAddressMiddleware`).
    public var clientAddress: String
    /// Who the request acts for, once the access middleware has looked (nil: nobody signed in).
    public var principal: Principal?
    /// The guest pass the request came with, when a guest invited to watch together makes it
    /// (`principal` is then nil; see `GuestScope`).
    public var guest: GuestPass?
    /// The connection, for responses that send files from it (`FileRegionSink`).
    let channel: (any Channel)?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        remoteAddress = source.channel.remoteAddress
        clientAddress = source.channel.remoteAddress?.ipAddress ?? "unknown"
        channel = source.channel
    }

    public var requestDecoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = StrictDate.decodingStrategy
        return decoder
    }

    public var responseEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
