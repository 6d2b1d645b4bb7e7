import DeviceLink
import Foundation
import Playback

/// The messages a paired device's link carries for `remote` and `tictactoe`.
///
/// Remote: the device sends `intent` frames whose payload is a renderer-protocol intent
/// (`{"v":1,"type":"intent","id":1,"intent":"skip","seconds":10}`); the TV answers each with
/// `intentResult` (the renderer protocol's `commands`, `refused` or `error` message) and sends
/// `nowPlaying` (`{"session": snapshot-or-null}`) whenever what is on screen changes, at most
/// four times a second. The session on screen (`PlaybackSessions`) stays the one authority.
/// Tic-Tac-Toe: `selectedCharacter` (`{"character":"x"}`) and `move` (`{"index":4}`), answered
/// with `gameState`.
/// The link is either one the TV accepted (`LinkConnection`) or one it started itself, to a
/// remote it chose on `/devices` (`LinkClient`, which reconnects): the TV's side is the same.
struct NearbyRemoteSession {
    let peer: PeerIdentity
    let service: String
    let session: String
    let messages: AsyncThrowingStream<LinkMessage, any Error>
    let sendFrame: @Sendable (LinkMessageType, [UInt8]) async -> Void
    let devices: NearbyDevices

    init(connection: LinkConnection, devices: NearbyDevices) {
        peer = connection.peer
        service = connection.service
        session = connection.session
        messages = connection.messages
        sendFrame = { type, payload in try? await connection.send(type, payload) }
        self.devices = devices
    }

    /// The TV's side of a link it started: `client` is connected to `peer`.
    init(client: LinkClient, peer: PeerIdentity, service: String, devices: NearbyDevices) {
        self.peer = peer
        self.service = service
        session = client.session
        let incoming = client.messages
        messages = AsyncThrowingStream { continuation in
            let forward = Task {
                for await message in incoming { continuation.yield(message) }
                continuation.finish()
            }
            continuation.onTermination = { _ in forward.cancel() }
        }
        sendFrame = { type, payload in await client.send(type, payload) }
        self.devices = devices
    }

    struct NowPlaying: Codable, Sendable, Equatable {
        var session: SessionSnapshot?
    }

    struct GameState: Codable, Sendable {
        var board: [String]
        var phone: String?
        var tv: String?
        var outcome: String
        var error: String?

        init(_ game: TicTacToe, error: String? = nil) {
            board = game.board.map { $0?.rawValue ?? "" }
            phone = game.phone?.rawValue
            tv = game.tv?.rawValue
            outcome = game.outcome.rawValue
            self.error = error
        }
    }

    func run() async {
        let watcher = service == "remote" ? Task { await watchNowPlaying() } : nil
        defer { watcher?.cancel() }
        if service == "tictactoe" {
            // The TV shows the board from the moment a player connects (or comes back).
            let game = await devices.game(for: session)
            await devices.setGame(game, for: session, device: peer.name)
            await sendGame(game)
        }
        do {
            for try await message in messages {
                switch message.type {
                case .intent: await handleIntent(message.payload)
                case .playItem: await handlePlayItem(message.payload)
                case .selectedCharacter, .move: await handleGame(message)
                default: break
                }
            }
        } catch {}
    }

    private func send<T: Encodable>(_ type: LinkMessageType, _ value: T) async {
        guard let data = try? JSONEncoder().encode(value) else { return }
        await sendFrame(type, Array(data))
    }

