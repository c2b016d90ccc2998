import Foundation
import ShareSheet

/// The person's photo as `prepare` finds it: its format by content, its displayed size, and
/// what in its metadata identifies a place or a camera. Reading it never writes to it.
struct SourcePhoto {
    let url: URL
    let format: PhotoFormat
    /// Width and height as displayed (the orientation applied).
    let width: Int
    let height: Int
    /// The stored pixel size's longer side, before orientation.
    let storedLongEdge: Int
    /// Exif and XMP keys with a location or a serial number.
    let privateKeys: [String]
    /// False when libvips cannot read the picture (a damaged file, or one that only starts like
    /// an image): its size is then unknown (0) and it cannot be resized or converted.
    let decodes: Bool
    /// False when neither libvips nor exiv2 can read the file: no tool reads a location out
    /// of it, so it can only go as it is.
    let metadataIsReadable: Bool

    /// The name messages use: the file's own.
    var name: String { url.lastPathComponent }

    init(_ url: URL) throws {
        self.url = url
        let name = url.lastPathComponent
        let sniffed: PhotoFormat?
        do {
            sniffed = try PhotoFormat(contentsOf: url)
        } catch {
            throw ShareError(.noInput, "\(name): cannot be read (\(Self.reason(error)))", path: url.path)
        }
        guard let format = sniffed, format.isPreparable else {
            throw ShareError(.badData, "\(name): not an image this can read", path: url.path)
        }
        self.format = format

        let header: (width: Int, height: Int, orientation: Int)
        do {
            header = try Vips.header(of: url)
            decodes = true
        } catch {
            header = (0, 0, 1)
            decodes = false
        }
        // Orientations 5 to 8 turn the picture a quarter: width and height swap on screen.
        let turned = (5...8).contains(header.orientation)
        width = turned ? header.height : header.width
        height = turned ? header.width : header.height
        storedLongEdge = max(header.width, header.height)

        do {
            privateKeys = try PhotoMetadata.exclusively { try PhotoMetadata(reading: url.path).privateKeys }
            metadataIsReadable = true
        } catch where !decodes {
            privateKeys = []
            metadataIsReadable = false
        } catch {
            throw ShareError(.badData, "\(name): its metadata cannot be read (\(error))", path: url.path)
        }
    }

    /// The file's size in bytes.
    func byteCount() throws -> Int { try Self.byteCount(of: url) }

    static func byteCount(of url: URL) throws -> Int {
        do {
            return try (FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue ?? 0
        } catch {
            throw ShareError(.noInput, "\(url.lastPathComponent): cannot be read (\(reason(error)))", path: url.path)
        }
    }

    /// An error's reason without Foundation's "The operation could not be completed." preamble
    /// where the POSIX cause is known.
    static func reason(_ error: any Error) -> String {
        if let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if (error as NSError).domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32((error as NSError).code))) }
        return "\(error)"
    }
}
