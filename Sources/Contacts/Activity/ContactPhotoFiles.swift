import Foundation
import ShareSheetSystem

/// The contacts' embedded photos as files in the cache, for a presenter that draws a face
/// beside each name (the window's list of contacts): a picture is shown from a file, and a card
/// holds its photo as base64 text. Each file is named after its bytes, so an unchanged photo is
/// written once, and the photos no card holds any more are removed.
package enum ContactPhotoFiles {
    /// Writes the photos of `contacts` under `cacheHome`; returns each card's photo file by the
    /// card's URL. A photo that cannot be written is left out (the window draws initials).
    package static func write(_ contacts: [Contact], in cacheHome: URL) -> [URL: String] {
        let folder = cacheHome.appendingPathComponent("sharesheet/contact-photos", isDirectory: true)
        var files: [URL: String] = [:]
        var kept: Set<String> = []
        for contact in contacts {
            guard let data = contact.photo?.data, !data.isEmpty else { continue }
            let name = fingerprint(data)
            let url = folder.appendingPathComponent(name)
            if !FileManager.default.fileExists(atPath: url.path) {
                do {
                    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                    try AtomicFile.write(data, to: url, permissions: 0o600)
                } catch {
                    continue
                }
            }
            kept.insert(name)
            files[contact.fileURL] = url.path
        }
        if let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) {
            for name in names where !name.hasPrefix(".") && !kept.contains(name) {
                try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
            }
        }
        return files
    }

    /// FNV-1a over the bytes, 64 bits, and their count: enough to tell a few thousand photos
    /// apart, and the same name for the same photo in every process (the suggestions' contact
    /// index names its photos by it too).
    package static func fingerprint(_ data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex + "-\(data.count)"
    }
}
