import DeviceLink
import Foundation

/// Turns what a person types into `marquee remote` into link messages: renderer-protocol
/// intents for `remote`, `selectedCharacter` / `move` for `tictactoe`.
struct RemoteCommands {
    var service: String

    struct Unknown: Error, CustomStringConvertible {
        var description: String
    }

    var help: String {
        service == "tictactoe"
            ? "Type x or o to pick a character, 1–9 to play a square (1 is top left), quit to leave."
            : "Commands: play, pause, toggle, +10, -10, skip SECONDS, seek TIME, speed RATE, audio ID, subs ID|off, volume PERCENT, mute, unmute, quit."
    }

    /// The frame for a typed line; nil for a line that is only asking for help.
    func frame(for line: String, id: Int) throws -> (LinkMessageType, [UInt8])? {
        let words = line.split(separator: " ").map(String.init)
        guard let verb = words.first?.lowercased() else { return nil }
        let argument = words.dropFirst().first
        func json(_ object: [String: Any]) -> [UInt8] {
            Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data())
        }
        if service == "tictactoe" {
            if verb == "x" || verb == "o" { return (.selectedCharacter, json(["character": verb])) }
            if let square = Int(verb), (1...9).contains(square) { return (.move, json(["index": square - 1])) }
            if verb == "help" { return nil }
            throw Unknown(description: "unknown command “\(line)”. \(help)")
        }
        var intent: [String: Any] = ["v": 1, "type": "intent", "id": id]
        func number(_ text: String?, _ what: String) throws -> Double {
            guard let text, let value = Self.seconds(text) else { throw Unknown(description: "\(verb) needs \(what)") }
            return value
        }
        switch verb {
        case "play", "pause": intent["intent"] = verb
        case "toggle", "t": intent["intent"] = "toggle-play-pause"
        case "+10", "-10", "+30", "-30":
            intent["intent"] = "skip"
            intent["seconds"] = Double(verb)!
        case "skip":
            intent["intent"] = "skip"
            intent["seconds"] = try number(argument, "a number of seconds (negative goes back)")
        case "seek":
            intent["intent"] = "seek"
            intent["time"] = try number(argument, "a time (seconds or m:ss)")
        case "speed":
            intent["intent"] = "select-speed"
            intent["rate"] = try number(argument, "a rate such as 1.5")
        case "audio":
            guard let argument else { throw Unknown(description: "audio needs a rendition id (see status)") }
            intent["intent"] = "select-audio"
            intent["rendition"] = argument
        case "subs", "subtitles":
            guard let argument else { throw Unknown(description: "subs needs a rendition id or off") }
            intent["intent"] = "select-subtitles"
            intent["rendition"] = argument == "off" ? NSNull() : argument
        case "volume", "vol":
            guard let argument, let percent = Double(argument.trimmingCharacters(in: CharacterSet(charactersIn: "%"))), (0...100).contains(percent) else {
                throw Unknown(description: "volume needs a level from 0 to 100 (percent)")
            }
            intent["intent"] = "set-volume"
            intent["volume"] = percent / 100
        case "mute", "unmute":
            intent["intent"] = "set-muted"
            intent["muted"] = verb == "mute"
        case "status", "help": return nil
        default: throw Unknown(description: "unknown command “\(line)”. \(help)")
        }
        return (.intent, json(intent))
    }

    /// "90", "1:30", "-10" as seconds.
    static func seconds(_ text: String) -> Double? {
        let parts = text.split(separator: ":")
        if parts.count == 2, let minutes = Double(parts[0]), let seconds = Double(parts[1]) { return minutes * 60 + seconds }
        return Double(text).flatMap { $0.isFinite ? $0 : nil }
    }
}

/// What `marquee remote` prints: answers, now-playing lines and the game board.
final class RemoteOutput: Sendable {
    func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    private struct Answer: Decodable {
        var type: String
        var reason: String?
        var message: String?
        var commands: [Command]?
        struct Command: Decodable {
            var command: String
            var rate: Double?
            var time: Double?
            var volume: Double?
            var muted: Bool?
        }
    }

    private struct NowPlaying: Decodable {
        var session: Snapshot?
        struct Snapshot: Decodable {
            var status: String
            var currentTime: Double
            var duration: Double?
            var rate: Double
            var metadata: Metadata
            var selectedSpeed: Speed?
            var audio: [Option]
            var subtitles: [Option]
            var selectedAudio: String?
            var selectedSubtitles: String?
            var volume: Double?
            var muted: Bool?
            struct Metadata: Decodable { var title: String? }
            struct Speed: Decodable { var localizedNumericName: String }
            struct Option: Decodable { var id: String }
        }
    }

    private struct Game: Decodable {
        var board: [String]
        var phone: String?
        var tv: String?
        var outcome: String
        var error: String?
    }

    func show(_ message: LinkMessage) {
        let data = Data(message.payload)
        switch message.type {
        case .intentResult:
            guard let answer = try? JSONDecoder().decode(Answer.self, from: data) else { return }
            switch answer.type {
            case "refused": say("Refused: \(answer.reason ?? "")")
            case "error": say("Error: \(answer.message ?? "")")
            default:
                say(
                    "OK: "
                        + (answer.commands ?? []).map { c in
                            [
                                c.command, c.rate.map { "\($0)×" }, c.time.map(Self.clock), c.volume.map { "\(Int(($0 * 100).rounded()))%" },
                                c.muted == true ? "muted" : nil,
                            ].compactMap { $0 }.joined(separator: " ")
                        }.joined(separator: ", "))
            }
        case .nowPlaying:
            guard let now = try? JSONDecoder().decode(NowPlaying.self, from: data) else { return }
            guard let session = now.session else { return say("Now playing: nothing") }
            let time = Self.clock(session.currentTime) + (session.duration.map { " / " + Self.clock($0) } ?? "")
            let audio = session.audio.count > 1 ? " · audio \(session.selectedAudio ?? "-") of \(session.audio.map(\.id).joined(separator: ","))" : ""
            let subs =
                session.subtitles.isEmpty ? "" : " · subtitles \(session.selectedSubtitles ?? "off") of \(session.subtitles.map(\.id).joined(separator: ","))"
            let volume = session.volume.map { session.muted == true ? " · muted" : " · volume \(Int(($0 * 100).rounded()))%" } ?? ""
            say(
                "Now playing: \(session.metadata.title ?? "untitled") — \(time) · \(session.status) · \(session.selectedSpeed?.localizedNumericName ?? "1×")\(audio)\(subs)\(volume)"
            )
        case .gameState:
            guard let game = try? JSONDecoder().decode(Game.self, from: data) else { return }
            if let error = game.error { say("Error: \(error)") }
            let cells = game.board.enumerated().map { $0.element.isEmpty ? String($0.offset + 1) : $0.element.uppercased() }
            say(stride(from: 0, to: 9, by: 3).map { cells[$0..<$0 + 3].joined(separator: " | ") }.joined(separator: "\n---------\n"))
            switch game.outcome {
            case "phone-wins": say("You win!")
            case "tv-wins": say("The TV wins.")
            case "draw": say("Draw.")
            default: say(game.phone == nil ? "Pick x or o." : "You are \(game.phone!.uppercased()); your move.")
            }
        default: break
        }
    }

    static func clock(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "–" }
        let total = Int(seconds.rounded(.down))
        return String(format: "%d:%02d", total / 60, total % 60)
    }
}
