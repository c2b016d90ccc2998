import CGIO
import CGexiv2Shims
import Foundation
import GLibErrors
import Synchronization

/// One photo's metadata read by gexiv2 (exiv2): what in it identifies a place or a camera, and
/// the edits `prepare` makes on its own copies. Used inside one call of `prepare`, never shared.
final class PhotoMetadata {
    private let metadata: OpaquePointer

    /// exiv2's XMP toolkit, as gexiv2 starts it, has no lock of its own, and every parse and
    /// save goes through it: one photo's metadata at a time, in the whole process.
    private static let exclusive = Mutex<Void>(())

    /// gexiv2 loaded (see `cgexiv2_shims.h`) and started once per process (a global's
    /// initializer runs exactly once).
    private static let started: Bool = cgexiv2_shims_start() != 0

    /// Runs `body` holding the process's one gexiv2 lock, gexiv2 started.
    static func exclusively<T>(_ body: () throws -> T) throws -> T {
        try exclusive.withLock { _ in
            guard started else {
                let why = cgexiv2_shims_load_error().map { "gexiv2 cannot be loaded: " + String(cString: $0) }
                throw GLibError(call: "gexiv2_initialize", domain: "", code: 0, message: why ?? "exiv2 could not start")
            }
            return try body()
        }
    }

    /// Reads the metadata of the file at `path`; the file is only read. Call inside `exclusively`.
    init(reading path: String) throws {
        guard let metadata = cgexiv2_shims_new() else {
            throw GLibError(call: "gexiv2_metadata_new", domain: "", code: 0, message: "out of memory")
        }
        do {
            try Self.call("gexiv2_metadata_open_path") { error in cgexiv2_shims_open_path(metadata, path, error) == 0 }
        } catch {
            cgexiv2_shims_unref(UnsafeMutableRawPointer(metadata))
            throw error
        }
        self.metadata = metadata
    }

    deinit { cgexiv2_shims_unref(UnsafeMutableRawPointer(metadata)) }

    /// Runs a gexiv2 call that says why it failed through a `GError **`; `body` returns true
    /// when the call failed (by its result, or by setting the error).
    private static func call(_ name: String, _ body: (UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> Bool) throws {
        var raw: UnsafeMutableRawPointer?
        let failed = body(&raw)
        guard failed || raw != nil else { return }
        var error = raw?.assumingMemoryBound(to: GError.self)
        throw GLibError(taking: &error, call: name)
    }

    /// Every Exif and XMP key present ("Exif.GPSInfo.GPSLatitude", "Xmp.aux.SerialNumber").
    var keys: [String] {
        Self.strings(cgexiv2_shims_exif_tags(metadata)) + Self.strings(cgexiv2_shims_xmp_tags(metadata))
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
        try Self.call("gexiv2_metadata_try_delete_gps_info") { error in
            cgexiv2_shims_delete_gps_info(metadata, error)
            return false
        }
        // The GPS call leaves serial numbers, and XMP GPS properties it does not know. A tag that
        // is not there is no failure: only an error set is.
        for key in privateKeys {
            try Self.call("gexiv2_metadata_try_clear_tag(\(key))") { error in
                _ = cgexiv2_shims_clear_tag(metadata, key, error)
                return false
            }
        }
        if isWebP && hadXMP && !keys.contains(where: { $0.hasPrefix("Xmp.") }) {
            let size = [
                ("Xmp.exif.PixelXDimension", cgexiv2_shims_pixel_width(metadata)),
                ("Xmp.exif.PixelYDimension", cgexiv2_shims_pixel_height(metadata)),
            ]
            for (key, value) in size {
                try Self.call("gexiv2_metadata_try_set_tag_string(\(key))") { error in
                    cgexiv2_shims_set_tag_string(metadata, key, String(value), error) == 0
                }
            }
        }
    }

    /// Records the orientation as "upright" (1), for pixels that have been turned upright.
    func markUpright() throws {
        try Self.call("gexiv2_metadata_try_set_orientation") { error in
            cgexiv2_shims_set_upright(metadata, error)
            return false
        }
    }

    /// Writes the metadata into the file at `path`: only its metadata segments are rewritten,
    /// the image data is copied as it is.
    func save(to path: String) throws {
        try Self.call("gexiv2_metadata_save_file") { error in cgexiv2_shims_save_file(metadata, path, error) == 0 }
    }

    /// A NULL-terminated `gchar **` as strings; frees it.
    private static func strings(_ list: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> [String] {
        guard let list else { return [] }
        defer { cgexiv2_shims_strfreev(list) }
        var result: [String] = []
        var index = 0
        while let item = list[index] {
            result.append(String(cString: item))
            index += 1
        }
        return result
    }
}
