/// Frames from a transport, decoded as bytes arrive: shared by the handshake and the
/// established connection so bytes that arrive together with the last handshake frame are kept.
public actor FrameReader {
    private let transport: any LinkTransport
    private var decoder: FrameDecoder

    public init(transport: any LinkTransport, maximumPayload: Int = Frame.defaultMaximumPayload) {
        self.transport = transport
        decoder = FrameDecoder(maximumPayload: maximumPayload)
    }

    /// The next frame; `nil` when the transport ended cleanly between frames.
    public func next() async throws -> Frame? {
        while true {
            if let frame = try decoder.next() { return frame }
            guard let bytes = try await transport.receive() else {
                if decoder.bufferedByteCount > 0 { throw LinkClosed.truncatedFrame }
                return nil
            }
            decoder.append(bytes)
        }
    }
}
