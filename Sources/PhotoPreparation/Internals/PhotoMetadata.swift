import CGexiv2
import Foundation
import GLibErrors
import Synchronization

/// One photo's metadata read by gexiv2 (exiv2): what in it identifies a place or a camera, and
/// the edits `prepare` makes on its own copies. Used inside one call of `prepare`, never shared.
final class PhotoMetadata {
    private let metadata: UnsafeMutablePointer<GExiv2Metadata>

    /// exiv2's XMP toolkit, as gexiv2 starts it, has no lock of its own, and every parse and
    /// save goes through it: one photo's metadata at a time, in the whole process.
    private static let exclusive = Mutex<Void>(())

    /// gexiv2 started once per process (a global's initializer runs exactly once).
    private static let started: Bool = gexiv2_initialize() != 0

    /// Runs `body` holding the process's one gexiv2 lock, gexiv2 started.
    static func exclusively<T>(_ body: () throws -> T) throws -> T {
        try exclusive.withLock { _ in
            guard started else { throw GLibError(call: "gexiv2_initialize", domain: "", code: 0, message: "exiv2 could not start") }
            return try body()
        }
    }

    /// Reads the metadata of the file at `path`; the file is only read. Call inside `exclusively`.
    init(reading path: String) throws {
        guard let metadata = gexiv2_metadata_new() else {
            throw GLibError(call: "gexiv2_metadata_new", domain: "", code: 0, message: "out of memory")
        }
        var error: UnsafeMutablePointer<GError>?
        guard gexiv2_metadata_open_path(metadata, path, &error) != 0 else {
            g_object_unref(metadata)
            throw GLibError(taking: &error, call: "gexiv2_metadata_open_path")
        }
        self.metadata = metadata
    }

    deinit { g_object_unref(metadata) }

    /// Every Exif and XMP key present ("Exif.GPSInfo.GPSLatitude", "Xmp.aux.SerialNumber").
    var keys: [String] {
        Self.strings(gexiv2_metadata_get_exif_tags(metadata)) + Self.strings(gexiv2_metadata_get_xmp_tags(metadata))
    }

    /// The keys that say where the photo was taken or which camera or lens took it: the Exif
    /// GPS IFD, XMP's GPS properties, and every serial number (Exif, the makers' notes, XMP).
    var privateKeys: [String] {
        keys.filter { key in
            key.hasPrefix("Exif.GPSInfo.") || key.hasPrefix("Xmp.exif.GPS") || key.contains("SerialNumber")
        }
    }

    /// True when an Exif or XMP orientation is recorded.
    var hasOrientation: Bool {
        let present = Set(keys)
        return present.contains("Exif.Image.Orientation") || present.contains("Xmp.tiff.Orientation")
    }

    /// Removes the location and the serial numbers (in memory; `save` writes them).
    /// - Parameter isWebP: the file is a WebP, whose writer in exiv2 0.27 keeps the old XMP
    ///   chunk as it was when no XMP property is left (it writes the packet it read instead of
    ///   an empty one). There the image's pixel size is restated in XMP, a fact the file holds
    ///   anyway, so the packet is encoded again, without what was removed.
    func removePrivateKeys(isWebP: Bool) throws {
        let hadXMP = keys.contains { $0.hasPrefix("Xmp.") }
        var error: UnsafeMutablePointer<GError>?
        gexiv2_metadata_try_delete_gps_info(metadata, &error)
        if error != nil { throw GLibError(taking: &error, call: "gexiv2_metadata_try_delete_gps_info") }
        // The GPS call leaves serial numbers, and XMP GPS properties it does not know.
        for key in privateKeys {
            guard gexiv2_metadata_try_clear_tag(metadata, key, &error) != 0 || error == nil else {
                throw GLibError(taking: &error, call: "gexiv2_metadata_try_clear_tag(\(key))")
            }
        }
        if isWebP && hadXMP && !keys.contains(where: { $0.hasPrefix("Xmp.") }) {
            let size = [
                ("Xmp.exif.PixelXDimension", gexiv2_metadata_get_pixel_width(metadata)),
                ("Xmp.exif.PixelYDimension", gexiv2_metadata_get_pixel_height(metadata)),
            ]
            for (key, value) in size {
                guard gexiv2_metadata_try_set_tag_string(metadata, key, String(value), &error) != 0 else {
                    throw GLibError(taking: &error, call: "gexiv2_metadata_try_set_tag_string(\(key))")
                }
            }
        }
    }

    /// Records the orientation as "upright" (1), for pixels that have been turned upright.
    func markUpright() throws {
        var error: UnsafeMutablePointer<GError>?
        gexiv2_metadata_try_set_orientation(metadata, GEXIV2_ORIENTATION_NORMAL, &error)
        if error != nil { throw GLibError(taking: &error, call: "gexiv2_metadata_try_set_orientation") }
    }

    /// Writes the metadata into the file at `path`: only its metadata segments are rewritten,
    /// the image data is copied as it is.
    func save(to path: String) throws {
        var error: UnsafeMutablePointer<GError>?
        guard gexiv2_metadata_save_file(metadata, path, &error) != 0 else {
            throw GLibError(taking: &error, call: "gexiv2_metadata_save_file")
        }
    }

    /// A NULL-terminated `gchar **` as strings; frees it.
    private static func strings(_ list: UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>?) -> [String] {
        guard let list else { return [] }
        defer { g_strfreev(list) }
        var result: [String] = []
        var index = 0
        while let item = list[index] {
            result.append(String(cString: item))
            index += 1
        }
        return result
    }
}
