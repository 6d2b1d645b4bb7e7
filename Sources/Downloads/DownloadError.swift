public import Foundation
public import HLS

/// Why a download could not be planned or finished, naming the URL or path involved.
public enum DownloadError: Error, Sendable, CustomStringConvertible {
    case http(url: URL, status: Int)
    case gaveUp(url: URL, attempts: Int, reason: String)
    case liveStream(URL)
    case unsupportedEncryption(url: URL, method: String, keyFormat: String?)
    case playlist(url: URL, errors: [Diagnostic])
    case notMultivariant(URL)
    case io(path: String, reason: String)
    case selection(String)
    case badKey(url: URL, reason: String)
    case resume(String)
    case assetList(url: URL, reason: String)

    /// One sentence for a person: the URL or path first, then what went wrong.
    public var description: String {
        switch self {
        case .http(let url, let status): return "\(url.absoluteString): HTTP \(status)"
        case .gaveUp(let url, let attempts, let reason): return "\(url.absoluteString): gave up after \(attempts) attempts: \(reason)"
        case .liveStream(let url): return "\(url.absoluteString): live playlist (no EXT-X-ENDLIST); only video on demand can be downloaded"
        case .unsupportedEncryption(let url, let method, let format):
            return
                "\(url.absoluteString): encrypted with \(method)\(format.map { " (KEYFORMAT \($0))" } ?? ""); only AES-128 with identity keys can be downloaded — nothing was written"
        case .playlist(let url, let errors):
            return "\(url.absoluteString): not a usable playlist: " + errors.prefix(3).map(\.description).joined(separator: "; ")
        case .notMultivariant(let url): return "\(url.absoluteString): expected a multivariant playlist"
        case .io(let path, let reason): return "\(path): \(reason)"
        case .selection(let message): return message
        case .badKey(let url, let reason): return "\(url.absoluteString): \(reason)"
        case .resume(let message): return message
        case .assetList(let url, let reason): return "\(url.absoluteString): not a usable interstitial asset list: \(reason)"
        }
    }
}
