import CVipsShims
import Foundation

/// A failed libvips call and libvips' own message, on one line.
struct VipsError: Error, CustomStringConvertible {
    var call: String
    var message: String
    var description: String { message.isEmpty ? "\(call) failed" : message }
}

/// The encodings `prepare` writes.
enum OutputFormat: Sendable {
    case jpeg, png, webp

    /// The file name extension of a converted photo.
    var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .png: "png"
        case .webp: "webp"
        }
    }
}

/// Every libvips call of the module: started once, one photo decoded at a time per call, the
/// error buffer read and cleared after each failure.
enum Vips {
    /// JPEG and WebP quality: what phones and `vipsthumbnail` users pick for photos that are sent.
    static let quality: Int32 = 85

    /// libvips started once per process: a global's initializer runs exactly once, and
    /// concurrent first callers wait for it.
    /// libvips itself is loaded here, on first use (see `cvips_shims.h`).
    private static let started: Result<Void, VipsError> = {
        if cvips_shims_initialize("sharesheet") == 0 { return .success(()) }
        if let why = cvips_shims_load_error() {
            return .failure(VipsError(call: "dlopen", message: "libvips cannot be loaded: \(String(cString: why))"))
        }
        return .failure(takeError(call: "vips_init"))
    }()

    /// Starts libvips if this is the first call of the process.
    static func start() throws { try started.get() }

    /// The photo's stored size and its Exif orientation (1 when it has none); only the header
    /// is read.
    static func header(of url: URL) throws -> (width: Int, height: Int, orientation: Int) {
        try start()
        return try withSource(url) { source in
            guard let image = cvips_shims_header(source) else { throw takeError(call: "vips_image_new_from_source") }
            defer { cvips_shims_unref(UnsafeMutableRawPointer(image)) }
            return (Int(cvips_shims_width(image)), Int(cvips_shims_height(image)), Int(cvips_shims_orientation(image)))
        }
    }

    /// Decodes the photo shrunk to fit inside `box`×`box` (never enlarged) and upright, and
    /// writes it to `path` in `format`, its metadata carried over. Returns the written size.
    static func thumbnail(_ url: URL, fittingIn box: Int, as format: OutputFormat, to path: String) throws -> (width: Int, height: Int) {
        try start()
        return try withSource(url) { source in
            var image: OpaquePointer?
            let side = Int32(clamping: box)
            guard cvips_shims_thumbnail(source, &image, side, side) == 0, let image else {
                throw takeError(call: "vips_thumbnail_source")
            }
            defer { cvips_shims_unref(UnsafeMutableRawPointer(image)) }
            // The pixels are decoded while saving, so a damaged file fails here.
            let saved: Int32
            switch format {
            case .jpeg: saved = cvips_shims_jpegsave(image, path, quality)
            case .png: saved = cvips_shims_pngsave(image, path)
            case .webp: saved = cvips_shims_webpsave(image, path, quality)
            }
            guard saved == 0 else { throw takeError(call: "vips_\(format)save") }
            return (Int(cvips_shims_width(image)), Int(cvips_shims_height(image)))
        }
    }

    /// Runs `body` with a libvips source reading `url`. A source, not a file name: libvips reads
    /// `[options]` at the end of a file name, and a photo may be called `IMG[1].jpg`.
    private static func withSource<T>(_ url: URL, _ body: (OpaquePointer) throws -> T) throws -> T {
        guard let source = cvips_shims_source_new_from_file(url.path) else { throw takeError(call: "vips_source_new_from_file") }
        defer { cvips_shims_unref(UnsafeMutableRawPointer(source)) }
        return try body(source)
    }

    /// libvips' error buffer as one line, cleared. The buffer is the process's: a message of a
    /// concurrent failure may join this one, which only makes the message longer.
    private static func takeError(call: String) -> VipsError {
        guard let copy = cvips_shims_error_buffer_copy() else { return VipsError(call: call, message: "") }
        defer { cvips_shims_free(copy) }
        let lines = String(cString: copy).split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        return VipsError(call: call, message: lines.filter { !$0.isEmpty }.joined(separator: "; "))
    }
}
