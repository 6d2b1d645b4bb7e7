import DeviceLink
import Foundation
import Library
import NIOCore

/// "Play on…" between TVs (AirPlay's job): this TV hands the item on its player to another
/// Marquee TV it paired with. It connects to that TV's listener as an already paired device
/// (no code, no approval: both keep the other's identity), sends `playItem` with the item's
/// id, title and duration, the time and the speed, and reports the other TV's answer. The other
/// TV plays its own library's copy of the item (the same id, or the same title and duration)
/// on its open screens.
extension NearbyDevices {
    /// A TV "Play on…" can reach: paired for `remote`, with a known address.
    public struct PlayOnTarget: Sendable, Codable, Hashable {
        public var deviceID: String
        public var name: String
        public var host: String
        public var port: Int
    }

    /// The other TV's answer.
    public struct PlayOnAnswer: Sendable, Codable, Hashable {
        public var device: String
        /// How many of its screens opened the item.
        public var screens: Int
        /// The item it plays (its own library's id).
        public var assetID: String?
    }

    public enum PlayOnError: Error, Sendable, CustomStringConvertible {
        case unknownTV(String)
        case unknownItem(String)
        case badRequest(String)
        case unreachable(String)
        case refused(String)

        public var description: String {
            switch self {
            case .unknownTV(let id): "No paired TV \(id): pair with it on /devices first"
            case .unknownItem(let id): "No item \(id) in this library"
            case .badRequest(let problem): problem
            case .unreachable(let why): why
            case .refused(let why): why
            }
        }
    }

    /// The other TVs this one paired with and can reach, by name.
    public var playOnTargets: [PlayOnTarget] {
        get async {
            var targets: [PlayOnTarget] = []
            for entry in await pairedTVs.all {
                guard let device = await trust.devices.first(where: { $0.id == entry.deviceID }), device.services.contains("remote") else { continue }
                targets.append(.init(deviceID: entry.deviceID, name: device.peer.name, host: entry.host, port: entry.port))
            }
            return targets
        }
    }

    /// Hands `assetID` over to the paired TV `deviceID`, to play from `time` at `rate`.
    public func playOn(
        deviceID: String, assetID: String, time: Double, rate: Double, timeout: Duration = .seconds(10)
    ) async throws
        -> PlayOnAnswer
    {
        guard let entry = await pairedTVs.entry(deviceID: deviceID),
            let device = await trust.devices.first(where: { $0.id == deviceID }), device.services.contains("remote")
        else { throw PlayOnError.unknownTV(deviceID) }
        // The title and duration let the other TV find its own copy (without a library, tests
        // of the link alone, the id goes as it is).
        var asset: Asset?
        if let library {
            asset = try? await library.asset(id: assetID)
            if asset == nil { throw PlayOnError.unknownItem(assetID) }
        }
        let request = NearbyScreens.PlayRequest(assetID: assetID, time: time, rate: rate, title: asset?.title, duration: asset?.duration)
        if let problem = request.problem { throw PlayOnError.badRequest(problem) }
        let client = LinkClient(
            identity: identity, trust: trust, service: "remote", purpose: .connect, expectedFingerprint: device.fingerprint,
            session: "play-on-\(UUID().uuidString.lowercased())", backoff: ReconnectBackoff(attempts: 0), heartbeat: heartbeat,
            connect: { try await TCPTransport.connect(host: entry.host, port: entry.port, timeout: .seconds(3)) },
            approve: { _, _, _ in false })
        await client.start()
        defer { Task { await client.stop() } }
        let payload = Array((try? JSONEncoder().encode(request)) ?? Data())
        // The first thing that happens: the other TV's answer, the link ending, or the timeout.
        let outcome = await withTaskGroup(of: Result<PlayResult, PlayOnError>?.self) { group in
            group.addTask {
                for await event in client.events {
                    if case .connected = event { await client.send(.playItem, payload) }
                    if case .stopped(let reason) = event {
                        return .failure(.unreachable("\(device.peer.name) did not take the link: \(reason)"))
                    }
                }
                return nil
            }
            group.addTask {
                for await message in client.messages where message.type == .intentResult {
                    if let result = try? JSONDecoder().decode(PlayResult.self, from: Data(message.payload)) { return .success(result) }
                }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return Task.isCancelled ? nil : .failure(.unreachable("\(device.peer.name) did not answer in time"))
            }
            var first: Result<PlayResult, PlayOnError>?
            for await next in group {
                if let next {
                    first = next
                    break
                }
            }
            group.cancelAll()
            return first ?? .failure(.unreachable("\(device.peer.name) closed the link"))
        }
        let result = try outcome.get()
        guard result.type == "playing-on-screen" else { throw PlayOnError.refused("\(device.peer.name): \(result.message ?? "refused")") }
        return PlayOnAnswer(device: device.peer.name, screens: result.screens ?? 0, assetID: result.assetID)
    }

    private struct PlayResult: Decodable, Sendable {
        var type: String
        var screens: Int?
        var message: String?
        var assetID: String?
    }

    /// This library's copy of an item another device asked to play.
    enum LocalItem: Sendable, Equatable {
        case found(String)
        case missing(String)
    }

    /// The item itself if this library has it; else, when the sender named it (another TV
    /// handing over), the ready feature with the same title and a duration within a second.
    /// Without a library (tests of the link alone) the id is taken as it is.
    func localItem(for request: NearbyScreens.PlayRequest) async -> LocalItem {
        guard let library else { return .found(request.assetID) }
        if let asset = try? await library.asset(id: request.assetID), asset.role == .feature { return .found(asset.id) }
        guard let title = request.title else { return .missing("playItem needs the id of an item in this TV's library") }
        let candidates = (try? await library.assets(matching: nil)) ?? []
        let match = candidates.first { asset in
            asset.status == .ready && asset.role == .feature && asset.title == title
                && (request.duration == nil || asset.duration == nil || abs((asset.duration ?? 0) - (request.duration ?? 0)) <= 1)
        }
        guard let match else { return .missing("“\(title)” is not in the library of \(identity.name)") }
        return .found(match.id)
    }
}
