import DeviceLink
import Foundation
import Hummingbird
import HummingbirdWebSocket
import NIOCore
import NIOWebSocket

/// The WebSocket routes of `NearbyRoutes`.
extension NearbyRoutes {
    /// A plain GET (no upgrade) of the device link is a 426, not an empty 200.
    @Sendable static func upgradeDeviceLink(_ request: Request, context: MarqueeRequestContext) async throws -> RouterShouldUpgrade {
        guard request.headers[.upgrade]?.lowercased() == "websocket" else {
            throw APIError(.upgradeRequired, "This is the device link WebSocket: connect with Upgrade: websocket")
        }
        return .upgrade([:])
    }

    /// The device link over WebSocket (browsers): binary messages carry the same frames as TCP.
    /// The link ends the socket when it closes; a socket that drops (or a server shutting
    /// down) ends the link. Neither is an error for the server.
    @Sendable func deviceLink(
        _ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter, _ context: WebSocketRouterContext<MarqueeRequestContext>
    ) async throws {
        let transport = BridgedTransport()
        let devices = devices
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await bytes in transport.outbound { try await outbound.write(.binary(ByteBuffer(bytes: bytes))) }
                    // Closed only once everything the link sent (a refusal, a goodbye) is written.
                    try? await outbound.close(.normalClosure, reason: nil)
                }
                group.addTask {
                    await devices.accept(transport)
                    await transport.close()
                }
                for try await message in inbound.messages(maxSize: Frame.defaultMaximumPayload + Frame.headerSize + 64) {
                    if case .binary(let buffer) = message { await transport.inbound.push(Array(buffer.readableBytesView)) }
                }
                await transport.inbound.finish()
                try await group.waitForAll()
            }
        } catch {
            await transport.close()
        }
    }

    @Sendable static func upgradeScreen(_ request: Request, context: MarqueeRequestContext) async throws -> RouterShouldUpgrade {
        guard request.headers[.upgrade]?.lowercased() == "websocket" else {
            throw APIError(.upgradeRequired, "This is the TV screen's WebSocket: connect with Upgrade: websocket")
        }
        return .upgrade([:])
    }

    /// The TV's own pages listen here for "Play on…" (text messages: a PlayRequest as JSON).
    /// The page sends nothing; its socket closing ends the screen.
    @Sendable func screen(
        _ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter, _ context: WebSocketRouterContext<MarqueeRequestContext>
    ) async throws {
        let (id, requests) = await devices.screens.open()
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await request in requests {
                    guard let data = try? encoder.encode(request) else { continue }
                    do { try await outbound.write(.text(String(decoding: data, as: UTF8.self))) } catch { break }
                }
            }
            do { for try await _ in inbound.messages(maxSize: 1024) {} } catch {}
            await devices.screens.close(id)
            group.cancelAll()
        }
    }
}
