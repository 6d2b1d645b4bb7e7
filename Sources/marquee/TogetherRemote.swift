import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// `marquee remote --together LINK`: joins a watch-together group by its invitation link and
/// controls it from the terminal — play, pause, ±10 s, seek, speed, languages — over the
/// server's HTTP API (the same intents a player page sends), printing who is watching and what
/// the group does as it changes. It renders nothing, so it joins as a participant who is not
/// watching: the group never waits for it.
///
/// The link is the credential, as in a browser: off loopback the server answers it with a guest
/// pass (a cookie) this command keeps; with `--token`, an account's API token is sent instead.
struct TogetherRemote {
    let link: String
    let name: String
    let apiToken: String?
    let output: RemoteOutput
    /// How often the group's state is read (a change is printed once).
    var pollInterval: Duration = .seconds(1)

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The server's origin and the invitation's token, from a link `http(s)://HOST[:PORT]/together/TOKEN`.
    static func parse(_ link: String) throws(Failure) -> (origin: String, token: String) {
        guard let url = URLComponents(string: link.trimmingCharacters(in: .whitespaces)), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty
        else { throw Failure(description: "The link must look like http://HOST:PORT/together/TOKEN (the one the player's Watch together panel shows)") }
        let segments = url.path.split(separator: "/")
        guard segments.count == 2, segments[0].lowercased() == "together", !segments[1].isEmpty else {
            throw Failure(description: "The link must look like http://HOST:PORT/together/TOKEN (the one the player's Watch together panel shows)")
        }
        let hostPart = host.contains(":") ? "[\(host)]" : host
        return ("\(scheme)://\(hostPart)\(url.port.map { ":\($0)" } ?? "")", String(segments[1]))
    }

    /// Joins, then runs the typed commands until `quit`, the end of input, or the group's end for this remote.
    func run(lines: AsyncStream<String>) async throws {
        let (origin, token) = try Self.parse(link)
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
        do {
            var linked = GroupAPI(client: client, origin: origin, apiToken: apiToken)
            try await linked.follow(token: token)
            let api = linked
            let joined = try await api.join(token: token, name: name)
            output.say("Joined the group as “\(name)”. \(RemoteCommands(service: "remote").help) status shows who is watching.")
            let session = joined.sessionID
            output.say(Self.summary(joined.state))
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await watch(api, session: session, last: Self.change(joined.state)) }
                group.addTask { try await commands(api, session: session, lines: lines) }
                try await group.next()
                group.cancelAll()
            }
        } catch {
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()
    }

    /// Prints the group's state whenever what a person would notice changes; ends (throwing
    /// the server's sentence) when the session or this remote's access ends.
    func watch(_ api: GroupAPI, session: String, last: String) async throws {
        var last = last
        while !Task.isCancelled {
            try await Task.sleep(for: pollInterval)
            let state = try await api.state(session: session)
            let change = Self.change(state)
            if change != last { output.say(Self.summary(state)) }
            last = change
        }
    }

    /// Turns each typed line into an intent (`RemoteCommands`) and says the answer.
    func commands(_ api: GroupAPI, session: String, lines: AsyncStream<String>) async throws {
        let words = RemoteCommands(service: "remote")
        for await line in lines {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.isEmpty { continue }
            if text == "quit" || text == "q" { return }
            if text == "status" {
                output.say(Self.summary(try await api.state(session: session)))
                continue
            }
            do {
                guard let (_, payload) = try words.frame(for: text, id: 0),
                    var intent = try JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any]
                else {
                    output.say(words.help)
                    continue
                }
                for key in ["v", "type", "id"] { intent[key] = nil }
                let state = try await api.intent(intent, session: session)
                output.say("OK: \(Self.summary(state))")
            } catch let refusal as GroupAPI.Refused {
                output.say("Refused: \(refusal.message)")
            } catch let failure as RemoteCommands.Unknown {
                output.say(failure.description)
            }
        }
    }

    /// What the group looks like in one line: title, time, status and speed, and who is watching or waited for.
    static func summary(_ state: GroupAPI.State) -> String {
        let time = RemoteOutput.clock(state.currentTime) + (state.duration.map { " / " + RemoteOutput.clock($0) } ?? "")
        var line = "\(state.metadata.title ?? "untitled") — \(time) · \(state.status)"
        // The chosen speed, not the momentary rate: a paused group has rate 0 but keeps its speed.
        let speed = state.selectedSpeed?.rate ?? (state.rate > 0 ? state.rate : 1)
        if speed != 1 { line += " · \(String(format: "%g", speed))×" }
        guard let group = state.group else { return line }
        if !group.waitingFor.isEmpty { return line + " · Waiting for \(group.waitingFor.joined(separator: ", "))…" }
        let watching = group.participants.filter { $0.state != "away" }.map(\.name)
        return line + " · Watching together · \(group.watching)" + (watching.isEmpty ? "" : " (\(watching.joined(separator: ", ")))")
    }

    /// The part of the state whose change is worth a line (not the advancing time).
    static func change(_ state: GroupAPI.State) -> String {
        let people = state.group.map { group in
            group.participants.map { "\($0.name)=\($0.state)" }.joined(separator: ",") + "|" + group.waitingFor.joined(separator: ",")
        }
        return "\(state.status)|\(state.rate)|\(state.selectedSpeed?.rate ?? 1)|\(people ?? "")"
    }
}

