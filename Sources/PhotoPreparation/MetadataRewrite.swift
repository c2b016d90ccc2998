import Foundation
import ShareSheet

/// Original size, metadata removed: the source copied into the folder, then exiv2 rewrites the
/// copy's metadata segments. The image data bytes and the orientation tag stay as they were.
struct MetadataRewrite {
    let photo: SourcePhoto
    let folder: URL

    func run() throws -> PreparedPhoto {
        let pending = PendingFile(folder: folder, name: photo.name)
        do {
            try FileManager.default.copyItem(at: photo.url, to: pending.temporary)
        } catch {
            pending.discard()
            throw ShareError(.ioError, "\(folder.lastPathComponent): \(photo.name) cannot be copied here (\(SourcePhoto.reason(error)))", path: folder.path)
        }
        do {
            try PhotoMetadata.exclusively {
                let metadata = try PhotoMetadata(reading: pending.temporary.path)
                try metadata.removePrivateKeys(isWebP: photo.format == .webp)
                try metadata.save(to: pending.temporary.path)
            }
        } catch {
            pending.discard()
            throw ShareError(.badData, "\(photo.name): its metadata cannot be rewritten (\(error))", path: photo.url.path)
        }
        try pending.commit(photo, as: photo.name, in: folder)
        return PreparedPhoto(
            url: pending.final, pixelWidth: photo.width, pixelHeight: photo.height,
            byteCount: try SourcePhoto.byteCount(of: pending.final), isCopy: true, wasReencoded: false)
    }
}
