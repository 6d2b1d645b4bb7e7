import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat

/// Reads a playlist from a file path or fetches it over HTTP(S) with AsyncHTTPClient
/// (redirects followed, bounded timeouts), returning its bytes and final URL.
struct PlaylistSource {
    struct Loaded {
        var data: Data
        /// The URL the playlist was finally read from (after redirects), for resolving URIs.
        var url: URL
    }

    /// A failure to read or fetch, with a message a user can act on.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static let maximumPlaylistSize = 64 << 20

    static func load(_ location: String, timeout: TimeAmount = .seconds(20)) async throws -> Loaded {
        if let url = URL(string: location), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" {
            return try await fetch(url, timeout: timeout)
        }
        let url = location.hasPrefix("file://") ? URL(string: location)! : URL(fileURLWithPath: location)
        do {
            let data = try await Task.detached { try Data(contentsOf: url, options: .mappedIfSafe) }.value
            return Loaded(data: data, url: url)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            throw Failure(description: "\(url.path): no such file")
        } catch {
            throw Failure(description: "\(url.path): \(error.localizedDescription)")
        }
    }

    static func fetch(_ url: URL, timeout: TimeAmount) async throws -> Loaded {
        var configuration = HTTPClient.Configuration(redirectConfiguration: .follow(max: 10, allowCycles: false))
        configuration.timeout = .init(connect: .seconds(10), read: timeout)
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            let request = HTTPClientRequest(url: url.absoluteString)
            let response = try await client.execute(request, timeout: timeout)
            guard (200..<300).contains(response.status.code) else {
                throw Failure(description: "\(url.absoluteString): HTTP \(response.status.code) \(response.status.reasonPhrase)")
            }
            let body = try await response.body.collect(upTo: maximumPlaylistSize)
            let finalURL = response.url ?? url
            try await client.shutdown()
            return Loaded(data: Data(buffer: body), url: finalURL)
        } catch {
            try? await client.shutdown()
            if let failure = error as? Failure { throw failure }
            throw Failure(description: "\(url.absoluteString): \(describe(error, host: url.host ?? ""))")
        }
    }

    /// Plain words for the usual network failures.
    static func describe(_ error: Error, host: String) -> String {
        if let e = error as? HTTPClientError {
            switch e {
            case .connectTimeout: return "timed out connecting to \(host)"
            case .readTimeout, .deadlineExceeded: return "timed out waiting for the server"
            case .redirectLimitReached: return "too many redirects"
            case .redirectCycleDetected: return "redirect loop"
            case .remoteConnectionClosed: return "the server closed the connection"
            case .tlsHandshakeTimeout: return "TLS handshake timed out"
            default: return "\(e)"
            }
        }
        let text = String(reflecting: error)
        if text.contains("dnsAError") || text.contains("dnsAAAAError") || text.contains("SocketAddressError") || text.contains("unknown host") {
            return "could not resolve host '\(host)' (DNS lookup failed)"
        }
        if text.contains("connectionRefused") || text.contains("Connection refused") {
            return "connection refused by \(host)"
        }
        if text.contains("NIOSSL") || text.contains("BoringSSL") || text.contains("handshake") || text.contains("certificate") {
            return "TLS error talking to \(host): \(text)"
        }
        if text.contains("ResponseTooBig") || text.contains("tooManyBytes") {
            return "playlist is larger than \(maximumPlaylistSize) bytes"
        }
        return text
    }
}
