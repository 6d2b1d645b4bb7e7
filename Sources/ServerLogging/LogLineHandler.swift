public import Logging
import Synchronization

/// A swift-log handler that writes one line per event, with a UTC timestamp to the
/// millisecond, as text or as one JSON object (`--log-format json|text`).
///
/// swift-log ships `StreamLogHandler` (text only, timestamps to the second, in local time);
/// none of the packages in the offline mirror has a JSON handler that does not bring a whole
/// telemetry stack (swift-otel), so this is the small one a server needs.
///
/// Text: `2026-12-03T15:40:00.123Z info marquee.access: GET /api/assets 200 request.id=… route=…`
/// JSON: `{"time":"…","level":"info","label":"marquee.access","message":"GET /api/assets 200","request.id":"…",…}`
/// Metadata keys are sorted, so lines of one kind line up; `time`, `level`, `label` and
/// `message` come first in JSON and are never overwritten by metadata of the same name.
public struct LogLineHandler: LogHandler {
    /// How each line is written.
    public enum Format: String, Sendable, CaseIterable {
        case text, json
    }

    public let label: String
    public let format: Format
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    let output: LogOutput

    /// A handler for `label` writing in `format` to `output` (standard error by default).
    public init(
        label: String, format: Format, level: Logger.Level = .info, output: LogOutput = .standardError,
        metadataProvider: Logger.MetadataProvider? = nil
    ) {
        self.label = label
        self.format = format
        self.logLevel = level
        self.output = output
        self.metadataProvider = metadataProvider
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        // The common case (an access log line: the event's own metadata only) takes it as it is.
        var merged = metadata.isEmpty ? (event.metadata ?? [:]) : metadata
        if let provided = metadataProvider?.get(), !provided.isEmpty { merged.merge(provided) { _, new in new } }
        if !metadata.isEmpty, let extra = event.metadata, !extra.isEmpty { merged.merge(extra) { _, new in new } }
        if let error = event.error { merged["error"] = .string(String(describing: error)) }
        output.write(line(level: event.level, message: event.message.description, metadata: merged, time: LogTimestamp.now()))
    }

    /// The line for one event (with its newline).
    func line(level: Logger.Level, message: String, metadata: Logger.Metadata, time: String) -> String {
        switch format {
        case .text:
            var line = ""
            line.reserveCapacity(160 + message.utf8.count)
            line += time
            line += " "
            line += level.rawValue
            line += " "
            line += label
            line += ": "
            line += message
            // Sorted as pairs (sorting the keys and looking each up again hashed every key twice).
            for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
                line += " "
                line += key
                line += "="
                line += Self.text(value)
            }
            line += "\n"
            return line
        case .json:
            var line = "{\"time\":\(JSONText.quoted(time)),\"level\":\(JSONText.quoted(level.rawValue)),"
            line += "\"label\":\(JSONText.quoted(label)),\"message\":\(JSONText.quoted(message))"
            for (key, value) in metadata.sorted(by: { $0.key < $1.key }) where !["time", "level", "label", "message"].contains(key) {
                line += ",\(JSONText.quoted(key)):\(JSONText.value(value))"
            }
            return line + "}\n"
        }
    }

    /// A metadata value in a text line: as it is when it has no space, tab, quote, `=` or line
    /// break, else quoted (so a line splits into its fields at spaces).
    static func text(_ value: Logger.Metadata.Value) -> String {
        let plain = value.description
        guard plain.isEmpty || needsQuotes(plain) else { return plain }
        return JSONText.quoted(plain)
    }

    /// Whether `plain` has a space, tab, quote, `=` or line break. Read byte by byte (an access log
    /// line's paths and ids are ASCII); only text with other bytes is read as characters.
    static func needsQuotes(_ plain: String) -> Bool {
        var ascii = true
        for byte in plain.utf8 {
            switch byte {
            case 0x09...0x0D, 0x20, 0x22, 0x3D: return true
            case 0x80...: ascii = false
            default: continue
            }
        }
        return !ascii && plain.contains(where: { $0 == " " || $0 == "\t" || $0 == "\"" || $0 == "=" || $0.isNewline })
    }
}

/// The format and level every `LogLineHandler` made from now on takes: `marquee` bootstraps
/// swift-log with such handlers once, at start, and `serve` and `worker` set these from their
/// options before anything logs (other commands keep text at `warning`).
public enum LogSettings {
    private static let current = Mutex<(format: LogLineHandler.Format, level: Logger.Level)>((.text, .warning))

    /// What new handlers take.
    public static var value: (format: LogLineHandler.Format, level: Logger.Level) {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }

    /// The factory for `LoggingSystem.bootstrap`: handlers writing to standard error as `value` says.
    public static func makeHandler(label: String) -> any LogHandler {
        let (format, level) = value
        return LogLineHandler(label: label, format: format, level: level)
    }
}
