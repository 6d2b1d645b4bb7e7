import ArgumentParser
import Logging
import ServerLogging

/// `--log-format`, `--log-level` and `--no-access-log`: how `serve` and `worker` write their
/// log — every line through swift-log, with a UTC timestamp, to standard error.
struct LogOptions: ParsableArguments {
    @Option(help: "How log lines are written: text, or json (one object per line). Both start with a UTC timestamp to the millisecond.")
    var logFormat = "text"

    @Option(help: "The least severe level written: trace, debug, info, notice, warning, error or critical.")
    var logLevel = "info"

    @Flag(inversion: .prefixedNo, help: "One access log line per request (method, path, route, status, bytes, duration, request id).")
    var accessLog = true

    func validate() throws {
        guard LogLineHandler.Format(rawValue: logFormat) != nil else { throw ValidationError("--log-format must be text or json") }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    /// Makes every logger made from now on write as these options say (`Marquee.main`
    /// bootstrapped swift-log with `LogSettings`' handlers).
    func apply() {
        LogSettings.value = (LogLineHandler.Format(rawValue: logFormat) ?? .text, Logger.Level(rawValue: logLevel) ?? .info)
    }
}
