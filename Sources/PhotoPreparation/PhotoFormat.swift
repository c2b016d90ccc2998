import Foundation

/// The image formats photos arrive in, told by their first bytes (never by the file name).
enum PhotoFormat: Sendable, Equatable {
    case jpeg, png, gif, webp, tiff, heif, avif

    /// Bytes enough for every signature below (an ISO-BMFF `ftyp` box's major brand).
    static let signatureLength = 12

    /// The format whose signature `bytes` start with, or nil.
    init?(sniffing bytes: [UInt8]) {
        func starts(with prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && Array(bytes[offset..<offset + prefix.count]) == prefix
        }
        if starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if starts(with: Array("GIF87a".utf8)) || starts(with: Array("GIF89a".utf8)) {
            self = .gif
        } else if starts(with: Array("RIFF".utf8)) && starts(with: Array("WEBP".utf8), at: 8) {
            self = .webp
        } else if starts(with: [0x49, 0x49, 0x2A, 0x00]) || starts(with: [0x4D, 0x4D, 0x00, 0x2A]) {
            self = .tiff
        } else if starts(with: Array("ftyp".utf8), at: 4), bytes.count >= 12 {
            // The major brand says which codec the HEIF container holds.
            switch String(decoding: bytes[8..<12], as: UTF8.self) {
            case "avif", "avis": self = .avif
            case "heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1": self = .heif
            default: return nil
            }
        } else {
            return nil
        }
    }

    /// Reads the first bytes of `url`: nil when they are no photo format, throws when the file
    /// cannot be read.
    init?(contentsOf url: URL) throws {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        let bytes = try handle.read(upToCount: Self.signatureLength) ?? Data()
        self.init(sniffing: Array(bytes))
    }

    /// Formats `prepare` reads.
    var isPreparable: Bool { self != .gif }

    /// Formats every receiver reads, so `convertsToJPEG` leaves them alone.
    var isWidelyReadable: Bool { self == .jpeg || self == .png || self == .gif }

    /// Formats whose metadata exiv2 0.27 writes in place; HEIF and AVIF it only reads.
    var hasWritableMetadata: Bool { [.jpeg, .png, .webp, .tiff].contains(self) }
}
