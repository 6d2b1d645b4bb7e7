/// Why a link ended.
public enum LinkClosed: Error, Sendable, Hashable, CustomStringConvertible {
    case transportAborted
    case truncatedFrame
    case closedByPeer
    case closedLocally
    case peerUnresponsive
    case frame(FrameError)
    case channel(ChannelError)
    case notAllowed(UInt32)
    case revoked
    case handshake(HandshakeFailure)
    case handshakeTimedOut

    public var description: String {
        switch self {
        case .transportAborted: "the connection was aborted"
        case .truncatedFrame: "the connection ended in the middle of a frame"
        case .closedByPeer: "the other device closed the link"
        case .closedLocally: "the link was closed"
        case .peerUnresponsive: "the other device stopped answering heartbeats"
        case .frame(let error): "bad frame: \(error)"
        case .channel(let error): "channel: \(error)"
        case .notAllowed(let type): "message \(type) is not allowed for this device and service"
        case .revoked: "the device's pairing was revoked"
        case .handshake(let failure): failure.description
        case .handshakeTimedOut: "the handshake took too long"
        }
    }

    /// Whether trying again could help (the network dropped), as opposed to a refusal.
    public var isRetryable: Bool {
        switch self {
        case .transportAborted, .truncatedFrame, .closedByPeer, .peerUnresponsive, .frame, .channel: true
        case .handshake(.refusedByPeer(.pairingLocked, _)): false
        case .closedLocally, .notAllowed, .revoked, .handshake, .handshakeTimedOut: false
        }
    }
}
