import Foundation
import UniformTypes

/// An image item: encoded bytes with their type, decoded only when someone needs the pixels.
///
/// The UIImage equivalent. It keeps its own encoding (a JPEG stays a JPEG when saved), knows its
/// pixel size from the file header, and may stand for a file on disk that is read on demand.
public final class Image: Sendable, CustomStringConvertible {
    /// The encoded image type (for example `public.png`).
    public let type: UTType
    /// The file the image was read from, when it came from one.
    public let fileURL: URL?
    private let storedData: Data?
    private let cachedPixelSize = Locked<CGSize?>(nil)

    /// An empty image: useful as a placeholder that says "an image will come".
    public init() {
        type = .image
        fileURL = nil
        storedData = nil
    }

    /// Wraps encoded image bytes; nil when the bytes are not an image.
    public init?(data: Data) {
        let sniffed = UTType.type(ofData: data)
        guard sniffed.conforms(to: .image) else { return nil }
        type = sniffed
        fileURL = nil
        storedData = data
    }

    /// Wraps encoded image bytes whose type is already known.
    public init(data: Data, type: UTType) {
        self.type = type
        fileURL = nil
        storedData = data
    }

    /// Stands for an image file; nil when it is missing or not an image. The bytes are read later.
    public init?(contentsOfFile path: String) {
        let url = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
            !isDirectory.boolValue
        else { return nil }
        let fileType = UTType.type(ofFileAt: url)
        guard fileType.conforms(to: .image) else { return nil }
        type = fileType
        fileURL = url
        storedData = nil
    }

    /// Looks an image up by name in the main bundle's resources and the current directory.
    public convenience init?(named name: String) {
        let candidates = [name, name + ".png", name + ".jpg"]
        let folders = [Bundle.main.resourcePath, FileManager.default.currentDirectoryPath].compactMap { $0 }
        for folder in folders {
            for candidate in candidates {
                let path = (folder as NSString).appendingPathComponent(candidate)
                if FileManager.default.fileExists(atPath: path) {
                    self.init(contentsOfFile: path)
                    return
                }
            }
        }
        return nil
    }

    /// True for the placeholder made by `init()`.
    public var isEmpty: Bool { storedData == nil && fileURL == nil }

    /// The encoded bytes, read from the file when the image stands for one.
    public var encodedData: Data? {
        if let storedData { return storedData }
        guard let fileURL else { return nil }
        return try? Data(contentsOf: fileURL, options: .mappedIfSafe)
    }

    /// The size in pixels, read from the encoded header; zero when unknown.
    public var size: CGSize {
        if let known = cachedPixelSize.withLock({ $0 }) { return known }
        let measured = encodedHeader().flatMap(ImageHeader.pixelSize(of:)) ?? .zero
        cachedPixelSize.withLock { $0 = measured }
        return measured
    }

    public var description: String {
        if isEmpty { return "Image()" }
        let name = fileURL?.lastPathComponent ?? "image"
        return "\(name) (\(type.identifier), \(Int(size.width))×\(Int(size.height)))"
    }

    private func encodedHeader() -> Data? {
        if let storedData { return storedData.prefix(64 * 1024) }
        guard let fileURL, let handle = try? FileHandle(forReadingFrom: fileURL) else { return nil }
        defer { try? handle.close() }
        return try? handle.read(upToCount: 64 * 1024)
    }
}

/// Reads an image's pixel size from the first bytes of PNG, GIF, JPEG and BMP files.
enum ImageHeader {
    static func pixelSize(of header: Data) -> CGSize? {
        let bytes = [UInt8](header)
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]), bytes.count >= 24 {
            return CGSize(width: Double(bigEndian(bytes, 16, 4)), height: Double(bigEndian(bytes, 20, 4)))
        }
        if bytes.starts(with: Array("GIF8".utf8)), bytes.count >= 10 {
            return CGSize(width: Double(littleEndian(bytes, 6, 2)), height: Double(littleEndian(bytes, 8, 2)))
        }
        if bytes.starts(with: [0x42, 0x4D]), bytes.count >= 26 {
            let height = Int32(bitPattern: UInt32(littleEndian(bytes, 22, 4)))
            return CGSize(width: Double(littleEndian(bytes, 18, 4)), height: Double(abs(Int(height))))
        }
        if bytes.starts(with: [0xFF, 0xD8]) { return jpegSize(bytes) }
        return nil
    }

    private static func jpegSize(_ bytes: [UInt8]) -> CGSize? {
        var index = 2
        while index + 9 < bytes.count {
            guard bytes[index] == 0xFF else { index += 1; continue }
            let marker = bytes[index + 1]
            // Start-of-frame markers carry the size; C4, C8 and CC share the range but do not.
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                return CGSize(width: Double(bigEndian(bytes, index + 7, 2)), height: Double(bigEndian(bytes, index + 5, 2)))
            }
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { index += 2; continue }
            index += 2 + bigEndian(bytes, index + 2, 2)
        }
        return nil
    }

    private static func bigEndian(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> Int {
        bytes[offset..<offset + count].reduce(0) { $0 << 8 | Int($1) }
    }

    private static func littleEndian(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> Int {
        bytes[offset..<offset + count].reversed().reduce(0) { $0 << 8 | Int($1) }
    }
}
