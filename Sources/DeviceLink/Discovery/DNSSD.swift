import CDNSSD
public import Foundation
import Synchronization

/// The DNS-SD service type Marquee advertises and browses.
public let marqueeServiceType = "_marquee._tcp"

/// Why advertising or browsing failed: DNS-SD's error code, named where it matters.
public struct DNSSDError: Error, CustomStringConvertible, Sendable {
    /// DNS-SD's `kDNSServiceErr_…` code.
    public var code: Int32
    /// The call that failed (`DNSServiceRegister`), for the message.
    public var operation: String

    /// kDNSServiceErr_NameConflict.
    public static let nameConflict: Int32 = -65548
    /// kDNSServiceErr_BadParam.
    public static let badParameter: Int32 = -65540

    /// The call and what the code means, with what to do when that is known.
    public var description: String {
        switch code {
        case -65563: "\(operation): the mDNS daemon is not running (start avahi-daemon)"
        case Self.nameConflict: "\(operation): the service name is already in use"
        case Self.badParameter: "\(operation): DNS-SD refused a parameter (a name over 63 bytes?)"
        default: "\(operation): DNS-SD error \(code)"
        }
    }
}

/// A service's TXT record: `key=value` strings, each prefixed by its length.
public enum TXTRecord {
    /// The record's bytes, entries in order; an entry longer than 255 bytes is cut to 255.
    public static func encode(_ entries: [(String, String)]) -> [UInt8] {
        var bytes = [UInt8]()
        for (key, value) in entries {
            let entry = Array("\(key)=\(value)".utf8.prefix(255))
            bytes.append(UInt8(entry.count))
            bytes.append(contentsOf: entry)
        }
        return bytes
    }

    /// The entries by key; a key without `=` maps to "", and a truncated last entry is ignored.
    public static func decode(_ bytes: [UInt8]) -> [String: String] {
        var result: [String: String] = [:]
        var index = 0
        while index < bytes.count {
            let length = Int(bytes[index])
            index += 1
            guard index + length <= bytes.count else { break }
            let entry = String(decoding: bytes[index..<(index + length)], as: UTF8.self)
            index += length
            guard let equals = entry.firstIndex(of: "=") else {
                if !entry.isEmpty { result[entry] = "" }
                continue
            }
            result[String(entry[..<equals])] = String(entry[entry.index(after: equals)...])
        }
        return result
    }
}

/// Runs one DNS-SD reference's callbacks on the calling thread (never the cooperative pool:
/// `poll` blocks) until `done` or the deadline.
private func process(_ ref: DNSServiceRef, until deadline: Date, done: () -> Bool) -> DNSServiceErrorType {
    let fd = DNSServiceRefSockFD(ref)
    guard fd >= 0 else { return -65537 }
    while !done() {
        let remaining = deadline.timeIntervalSinceNow
        if remaining <= 0 { return 0 }
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, Int32(min(remaining, 0.2) * 1000))
        if ready > 0 {
            let error = DNSServiceProcessResult(ref)
            if error != 0 { return error }
        }
    }
    return 0
}

/// Runs blocking DNS-SD work on a thread of its own and returns its result.
private func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try work() }) }
        thread.start()
    }
}

/// A registered DNS-SD service; it stays advertised until `stop()`.
///
/// A thread of its own owns the service reference: it answers the daemon (name conflicts,
/// re-registration) and, once stopped, withdraws the service. `stop()` only tells it to, so
/// it never waits on the daemon; the withdrawal follows within 0.2 s.
public final class DNSSDAdvertisement: Sendable {
    private let ref: UncheckedRef
    private let stopped = Mutex(false)
    /// The name as advertised (shortened or numbered when it had to be).
    public let name: String

    /// Registers `name` of `type` on `port` with a TXT record, as mDNS responders do: a name
    /// longer than DNS-SD's 63 bytes is shortened at a character boundary, and a name another
    /// device already uses becomes "Name (2)", "Name (3)", … (Avahi's compatibility library
    /// does not rename by itself). `name` on the result is the one advertised. Fails with a
    /// clear error when the daemon is not running. Returns once the daemon confirmed.
    public static func register(name: String, type: String = marqueeServiceType, port: Int, txt: [(String, String)]) async throws -> DNSSDAdvertisement {
        var attempt = 1
        while true {
            let candidate = ServiceInstanceName.candidate(name, attempt: attempt)
            do {
                return try await registerOnce(name: candidate, type: type, port: port, txt: txt)
            } catch let error as DNSSDError where error.code == DNSSDError.nameConflict && attempt < ServiceInstanceName.mostAttempts {
                attempt += 1
            }
        }
    }

