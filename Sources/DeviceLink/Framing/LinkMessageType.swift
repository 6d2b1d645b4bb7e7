/// The message types of the device-link protocol: the handshake (sent in the clear, below
/// 0x10), the channel's own messages, and application messages (sealed).
public enum LinkMessageType: UInt32, Sendable, CaseIterable {
    // Handshake, in the clear.
    case hello = 0x01
    case helloReply = 0x02
    case reveal = 0x03
    case authenticate = 0x04
    case approval = 0x05
    case refusal = 0x06

    // Channel, sealed.
    case heartbeat = 0x10
    case goodbye = 0x11

    // Application services, sealed. `remote`:
    case intent = 0x100
    case intentResult = 0x101
    case nowPlaying = 0x102
    /// "Play on…": play an item of this TV's library on its screen, from a time at a speed.
    case playItem = 0x103
    // `tictactoe` (the names of Apple's sample):
    case selectedCharacter = 0x200
    case move = 0x201
    case gameState = 0x202

    /// Whether this type is only valid before the channel is established.
    public var isHandshake: Bool { rawValue < 0x10 }
}
