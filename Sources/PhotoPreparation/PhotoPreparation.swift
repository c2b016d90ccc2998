import Foundation
import ShareSheet

/// Prepares photos to leave the machine: resized, without location and camera serial numbers,
/// converted to JPEG where a receiver may not read the format. The person's file is only read.
public enum PhotoPreparation {
    /// True when `url` holds a JPEG, PNG, WebP, HEIC/HEIF, AVIF or TIFF image, told by its first
    /// bytes (its name does not matter). Reads 12 bytes.
    public static func canPrepare(_ url: URL) -> Bool {
        guard let format = try? PhotoFormat(contentsOf: url) else { return false }
        return format.isPreparable
    }

    /// Prepares the photo at `source` as `options` say, into `folder`.
    ///
    /// When nothing has to change, the result is the source itself (`isCopy` false) and nothing
    /// is written. When only metadata goes, the file is copied and its metadata rewritten
    /// (`wasReencoded` false, the image data bytes unchanged, the orientation tag kept). When it
    /// is resized or converted, it is decoded upright and encoded again: as JPEG (quality 85),
    /// or as PNG or WebP when the source is one and is not converted. HEIF and AVIF become JPEG
    /// whenever something has to change, since exiv2 cannot rewrite their metadata.
    ///
    /// The result keeps the source's file name in `folder`, with `.jpg` when it became a JPEG
    /// (`IMG_1.HEIC` → `IMG_1.jpg`); a file of that name is replaced. It is written under a
    /// temporary name and renamed when complete. Safe to call from any thread, concurrently.
    /// - Parameters:
    ///   - source: the photo; never opened for writing.
    ///   - options: the size, the metadata and the format the photo should leave with.
    ///   - folder: an existing folder the caller owns and removes.
    /// - Throws: `ShareError` of kind `.badData` when the source is not an image this reads
    ///   (nothing is written), `.noInput` when it cannot be read, `.ioError` when the folder
    ///   cannot be written (nothing half-written is left), `.usage` when the result would
    ///   replace the source (the folder is the photo's own, under the same name).
    public static func prepare(_ source: URL, options: PhotoOptions, into folder: URL) throws -> PreparedPhoto {
        let photo = try SourcePhoto(source)
        let plan = try PreparationPlan(photo: photo, options: options)
        switch plan.action {
        case .keep:
            return PreparedPhoto(
                url: source, pixelWidth: photo.width, pixelHeight: photo.height, byteCount: try photo.byteCount(),
                isCopy: false, wasReencoded: false)
        case .rewriteMetadata:
            return try MetadataRewrite(photo: photo, folder: folder).run()
        case .reencode(let box, let format):
            return try Reencoding(photo: photo, folder: folder, box: box, format: format, removesLocation: options.removesLocation).run()
        }
    }
}
