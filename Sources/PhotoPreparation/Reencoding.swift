import Foundation
import ShareSheet

/// Resized or converted: libvips decodes the photo upright (shrinking on load) and encodes it
/// again with its metadata; then exiv2 removes the location and serials if asked, and records
/// the orientation as upright, since the pixels now are.
struct Reencoding {
    let photo: SourcePhoto
    let folder: URL
    let box: Int
    let format: OutputFormat
    let removesLocation: Bool

    /// The result's name: the source's, with the new format's extension when the format changed.
    var name: String {
        let unchanged: Bool =
            switch (photo.format, format) {
            case (.jpeg, .jpeg), (.png, .png), (.webp, .webp): true
            default: false
            }
        if unchanged { return photo.name }
        let stem = (photo.name as NSString).deletingPathExtension
        return (stem.isEmpty ? photo.name : stem) + "." + format.fileExtension
    }

    func run() throws -> PreparedPhoto {
        // Checked first, so a folder that cannot be written is an I/O error, not bad data.
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue,
            access(folder.path, W_OK) == 0
        else {
            throw ShareError(.ioError, "\(folder.lastPathComponent): not a folder this can write to", path: folder.path)
        }
        let pending = PendingFile(folder: folder, name: name)
        let size: (width: Int, height: Int)
        do {
            size = try Vips.thumbnail(photo.url, fittingIn: box, as: format, to: pending.temporary.path)
        } catch {
            pending.discard()
            throw ShareError(.badData, "\(photo.name): not an image this can read (\(error))", path: photo.url.path)
        }
        do {
            try PhotoMetadata.exclusively {
                let metadata = try PhotoMetadata(reading: pending.temporary.path)
                var changed = false
                if removesLocation && !metadata.privateKeys.isEmpty {
                    try metadata.removePrivateKeys(isWebP: format == .webp)
                    changed = true
                }
                if metadata.hasOrientation {
                    try metadata.markUpright()
                    changed = true
                }
                if changed { try metadata.save(to: pending.temporary.path) }
            }
        } catch {
            pending.discard()
            throw ShareError(.badData, "\(photo.name): its metadata cannot be rewritten (\(error))", path: photo.url.path)
        }
        try pending.commit(photo, as: name, in: folder)
        return PreparedPhoto(
            url: pending.final, pixelWidth: size.width, pixelHeight: size.height,
            byteCount: try SourcePhoto.byteCount(of: pending.final), isCopy: true, wasReencoded: true)
    }
}
