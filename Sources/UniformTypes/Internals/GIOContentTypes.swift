import CGIO
import Foundation

/// The one place UniformTypes calls GIO's content-type functions.
///
/// On Unix a GIO content type *is* a MIME type (`image/jpeg`), looked up in the shared-mime-info
/// database. Every function here is thread-safe: GIO serialises access to that database itself.
/// Strings GIO returns are copied into Swift and released with `g_free` before returning.
enum GIOContentTypes {
    /// The result of sniffing a name and/or bytes.
    struct Guess: Equatable, Sendable {
        /// The content type GIO settled on; `application/octet-stream` when it knows nothing.
        var contentType: String
        /// Whether GIO reported that it was guessing.
        var isUncertain: Bool
    }

    /// GIO's content type for a MIME type, with aliases resolved (`image/pjpeg` → `image/jpeg`).
    static func contentType(forMIMEType mimeType: String) -> String? {
        takeString(g_content_type_from_mime_type(mimeType))
    }

    /// The MIME type GIO reports for one of its content types.
    static func mimeType(forContentType contentType: String) -> String? {
        takeString(g_content_type_get_mime_type(contentType))
    }

    /// Whether `contentType` equals or is a subclass of `supertype`.
    ///
    /// GIO also accepts a media-type wildcard (`image/*`) as `supertype`, treats every `text/*`
    /// as a `text/plain`, and every non-`inode/*` type as an `application/octet-stream`.
    static func contentType(_ contentType: String, isA supertype: String) -> Bool {
        g_content_type_is_a(contentType, supertype) != 0
    }

    /// Whether GIO uses `contentType` to mean "unknown" (`application/octet-stream`).
    static func isUnknown(_ contentType: String) -> Bool {
        g_content_type_is_unknown(contentType) != 0
    }

    /// GIO's human-readable description of a content type ("JPEG image").
    static func description(ofContentType contentType: String) -> String? {
        takeString(g_content_type_get_description(contentType))
    }

    /// Guesses a content type from a file name, from leading bytes, or from both.
    /// - Parameters:
    ///   - filename: A file name (only its last component matters), or `nil`.
    ///   - data: The first bytes of the content, or `nil` to go by the name alone. Empty data
    ///     counts as no data.
    static func guess(filename: String?, data: Data?) -> Guess {
        var uncertain: gboolean = 0
        let result: String? = withOptionalCString(filename) { name in
            if let data, !data.isEmpty {
                return data.withUnsafeBytes { bytes in
                    takeString(
                        g_content_type_guess(
                            name, bytes.bindMemory(to: guchar.self).baseAddress,
                            gsize(bytes.count), &uncertain))
                }
            }
            return takeString(g_content_type_guess(name, nil, 0, &uncertain))
        }
        return Guess(
            contentType: result ?? "application/octet-stream", isUncertain: uncertain != 0)
    }

    /// The directories GIO loads the shared-mime-info database from, most important first
    /// (the user's `…/share/mime`, then each system data directory's `mime`).
    static func mimeDirectories() -> [String] {
        guard var cursor = g_content_type_get_mime_dirs() else { return [] }
        var directories: [String] = []
        while let entry = cursor.pointee {
            directories.append(String(cString: entry))
            cursor += 1
        }
        return directories
    }

    /// Copies a string GIO allocated and frees GIO's copy.
    private static func takeString(_ pointer: UnsafeMutablePointer<gchar>?) -> String? {
        guard let pointer else { return nil }
        defer { g_free(pointer) }
        return String(cString: pointer)
    }

    private static func withOptionalCString<Result>(
        _ string: String?, _ body: (UnsafePointer<CChar>?) -> Result
    ) -> Result {
        guard let string else { return body(nil) }
        return string.withCString { body($0) }
    }
}
