import DeviceLink
import Foundation
import Hummingbird

/// The bodies `NearbyRoutes` reads and answers.
extension NearbyRoutes {
    struct Overview: ResponseEncodable {
        struct Service: Codable {
            var identifier: String
            var usageDescription: [String: String]
            var platforms: [String]
        }
        struct Paired: Codable {
            var id: String
            var name: String
            var platform: String
            var fingerprint: String
            var services: [String]
            var pairedAt: Date
        }
        var name: String
        var deviceID: String
        var fingerprint: String
        /// The TCP port nearby devices connect to (`marquee remote --connect HOST:PORT`).
        var port: Int?
        var advertised: Bool
        var advertisingProblem: String?
        var services: [Service]
        var pending: [NearbyDevices.PendingPairing]
        /// Pairings this TV started with a device chosen on `/devices`, the newest first.
        var outgoing: [NearbyDevices.OutgoingPairing]
        var paired: [Paired]
        /// Seconds until pairing opens again after too many failed attempts, or null.
        var pairingLockedFor: Double?
        /// Tic-Tac-Toe games against the TV, the most recently played first.
        var games: [Game]
        /// The addresses a phone on the local network opens the web remote at (`http://ADDRESS:PORT/remote`,
        /// with this server's HTTP port); empty when the server listens on loopback only.
        var webRemoteAddresses: [String]
    }

    struct Game: Codable {
        var device: String
        var board: [String]
        var phone: String?
        var tv: String?
        var outcome: String
    }

    /// `GET /api/devices/nearby`: the Marquee devices DNS-SD finds on the local network (not this
    /// TV), filtered by application service and platform; `problem` says why none could be looked for.
    struct NearbyList: ResponseEncodable {
        struct Device: Codable {
            var name: String
            var deviceID: String?
            var platform: String?
            var services: [String]
            var fingerprint: String?
            var host: String
            var port: Int
            var addresses: [String]
            /// `remote` for a `marquee remote --listen`, `tv` for a Marquee server.
            var role: String
        }
        var devices: [Device]
        var problem: String?
    }

    struct Answer: Decodable {
        var approved: Bool
    }

    struct PlayOnBody: Decodable {
        var deviceID: String
        var assetID: String
        var time: Double
        var rate: Double
    }

    struct PlayOnTargets: ResponseEncodable {
        var tvs: [NearbyDevices.PlayOnTarget]
    }
}

/// A Codable value as a JSON response (for types defined outside this module).
struct NearbyJSON<Value: Encodable & Sendable>: ResponseEncodable {
    var value: Value
    init(_ value: Value) { self.value = value }
    func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
}