    private static func registerOnce(name: String, type: String, port: Int, txt: [(String, String)]) async throws -> DNSSDAdvertisement {
        setenv("AVAHI_COMPAT_NOWARN", "1", 1)
        let record = TXTRecord.encode(txt)
        let box = RegistrationBox()
        let ref = try await onOwnThread {
            var ref: DNSServiceRef?
            let context = Unmanaged.passUnretained(box).toOpaque()
            let error = record.withUnsafeBytes { txt in
                DNSServiceRegister(
                    &ref, 0, 0, name, type, nil, nil, UInt16(port).bigEndian, UInt16(txt.count), txt.baseAddress,
                    { _, _, error, name, _, _, context in
                        let box = Unmanaged<RegistrationBox>.fromOpaque(context!).takeUnretainedValue()
                        box.error = error
                        box.name = name.map { String(cString: $0) }
                        box.done = true
                    }, context)
            }
            guard error == 0, let ref else { throw DNSSDError(code: error, operation: "advertising \(type)") }
            let processed = process(ref, until: Date().addingTimeInterval(10)) { box.done }
            if processed != 0 || box.error != 0 || !box.done {
                DNSServiceRefDeallocate(ref)
                throw DNSSDError(code: processed != 0 ? processed : (box.done ? box.error : -65568), operation: "advertising \(type)")
            }
            return UncheckedRef(ref: ref)
        }
        let advertisement = DNSSDAdvertisement(ref: ref, name: box.name ?? name)
        let keep = Thread { advertisement.serve() }
        keep.start()
        return advertisement
    }

    private init(ref: UncheckedRef, name: String) {
        self.ref = ref
        self.name = name
    }

    private var isStopped: Bool { stopped.withLock { $0 } }

    /// Keeps answering the daemon until stopped, then withdraws the service. Runs on the
    /// advertisement's own thread, the only one that touches the reference.
    private func serve() {
        while !isStopped {
            let error = process(ref.ref, until: Date().addingTimeInterval(0.5)) { self.isStopped }
            // The daemon went away: wait before asking again instead of spinning.
            if error != 0 { Thread.sleep(forTimeInterval: 0.5) }
        }
        DNSServiceRefDeallocate(ref.ref)
    }

    /// Withdraws the advertisement (within 0.2 s, on its own thread).
    public func stop() {
        stopped.withLock { $0 = true }
    }
}

/// What the registration callback reports. Unchecked: the callback runs on the registering
/// thread, inside `process`, and the box is read there after it returns.
private final class RegistrationBox: @unchecked Sendable {
    var done = false
    var error: DNSServiceErrorType = 0
    var name: String?
}

/// A DNS-SD reference handed from the registering thread to the advertisement's thread,
/// which alone uses it from then on.
private struct UncheckedRef: @unchecked Sendable { var ref: DNSServiceRef }

/// A device found by browsing, resolved to its host, port, TXT record and addresses.
public struct DiscoveredDevice: Sendable, Hashable {
    /// The service instance name.
    public var name: String
    /// The host name it resolved to (`tv.local.`).
    public var host: String
    /// The TCP port of its link listener.
    public var port: Int
    /// Its TXT record's entries.
    public var txt: [String: String]
    /// IPv4 and IPv6 addresses of the host (link-local IPv6 with its interface), in the order found.
    public var addresses: [String]
    /// The network interface it was found on.
    public var interfaceIndex: UInt32

    /// The device ID it advertises (`id`).
    public var deviceID: String? { txt["id"] }
    /// Its identity key's fingerprint as advertised (`fp`), to check in the handshake.
    public var fingerprint: String? { txt["fp"] }
    /// Its platform (`pf`).
    public var platform: String? { txt["pf"] }
    /// The name to show: the TXT record's `name`, else the instance name.
    public var friendlyName: String { txt["name"] ?? name }
    /// The application services it offers (`services`, comma-separated).
    public var services: [String] { (txt["services"] ?? "").split(separator: ",").map(String.init) }
}

/// Browses DNS-SD for Marquee devices and resolves them.
public enum DNSSDBrowser {
    /// Browses `type` for `duration`, then resolves each instance found (host, port, TXT) and
    /// its addresses. Filter by `service` (an application service identifier) and `platform`.
    public static func browse(
        type: String = marqueeServiceType, for duration: TimeInterval = 3,
        service: String? = nil
    ) async throws -> [DiscoveredDevice] {
        setenv("AVAHI_COMPAT_NOWARN", "1", 1)
        let found = try await onOwnThread { try browseBlocking(type: type, duration: duration) }
        return found.filter { service == nil || $0.services.contains(service!) }
    }

