public import Foundation

/// An application service a device offers to nearby devices, declared in configuration like
/// `NSApplicationServices`: an identifier, the usage description the picker shows (English and
/// Japanese), the platforms that may connect, and the messages a paired device may send.
public struct ApplicationService: Sendable, Hashable, Codable, Identifiable {
    /// The service's name in handshakes and TXT records (`remote`).
    public var identifier: String
    /// What the picker says the service is for, per language code.
    public var usageDescription: [String: String]
    /// The platforms that may connect (`linux`, `web`), or `*` for any.
    public var platforms: [String]
    /// Names of the `LinkMessageType`s a paired device may send on this service.
    public var messages: [String]

    /// The identifier.
    public var id: String { identifier }

    /// A service declared field by field.
    public init(identifier: String, usageDescription: [String: String], platforms: [String], messages: [String]) {
        self.identifier = identifier
        self.usageDescription = usageDescription
        self.platforms = platforms
        self.messages = messages
    }

    /// The usage description in `language`, falling back to English.
    public func usageDescription(language: String) -> String {
        usageDescription[language] ?? usageDescription["en"] ?? identifier
    }

    /// Whether a device of `platform` may connect (`*` admits any).
    public func allows(platform: String) -> Bool {
        platforms.contains("*") || platforms.contains(platform)
    }

    /// Whether a paired device may send `type` on this service.
    public func allows(_ type: LinkMessageType) -> Bool {
        type == .heartbeat || type == .goodbye || messages.contains(String(describing: type))
    }
}

/// The application services a device declares, by identifier.
public struct ApplicationServices: Sendable, Hashable, Codable {
    /// The services, in declaration order.
    public var services: [ApplicationService]

    /// A declaration of `services`.
    public init(_ services: [ApplicationService]) {
        self.services = services
    }

    /// The service with `identifier`, if declared.
    public subscript(identifier: String) -> ApplicationService? {
        services.first { $0.identifier == identifier }
    }

    /// Reads a configuration file: `{"services": [{"identifier": …, "usageDescription": {"en": …, "ja": …},
    /// "platforms": […], "messages": […]}]}`.
    public static func load(from url: URL) throws -> ApplicationServices {
        try JSONDecoder().decode(ApplicationServices.self, from: Data(contentsOf: url))
    }

    /// What Marquee ships: `remote` (control playback) and `tictactoe` (the sample game).
    public static let marquee: ApplicationServices = {
        let url = Bundle.module.url(forResource: "application-services", withExtension: "json")
        // The bundled file is part of the build; a broken one fails the tests that load it.
        return (try? url.map(load(from:))) ?? ApplicationServices([])
    }()
}