    private func handleIntent(_ payload: [UInt8]) async {
        let parsed: InboundRendererMessage.Parsed
        do {
            parsed = try JSONDecoder().decode(InboundRendererMessage.self, from: Data(payload)).parsed()
        } catch let invalid as InboundRendererMessage.Invalid {
            return await send(.intentResult, OutboundRendererMessage.error(invalid.reason))
        } catch {
            return await send(.intentResult, OutboundRendererMessage.error("not a renderer-protocol intent: \(error)"))
        }
        guard case .intent(let id, let intent) = parsed else {
            return await send(.intentResult, OutboundRendererMessage.error("a remote sends intents, not reports"))
        }
        guard let sessionID = await devices.sessions.mostRecentlyRenderedSessionID() else {
            var message = OutboundRendererMessage.error("Nothing is playing on the TV")
            message.replyTo = id
            return await send(.intentResult, message)
        }
        switch await devices.sessions.apply(intent, to: sessionID, replyTo: id) {
        case .success(let commands): await send(.intentResult, OutboundRendererMessage.commands(commands, replyTo: id))
        case .failure(let refusal):
            // The session says why, and for how long ("Ads can be skipped in 3 s").
            let explained = await devices.sessions.session(id: sessionID)?.explanation(of: refusal)
            let message = explained.map { OutboundRendererMessage.refused($0, replyTo: id) } ?? .refused(refusal, replyTo: id)
            await send(.intentResult, message)
        case nil: await send(.intentResult, OutboundRendererMessage.error("The session on the TV has ended"))
        }
    }

    /// The answer to `playItem`, on `intentResult`: `{"type": "playing-on-screen", "screens": n}`
    /// or `{"type": "error", "message": …}`.
    struct PlayItemResult: Codable, Sendable {
        var v = 1
        var type: String
        var screens: Int?
        var message: String?
        /// The item this TV plays (its own library's id, which may differ from the one asked for).
        var assetID: String?
    }

    private func handlePlayItem(_ payload: [UInt8]) async {
        guard var request = try? JSONDecoder().decode(NearbyScreens.PlayRequest.self, from: Data(payload)) else {
            return await send(.intentResult, PlayItemResult(type: "error", message: "playItem needs {\"assetID\", \"time\", \"rate\"}"))
        }
        if let problem = request.problem { return await send(.intentResult, PlayItemResult(type: "error", message: problem)) }
        request.from = peer.name
        // Another TV hands over an item of its own library: play this library's copy of it.
        switch await devices.localItem(for: request) {
        case .found(let id): request.assetID = id
        case .missing(let message): return await send(.intentResult, PlayItemResult(type: "error", message: message))
        }
        let screens = await devices.screens.show(request)
        guard screens > 0 else {
            return await send(.intentResult, PlayItemResult(type: "error", message: "No screen of the TV is open: open Marquee in the TV's browser"))
        }
        await send(.intentResult, PlayItemResult(type: "playing-on-screen", screens: screens, assetID: request.assetID))
    }

    private func watchNowPlaying() async {
        var last: NowPlaying?
        while !Task.isCancelled {
            let id = await devices.sessions.mostRecentlyRenderedSessionID()
            let snapshot = if let id { await devices.sessions.snapshot(id: id) } else { SessionSnapshot?.none }
            let now = NowPlaying(session: snapshot)
            if now != last {
                await send(.nowPlaying, now)
                last = now
            }
            try? await Task.sleep(for: .milliseconds(250))
        }
    }

    private struct CharacterMessage: Decodable { var character: TicTacToe.Mark }
    private struct MoveMessage: Decodable { var index: Int }

    private func handleGame(_ message: LinkMessage) async {
        var game = await devices.game(for: session)
        var problem: String?
        if message.type == .selectedCharacter {
            if let pick = try? JSONDecoder().decode(CharacterMessage.self, from: Data(message.payload)) {
                game.selectCharacter(pick.character)
            } else {
                problem = "selectedCharacter needs {\"character\": \"x\" or \"o\"}"
            }
        } else if let move = try? JSONDecoder().decode(MoveMessage.self, from: Data(message.payload)) {
            do { try game.move(move.index) } catch { problem = error.description }
        } else {
            problem = "move needs {\"index\": 0…8}"
        }
        await devices.setGame(game, for: session, device: peer.name)
        await sendGame(game, error: problem)
    }

    private func sendGame(_ game: TicTacToe, error: String? = nil) async {
        await send(.gameState, GameState(game, error: error))
    }
}