    /// What the browse and resolve callbacks report. Unchecked: the callbacks run on the
    /// browsing thread, inside `process`.
    private final class Box: @unchecked Sendable {
        var instances: [(name: String, type: String, domain: String, interface: UInt32)] = []
        var resolved: (host: String, port: Int, txt: [UInt8])?
        var addresses: [String] = []
        var error: DNSServiceErrorType = 0
    }

    private static func browseBlocking(type: String, duration: TimeInterval) throws -> [DiscoveredDevice] {
        let box = Box()
        let context = Unmanaged.passUnretained(box).toOpaque()
        var browseRef: DNSServiceRef?
        var error = DNSServiceBrowse(
            &browseRef, 0, 0, type, nil,
            { _, flags, interface, error, name, type, domain, context in
                let box = Unmanaged<Box>.fromOpaque(context!).takeUnretainedValue()
                guard error == 0 else {
                    box.error = error
                    return
                }
                guard flags & DNSServiceFlags(kDNSServiceFlagsAdd) != 0, let name, let type, let domain else { return }
                let instance = (String(cString: name), String(cString: type), String(cString: domain), interface)
                if !box.instances.contains(where: { $0.name == instance.0 && $0.interface == instance.3 }) { box.instances.append(instance) }
            }, context)
        guard error == 0, let browseRef else { throw DNSSDError(code: error, operation: "browsing \(type)") }
        error = process(browseRef, until: Date().addingTimeInterval(duration)) { box.error != 0 }
        DNSServiceRefDeallocate(browseRef)
        if error == 0 { error = box.error }
        if error != 0 { throw DNSSDError(code: error, operation: "browsing \(type)") }

        var devices: [DiscoveredDevice] = []
        for instance in box.instances {
            box.resolved = nil
            var resolveRef: DNSServiceRef?
            guard
                DNSServiceResolve(
                    &resolveRef, 0, instance.interface, instance.name, instance.type, instance.domain,
                    { _, _, _, error, _, host, port, txtLength, txt, context in
                        let box = Unmanaged<Box>.fromOpaque(context!).takeUnretainedValue()
                        guard error == 0, let host else { return }
                        let record = txt.map { Array(UnsafeBufferPointer(start: $0, count: Int(txtLength))) } ?? []
                        box.resolved = (String(cString: host), Int(UInt16(bigEndian: port)), record)
                    }, context) == 0, let resolveRef
            else { continue }
            _ = process(resolveRef, until: Date().addingTimeInterval(5)) { box.resolved != nil }
            DNSServiceRefDeallocate(resolveRef)
            guard let resolved = box.resolved else { continue }
            box.addresses = []
            for recordType in [UInt16(kDNSServiceType_A), UInt16(kDNSServiceType_AAAA)] {
                var queryRef: DNSServiceRef?
                guard
                    DNSServiceQueryRecord(
                        &queryRef, 0, instance.interface, resolved.host, recordType, UInt16(kDNSServiceClass_IN),
                        { _, _, interface, error, _, type, _, length, data, _, context in
                            let box = Unmanaged<Box>.fromOpaque(context!).takeUnretainedValue()
                            guard error == 0, let data else { return }
                            let bytes = Array(UnsafeRawBufferPointer(start: data, count: Int(length)))
                            if let address = Self.address(bytes, interface: interface), !box.addresses.contains(address) {
                                box.addresses.append(address)
                            }
                        }, context) == 0, let queryRef
                else { continue }
                let before = box.addresses.count
                _ = process(queryRef, until: Date().addingTimeInterval(recordType == UInt16(kDNSServiceType_A) ? 2 : 0.5)) { box.addresses.count > before }
                DNSServiceRefDeallocate(queryRef)
            }
            devices.append(
                DiscoveredDevice(
                    name: instance.name, host: resolved.host, port: resolved.port, txt: TXTRecord.decode(resolved.txt),
                    addresses: box.addresses, interfaceIndex: instance.interface))
        }
        return devices
    }

    private static func address(_ bytes: [UInt8], interface: UInt32) -> String? {
        switch bytes.count {
        case 4: return bytes.map(String.init).joined(separator: ".")
        case 16:
            var storage = in6_addr()
            withUnsafeMutableBytes(of: &storage) { $0.copyBytes(from: bytes) }
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            guard inet_ntop(AF_INET6, &storage, &text, socklen_t(text.count)) != nil else { return nil }
            let address = String(cString: text)
            if address.hasPrefix("fe80"), interface > 0, let name = Self.interfaceName(interface) { return "\(address)%\(name)" }
            return address
        default: return nil
        }
    }

    private static func interfaceName(_ index: UInt32) -> String? {
        var name = [CChar](repeating: 0, count: Int(IF_NAMESIZE))
        return if_indextoname(index, &name) != nil ? String(cString: name) : nil
    }
}
