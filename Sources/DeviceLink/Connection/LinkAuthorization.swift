/// Decides whether a paired device may send a message on an application service.
///
/// This is the seam access control plugs into: the server's paired-device role is exactly
/// "a `PairedDevice` that this check admits". It is asked for every inbound application
/// message, after the device's trust has been re-checked (a revoked device never gets here).
public protocol LinkAuthorization: Sendable {
    func mayPerform(_ type: LinkMessageType, service: ApplicationService, device: PairedDevice) async -> Bool
}

/// The default rule: the service declares the message, the device was approved for the
/// service, and the device's platform is one the service allows.
public struct ApplicationServiceAuthorization: LinkAuthorization {
    /// The default rule.
    public init() {}

    /// Whether `service` declares `type`, `device` was approved for it, and the device's platform is allowed.
    public func mayPerform(_ type: LinkMessageType, service: ApplicationService, device: PairedDevice) async -> Bool {
        service.allows(type) && device.services.contains(service.identifier) && service.allows(platform: device.peer.platform)
    }
}
