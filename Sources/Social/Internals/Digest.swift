import CGIO
import Foundation
import ShareSheet

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

    /// The SHA-256 of a file in lowercase hexadecimal, read in 1 MB pieces (never whole).
    /// - Throws: `ShareError(.noInput)` naming the file when it cannot be read.
    static func sha256Hex(ofFile url: URL) throws -> String {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ShareError(.noInput, "\(url.path): cannot be read") }
        defer { close(descriptor) }
        guard let checksum = g_checksum_new(G_CHECKSUM_SHA256) else { return "" }
        defer { g_checksum_free(checksum) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw ShareError(.noInput, "\(url.path): cannot be read: \(String(cString: strerror(errno)))")
            }
            g_checksum_update(checksum, buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), gssize(count))
        }
        return String(cString: g_checksum_get_string(checksum))
    }
}

extension SocialAttachment {
    /// The SHA-256 of the attachment's bytes, a file read piece by piece.
    func sha256Hex() throws -> String {
        switch source {
        case .data(let data): return Digest.sha256Hex(data)
        case .file(let url): return try Digest.sha256Hex(ofFile: url)
        }
    }
}
