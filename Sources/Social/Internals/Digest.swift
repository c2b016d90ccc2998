import CGIO
import Foundation

/// GLib's checksums and HMAC, the one place this module calls them.
enum Digest {
    /// HMAC-SHA1 of `message` under `key` (RFC 2104), as raw bytes.
    static func hmacSHA1(key: Data, message: Data) -> Data {
        let hmac = key.withUnsafeBytes { keyBytes in
            g_hmac_new(G_CHECKSUM_SHA1, keyBytes.bindMemory(to: UInt8.self).baseAddress, gsize(keyBytes.count))
        }
        guard let hmac else { return Data() }
        defer { g_hmac_unref(hmac) }
        message.withUnsafeBytes { bytes in
            g_hmac_update(hmac, bytes.bindMemory(to: UInt8.self).baseAddress, gssize(bytes.count))
        }
        var digest = [UInt8](repeating: 0, count: 20)
        var length = gsize(digest.count)
        g_hmac_get_digest(hmac, &digest, &length)
        return Data(digest.prefix(Int(length)))
    }

    /// The SHA-256 of `data` in lowercase hexadecimal.
    static func sha256Hex(_ data: Data) -> String {
        let hex = data.withUnsafeBytes { bytes in
            g_compute_checksum_for_data(G_CHECKSUM_SHA256, bytes.bindMemory(to: UInt8.self).baseAddress, gsize(bytes.count))
        }
        guard let hex else { return "" }
        defer { g_free(hex) }
        return String(cString: hex)
    }
}