/// The few calls of the server's API a group remote makes, with the credential it holds.
struct GroupAPI: Sendable {
    let client: HTTPClient
    let origin: String
    let apiToken: String?
    /// The guest pass the link gave, when the server requires sign-in and no token was given.
    var guestCookie: String?

    init(client: HTTPClient, origin: String, apiToken: String?) {
        self.client = client
        self.origin = origin
        self.apiToken = apiToken
    }

    /// What the group's session says (the fields this remote shows).
    struct State: Decodable, Sendable {
        var status: String
        var currentTime: Double
        var duration: Double?
        var rate: Double
        /// The speed the group chose (kept while paused, when `rate` is 0).
        var selectedSpeed: Speed?
        var metadata: Metadata
        struct Speed: Decodable, Sendable { var rate: Double }
        var group: Group?
        struct Metadata: Decodable, Sendable { var title: String? }
        struct Group: Decodable, Sendable {
            var watching: Int
            var waitingFor: [String]
            var participants: [Participant]
        }
        struct Participant: Decodable, Sendable {
            var name: String
            var state: String
        }
    }

    struct Joined: Decodable, Sendable {
        var sessionID: String
        var participantID: String
        var state: State
    }

    private struct IntentAnswer: Decodable {
        var state: State
    }

    private struct ErrorBody: Decodable {
        struct Inner: Decodable { var message: String }
        var error: Inner
    }

    /// The session refused an intent (409): its reason.
    struct Refused: Error {
        var message: String
    }

    /// Opens the link as a browser would: keeps the guest pass it sets.
    mutating func follow(token: String) async throws {
        let response = try await send(.GET, "/together/\(token)")
        guard response.status == .seeOther else { throw failure(response, "open the invitation link") }
        if let cookie = response.headers["set-cookie"].first(where: { $0.hasPrefix("marquee_guest=") }) {
            guestCookie = cookie.split(separator: ";").first.map(String.init)
        }
    }

    func join(token: String, name: String) async throws -> Joined {
        let body = try JSONSerialization.data(withJSONObject: ["name": name])
        let response = try await send(.POST, "/api/together/\(token)/join", body: body)
        guard response.status == .ok else { throw failure(response, "join the group") }
        return try JSONDecoder().decode(Joined.self, from: response.body)
    }

    func state(session: String) async throws -> State {
        let response = try await send(.GET, "/api/sessions/\(session)")
        guard response.status == .ok else { throw failure(response, "read the group's state") }
        return try JSONDecoder().decode(State.self, from: response.body)
    }

    func intent(_ intent: [String: Any], session: String) async throws -> State {
        let body = try JSONSerialization.data(withJSONObject: intent)
        let response = try await send(.POST, "/api/sessions/\(session)/intents", body: body)
        if response.status == .conflict { throw Refused(message: Self.message(response.body) ?? "refused") }
        guard response.status == .ok else { throw failure(response, "send the command") }
        return try JSONDecoder().decode(IntentAnswer.self, from: response.body).state
    }

    private struct Answer {
        var status: HTTPResponseStatus
        var headers: HTTPHeaders
        var body: Data
    }

    private func send(_ method: HTTPMethod, _ path: String, body: Data? = nil) async throws -> Answer {
        var request = HTTPClientRequest(url: origin + path)
        request.method = method
        request.headers.add(name: "Accept", value: "application/json")
        if let apiToken {
            request.headers.add(name: "Authorization", value: "Bearer \(apiToken)")
        } else if let guestCookie {
            request.headers.add(name: "Cookie", value: guestCookie)
        }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let response = try await client.execute(request, timeout: .seconds(10))
        var buffer = try await response.body.collect(upTo: 1 << 22)
        let bytes = buffer.readBytes(length: buffer.readableBytes) ?? []
        return Answer(status: response.status, headers: response.headers, body: Data(bytes))
    }

    private static func message(_ body: Data) -> String? {
        (try? JSONDecoder().decode(ErrorBody.self, from: body))?.error.message
    }

    private func failure(_ response: Answer, _ what: String) -> TogetherRemote.Failure {
        TogetherRemote.Failure(
            description: "Could not \(what): \(Self.message(response.body) ?? "the server answered \(response.status.code) \(response.status.reasonPhrase)")")
    }
}
