import BlockingWork
import Crypto
import Foundation
import NIOPosix
import _CryptoExtras

/// Hashes and checks passwords with scrypt, a memory-hard function: each guess costs an
/// attacker `128 · r · 2^ln` bytes of memory as well as time (32 MiB with the defaults), which
/// is what makes GPU and ASIC cracking expensive — bcrypt (what hummingbird-auth offers) needs
/// 4 KiB. Hashes are stored as `$scrypt$ln=15,r=8,p=1$<salt>$<key>` (base64), so the cost can
/// be raised later and old hashes still verify.
///
/// The work runs on a one-thread `BlockingWork` pool of its own, never on the cooperative pool or an event loop,
/// and one at a time, so a burst of sign-ins cannot take more than one hash's memory.
public struct PasswordHasher: Sendable {
    /// log2 of scrypt's N (CPU/memory cost).
    public var logRounds: Int
    /// scrypt's r (block size; memory grows with it).
    public var blockSize: Int
    /// scrypt's p (parallelisation: independent mixing lanes).
    public var parallelism: Int

    /// The production cost: ln=15, r=8, p=1 (32 MiB, tens of milliseconds).
    public static let standard = PasswordHasher(logRounds: 15, blockSize: 8, parallelism: 1)
    /// A cheap cost for tests (still scrypt).
    public static let fast = PasswordHasher(logRounds: 10, blockSize: 8, parallelism: 1)

    /// A hasher with the given scrypt costs.
    public init(logRounds: Int, blockSize: Int, parallelism: Int) {
        self.logRounds = logRounds
        self.blockSize = blockSize
        self.parallelism = parallelism
    }

    /// One thread of its own (see the type's note).
    private static let pool = BlockingWork.dedicatedPool(threads: 1)
    static let keyLength = 32

    /// A new hash of `password` with a fresh random salt.
    public func hash(_ password: String) async throws -> String {
        var salt = [UInt8](repeating: 0, count: 16)
        var generator = SystemRandomNumberGenerator()
        for index in salt.indices { salt[index] = generator.next() }
        let key = try await Self.derive(password, salt: salt, logRounds: logRounds, blockSize: blockSize, parallelism: parallelism)
        return "$scrypt$ln=\(logRounds),r=\(blockSize),p=\(parallelism)$\(Data(salt).base64EncodedString())$\(Data(key).base64EncodedString())"
    }

    /// Whether `password` matches `stored`; a malformed or over-costly stored hash never does.
    public func verify(_ password: String, against stored: String) async -> Bool {
        guard let parsed = Self.parse(stored),
            let key = try? await Self.derive(password, salt: parsed.salt, logRounds: parsed.ln, blockSize: parsed.r, parallelism: parsed.p)
        else { return false }
        return Self.constantTimeEqual(key, parsed.key)
    }

    /// Spends the same work as a real check, so an unknown name answers as slowly as a wrong
    /// password and names cannot be told apart by timing.
    public func burnEquivalentWork() async {
        _ = try? await Self.derive("", salt: [UInt8](repeating: 0, count: 16), logRounds: logRounds, blockSize: blockSize, parallelism: parallelism)
    }

    struct Parsed {
        var ln: Int
        var r: Int
        var p: Int
        var salt: [UInt8]
        var key: [UInt8]
    }

    static func parse(_ stored: String) -> Parsed? {
        let parts = stored.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0].isEmpty, parts[1] == "scrypt" else { return nil }
        var values: [String: Int] = [:]
        for pair in parts[2].split(separator: ",") {
            let kv = pair.split(separator: "=", maxSplits: 1)
            guard kv.count == 2, let value = Int(kv[1]) else { return nil }
            values[String(kv[0])] = value
        }
        guard let ln = values["ln"], let r = values["r"], let p = values["p"],
            (1...20).contains(ln), (1...32).contains(r), (1...16).contains(p),
            let salt = Data(base64Encoded: String(parts[3])), let key = Data(base64Encoded: String(parts[4])),
            !salt.isEmpty, key.count == keyLength
        else { return nil }
        return Parsed(ln: ln, r: r, p: p, salt: [UInt8](salt), key: [UInt8](key))
    }

    static func derive(_ password: String, salt: [UInt8], logRounds: Int, blockSize: Int, parallelism: Int) async throws -> [UInt8] {
        try await pool.runIfActive {
            let key = try KDF.Scrypt.deriveKey(
                from: Array(password.utf8), salt: salt, outputByteCount: keyLength,
                rounds: 1 << logRounds, blockSize: blockSize, parallelism: parallelism)
            return key.withUnsafeBytes { [UInt8]($0) }
        }
    }

    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
