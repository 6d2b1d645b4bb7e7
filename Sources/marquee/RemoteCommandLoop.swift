import DeviceLink
import Foundation

/// The command loop of `marquee remote`, the same whichever side started the link (the remote
/// connecting to a TV, or a TV choosing a listening remote): reads what the person types,
/// turns each line into a link message (`RemoteCommands`) and hands it to `send`, and says
/// what went wrong with a line. Ends at `quit` or the end of input.
struct RemoteCommandLoop {
    var commands: RemoteCommands
    var output: RemoteOutput
    /// Said when `send` answers that no TV took the message.
    var notConnected: String?

    /// Runs over `lines`; `send` answers whether a TV took the message. Returns after the last
    /// answers had a moment to arrive.
    func run(_ lines: AsyncStream<String>, send: (LinkMessageType, [UInt8]) async -> Bool) async {
        var nextID = 1
        for await line in lines {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.isEmpty { continue }
            if text == "quit" || text == "q" { break }
            do {
                guard let (type, payload) = try commands.frame(for: text, id: nextID) else {
                    output.say(commands.help)
                    continue
                }
                nextID += 1
                if !(await send(type, payload)), let notConnected { output.say(notConnected) }
            } catch {
                output.say("\(error)")
            }
        }
        // Let the last answers arrive, then leave.
        try? await Task.sleep(for: .milliseconds(700))
    }
}
