import APNs
import ArgumentParser
import Foundation

/// `marquee push`: talk to APNs as Marquee's Live Activity provider.
struct PushCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Send Live Activity pushes through APNs.",
        subcommands: [PushTestCommand.self]
    )
}

/// `marquee push test --token …`: one Live Activity update to one device, and APNs' answer.
struct PushTestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Send one Live Activity update to a device token and print APNs' answer.",
        discussion: """
            The APNs key, key id, team id and bundle id come from --config (a JSON file: keyFile, keyID, teamID, bundleID, \
            and optionally environment, highPriorityPerHour, host, caFile) or the environment: MARQUEE_APNS_KEY_FILE, \
            MARQUEE_APNS_KEY_ID, MARQUEE_APNS_TEAM_ID, MARQUEE_APNS_BUNDLE_ID, MARQUEE_APNS_ENVIRONMENT (production or \
            sandbox), MARQUEE_APNS_PRIORITY_BUDGET, MARQUEE_APNS_HOST (every APNs service at one base URL, e.g. a local \
            stand-in: https://127.0.0.1:4443) and MARQUEE_APNS_CA_FILE (a PEM file of certificate authorities to trust \
            besides the system's). Exits 0 when APNs accepted the push.
            """
    )

    @Option(help: "The activity's push token, in hex, as the device gave it.")
    var token: String

    @Option(help: "An APNs configuration file (JSON: keyFile, keyID, teamID, bundleID; optional environment, host, caFile).")
    var config: String?

    @Option(help: "production or sandbox (default: the configuration's).")
    var environment: String?

    @Option(help: "The content state, a JSON object.")
    var state = #"{"percent":50}"#

    @Option(help: "update or end.")
    var event = "update"

    @Option(help: "5 or 10.")
    var priority = 10

    @Option(help: "An alert title to show with the update.")
    var alert: String?

    func run() async throws {
        guard let configuration = try APNsConfiguration.load(file: config.map { URL(fileURLWithPath: $0) }) else {
            throw ValidationError(
                "APNs is not configured: pass --config FILE or set MARQUEE_APNS_KEY_FILE, MARQUEE_APNS_KEY_ID, MARQUEE_APNS_TEAM_ID and MARQUEE_APNS_BUNDLE_ID")
        }
        guard let kind = LiveActivityNotification.Event(rawValue: event), kind != .start else {
            throw ValidationError("--event is update or end (a start needs attributes; use the API's push-to-start tokens)")
        }
        guard priority == 5 || priority == 10 else { throw ValidationError("--priority is 5 or 10") }
        var env: APNsEnvironment?
        if let environment {
            guard let parsed = APNsEnvironment(rawValue: environment) else { throw ValidationError("--environment is production or sandbox") }
            env = parsed
        }
        let hex = token.lowercased()
        guard hex.count >= 16, hex.count % 2 == 0, hex.allSatisfy(\.isHexDigit) else {
            throw ValidationError("--token must be the device token in hexadecimal")
        }
        let now = Date()
        let notification = LiveActivityNotification(
            event: kind, timestamp: now, contentState: Data(state.utf8), dismissalDate: kind == .end ? now : nil,
            alert: alert.map { .init(title: $0, body: "") })
        let client = try APNsClient(configuration: configuration)
        let result = await client.send(notification, to: hex, environment: env, priority: priority)
        try? await client.shutdown()
        var line = "\(result.kind.rawValue): \(result.status.map(String.init) ?? "not sent")"
        if let reason = result.reason { line += " \(reason)" }
        line += "  apns-id \(result.apnsID)  attempts \(result.attempts)  priority \(result.priority)\n"
        FileHandle.standardOutput.write(Data(line.utf8))
        if result.kind != .delivered { throw ExitStatus.failed.exitCode }
    }
}
