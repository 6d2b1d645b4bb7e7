// Device-link benchmark: `marquee-bench nearby [--intents N] [--frames N] [--size BYTES]`.
//
// 1. Intent round trip on loopback TCP over the encrypted channel: a paired remote sends a
//    renderer-protocol intent (`skip`), the TV side decodes it, applies it to a session in
//    `PlaybackSessions` (the one authority) and answers with the renderer commands; the remote
//    measures send → answer. p50 / p99 in milliseconds.
// 2. Frame throughput: the same frames sent over a `TCPTransport` and cut by a `FrameReader`,
//    sealed and opened (ChaCha20-Poly1305) versus plain; MB/s and the ratio.
// Prints one JSON object.
import DeviceLink
import Foundation
import MarqueeServer
import Playback

enum NearbyBenchmark {
    struct Intent: Decodable { var id: Int; var seconds: Double }
    struct Answer: Encodable { var replyTo: Int; var commands: [String] }

    static func run(_ args: [String]) async throws {
        var intents = 2000, frames = 20000, size = 1024
        var i = 0
        while i + 1 < args.count {
            switch args[i] {
            case "--intents": intents = Int(args[i + 1]) ?? intents
            case "--frames": frames = Int(args[i + 1]) ?? frames
            case "--size": size = Int(args[i + 1]) ?? size
            default: break
            }
            i += 2
        }
        let (p50, p99) = try await intentRoundTrip(count: intents)
        let encrypted = try await throughput(frames: frames, size: size, sealed: true)
        let plain = try await throughput(frames: frames, size: size, sealed: false)
        print("{\"intents\":\(intents),\"intentP50Ms\":\(p50),\"intentP99Ms\":\(p99),\"frames\":\(frames),\"frameBytes\":\(size),"
              + "\"encryptedMBps\":\(encrypted),\"plainMBps\":\(plain),\"ratio\":\(encrypted / plain)}")
    }

    /// A remote paired with a TV over loopback TCP (pairing approved on both sides in code).
    static func pairedLink(service: String = "remote") async throws -> (LinkConnection, LinkConnection, TCPLinkListener) {
        let responder = LinkResponder(identity: DeviceIdentity(name: "TV", platform: "linux"), services: .marquee, trust: try DeviceTrust())
        let listener = try await TCPLinkListener.bind(host: "127.0.0.1", port: 0)
        let accepted = Task { () -> LinkConnection? in
            for await transport in listener.transports { return try? await responder.accept(transport) { _, _, _ in true } }
            return nil
        }
        let transport = try await TCPTransport.connect(host: "127.0.0.1", port: listener.port)
        let (handshake, hello) = PairingHandshake.initiate(identity: DeviceIdentity(name: "Remote", platform: "linux"), request: .init(
            trusted: .init(), service: service, session: "bench", purpose: .pair))
        let reader = FrameReader(transport: transport)
        let establishment = try await LinkHandshake.run(handshake, sending: [hello], transport: transport, reader: reader) { _, _, _ in true }
        let remote = LinkConnection(establishment: establishment, isInitiator: true, transport: transport, reader: reader)
        await remote.start()
        guard let tv = await accepted.value else { throw CancellationError() }
        return (remote, tv, listener)
    }

    static func intentRoundTrip(count: Int) async throws -> (Double, Double) {
        let (remote, tv, listener) = try await pairedLink()
        defer { listener.close() }
        let sessions = PlaybackSessions()
        var session = PlaybackSession(id: "s", assetID: "a", metadata: DisplayMetadata(title: "Clip"))
        _ = session.handle(.ready(duration: 3600))
        await sessions.insert(session)
        let server = Task {
            do {
                for try await message in tv.messages where message.type == .intent {
                    let intent = try JSONDecoder().decode(Intent.self, from: Data(message.payload))
                    let result = await sessions.apply(.skip(by: intent.seconds), to: "s", replyTo: intent.id)
                    let commands = (try? result?.get())?.map { String(describing: $0) } ?? []
                    try await tv.send(.intentResult, Array(try JSONEncoder().encode(Answer(replyTo: intent.id, commands: commands))))
                }
            } catch {}
        }
        var answers = remote.messages.makeAsyncIterator()
        var samples: [Double] = []
        for id in 0..<(count + 100) {
            let payload = Array(#"{"v":1,"type":"intent","id":\#(id),"intent":"skip","seconds":\#(id % 2 == 0 ? 10 : -10)}"#.utf8)
            let start = DispatchTime.now().uptimeNanoseconds
            try await remote.send(.intent, payload)
            guard try await answers.next() != nil else { break }
            if id >= 100 { samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6) }  // after a warm-up
        }
        server.cancel()
        await remote.close()
        samples.sort()
        return (samples[samples.count / 2], samples[min(samples.count - 1, samples.count * 99 / 100)])
    }

    /// MB/s of payload delivered, sealed over an established link or plain frames over TCP.
    static func throughput(frames: Int, size: Int, sealed: Bool) async throws -> Double {
        let payload = [UInt8](repeating: 0x5A, count: size)
        if sealed {
            let (remote, tv, listener) = try await pairedLink()
            defer { listener.close() }
            let start = DispatchTime.now().uptimeNanoseconds
            let receiver = Task { () -> Int in
                var received = 0
                do { for try await message in tv.messages { received += message.payload.count; if received >= frames * size { break } } } catch {}
                return received
            }
            for _ in 0..<frames { try await remote.send(.intent, payload) }
            let received = await receiver.value
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            await remote.close()
            return Double(received) / seconds / 1e6
        }
        let listener = try await TCPLinkListener.bind(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        let receiver = Task { () -> Int in
            var received = 0
            for await transport in listener.transports {
                let reader = FrameReader(transport: transport)
                while received < frames * size, let frame = try? await reader.next() { received += frame.payload.count }
                break
            }
            return received
        }
        let sender = try await TCPTransport.connect(host: "127.0.0.1", port: listener.port)
        let start = DispatchTime.now().uptimeNanoseconds
        let encoded = Frame(.intent, payload: payload)
        for _ in 0..<frames { try await sender.send(encoded.encoded) }
        let received = await receiver.value
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        await sender.close()
        return Double(received) / seconds / 1e6
    }
}
