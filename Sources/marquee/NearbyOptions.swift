import ArgumentParser
import DeviceLink
import Foundation
import Library
import MarqueeServer

/// `marquee serve`'s nearby-device options: the device-link listener (started at launch,
/// before anything is advertised) and the DNS-SD advertisement.
struct NearbyOptions: ParsableArguments {
    @Option(help: "Port for nearby devices (remotes, games) to connect to (default 7420, or a free one if that is taken; 0 picks a free one).")
    var nearbyPort: Int?

    @Option(help: "The name nearby devices see (default: this machine's host name).")
    var deviceName: String?

    @Flag(help: "Do not listen for nearby devices at all.")
    var noNearby = false

    @Flag(help: "Listen for nearby devices but do not advertise over DNS-SD (Avahi). Serving on a loopback address never advertises.")
    var noAdvertise = false

    /// Starts the listener, then (when the server is reachable from the network) the
    /// advertisement. Returns the devices and a line saying how to reach them, which the
    /// caller prints after the server's ready line.
    func start(
        host: String, dataDirectory: URL, sessions: PlaybackSessions, library: MediaLibrary, pairings: (any DevicePairingStore)? = nil
    ) async throws -> (NearbyDevices, String)? {
        guard !noNearby else { return nil }
        let name = deviceName ?? ProcessInfo.processInfo.hostName
        let devices: NearbyDevices
        if let pairings {
            // Shared by every node (PostgreSQL): one identity, one set of trusted devices.
            devices = NearbyDevices(
                identity: try await pairings.deviceIdentity(name: name, platform: "linux"), trust: try await DeviceTrust(store: pairings),
                sessions: sessions,
                pairedTVs: PairedTVAddresses(file: dataDirectory.appendingPathComponent("devicelink").appendingPathComponent("paired-tvs.json")))
        } else {
            devices = try NearbyDevices(directory: dataDirectory.appendingPathComponent("devicelink"), name: name, sessions: sessions)
        }
        await devices.use(library: library)
        let port: Int
        do {
            if let nearbyPort {
                port = try await devices.listen(host: host, port: nearbyPort)
            } else {
                do { port = try await devices.listen(host: host, port: 7420) } catch { port = try await devices.listen(host: host, port: 0) }
            }
        } catch {
            throw ValidationError("cannot listen for nearby devices on \(host):\(nearbyPort ?? 7420): \(error) (use --nearby-port or --no-nearby)")
        }
        let loopback = host == "localhost" || host.hasPrefix("127.") || host == "::1"
        var line = "Nearby devices can connect on port \(port) (\(devices.identity.fingerprint.prefix(8)))"
        if noAdvertise || loopback {
            let reason = loopback ? "serving on loopback" : "--no-advertise"
            await devices.notAdvertised(because: reason)
            line += "; not advertised (\(reason))"
        } else if let problem = await devices.advertise(port: port) {
            line += "; not advertised: \(problem)"
        } else {
            line += "; advertised as “\(await devices.advertisedName ?? name)” (\(marqueeServiceType))"
        }
        return (devices, line)
    }
}
