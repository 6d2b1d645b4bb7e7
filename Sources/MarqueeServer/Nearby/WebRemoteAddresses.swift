import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Where a phone on the local network reaches this TV's web remote: the IPv4 addresses of its
/// interfaces that are up and not loopback, when the server listens on every interface (or on
/// one of them); none when it listens on loopback only, which no phone can reach.
enum WebRemoteAddresses {
    static func forListening(on host: String?) -> [String] {
        guard let host else { return [] }
        if host == "0.0.0.0" || host == "::" { return interfaceAddresses() }
        if host == "localhost" || host.hasPrefix("127.") || host == "::1" { return [] }
        return [host]
    }

    /// The up, non-loopback IPv4 addresses of this machine's interfaces, in interface order.
    static func interfaceAddresses() -> [String] {
        var result: [String] = []
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var cursor: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = cursor {
            defer { cursor = entry.pointee.ifa_next }
            let flags = Int32(entry.pointee.ifa_flags)
            guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET),
                flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0
            else { continue }
            var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            let ok = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer -> Bool in
                var inAddress = pointer.pointee.sin_addr
                return inet_ntop(AF_INET, &inAddress, &text, socklen_t(INET_ADDRSTRLEN)) != nil
            }
            if ok {
                let value = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if !result.contains(value) { result.append(value) }
            }
        }
        return result
    }
}
