import Crypto
import Foundation
import _CryptoExtras

/// AES-128-CBC decryption of whole segments (HLS `METHOD=AES-128`, PKCS7 padding).
enum SegmentDecryptor {
    static func decrypt(_ data: Data, key: Data, iv: [UInt8], url: URL) throws -> Data {
        guard key.count == 16 else {
            throw DownloadError.badKey(url: url, reason: "AES-128 key is \(key.count) bytes, expected 16")
        }
        do {
            return try AES._CBC.decrypt(data, using: SymmetricKey(data: key), iv: AES._CBC.IV(ivBytes: iv))
        } catch {
            throw DownloadError.badKey(url: url, reason: "segment does not decrypt with its key and IV (\(error))")
        }
    }
}
