/// The system-declared types UniformTypes knows by identifier, with Apple's raw identifiers and
/// conformance, mapped onto shared-mime-info's MIME types.
///
/// This is the only table of our own. Keep parents to what Apple declares (plus `public.data` where
/// a concrete file type needs it) and MIME types to GIO's canonical spellings; the tests check both
/// against the installed database.
enum SystemDeclarations {
    static let all: [TypeDeclaration] = [
        // The roots.
        TypeDeclaration("public.item"),
        TypeDeclaration("public.content"),
        TypeDeclaration("public.composite-content", parents: ["public.content"]),
        TypeDeclaration(
            "public.data", parents: ["public.item"], mimeTypes: ["application/octet-stream"]),
        TypeDeclaration("public.directory", parents: ["public.item"]),
        TypeDeclaration(
            "public.folder", parents: ["public.directory"], mimeTypes: ["inode/directory"]),
        TypeDeclaration("public.executable", parents: ["public.item"]),
        TypeDeclaration("public.message", parents: ["public.item"]),
        TypeDeclaration("public.contact", parents: ["public.item"]),

        // Text.
        TypeDeclaration(
            "public.text", parents: ["public.data", "public.content"], umbrella: "text/plain"),
        TypeDeclaration(
            "public.plain-text", parents: ["public.text"], mimeTypes: ["text/plain"],
            preferredFilenameExtension: "txt"),
        TypeDeclaration("public.utf8-plain-text", parents: ["public.plain-text"]),
        TypeDeclaration(
            "public.rtf", parents: ["public.text"], mimeTypes: ["application/rtf"],
            preferredFilenameExtension: "rtf"),
        TypeDeclaration(
            "public.html", parents: ["public.text"], mimeTypes: ["text/html"],
            preferredFilenameExtension: "html"),
        TypeDeclaration(
            "public.xml", parents: ["public.text"], mimeTypes: ["application/xml"],
            preferredFilenameExtension: "xml"),
        TypeDeclaration(
            "public.json", parents: ["public.text"], mimeTypes: ["application/json"],
            preferredFilenameExtension: "json"),
        TypeDeclaration(
            "public.comma-separated-values-text", parents: ["public.text"],
            mimeTypes: ["text/csv"], preferredFilenameExtension: "csv"),
        TypeDeclaration(
            "net.daringfireball.markdown", parents: ["public.plain-text"],
            mimeTypes: ["text/markdown"], preferredFilenameExtension: "md"),
        TypeDeclaration("public.source-code", parents: ["public.plain-text"]),
        TypeDeclaration("public.script", parents: ["public.source-code"]),
        TypeDeclaration(
            "public.shell-script", parents: ["public.script"],
            mimeTypes: ["application/x-shellscript"], preferredFilenameExtension: "sh"),
        TypeDeclaration(
            "public.python-script", parents: ["public.script"],
            mimeTypes: ["text/x-python", "text/x-python3"],
            preferredFilenameExtension: "py"),
        TypeDeclaration(
            "com.netscape.javascript-source", parents: ["public.source-code", "public.executable"],
            mimeTypes: ["application/javascript"], preferredFilenameExtension: "js"),
        TypeDeclaration("public.url", parents: ["public.data"]),
        TypeDeclaration("public.file-url", parents: ["public.url"]),
        TypeDeclaration(
            "public.vcard", parents: ["public.text", "public.contact"], mimeTypes: ["text/vcard"],
            preferredFilenameExtension: "vcf"),
        TypeDeclaration(
            "public.calendar-event", parents: ["public.text"], mimeTypes: ["text/calendar"],
            preferredFilenameExtension: "ics"),
        TypeDeclaration(
            "public.email-message", parents: ["public.message", "public.data", "public.content"],
            mimeTypes: ["message/rfc822"], preferredFilenameExtension: "eml"),

        // Images.
        TypeDeclaration(
            "public.image", parents: ["public.data", "public.content"], umbrella: "image/*"),
        TypeDeclaration(
            "public.jpeg", parents: ["public.image"], mimeTypes: ["image/jpeg"],
            preferredFilenameExtension: "jpg"),
        TypeDeclaration(
            "public.png", parents: ["public.image"], mimeTypes: ["image/png"],
            preferredFilenameExtension: "png"),
        TypeDeclaration(
            "com.compuserve.gif", parents: ["public.image"], mimeTypes: ["image/gif"],
            preferredFilenameExtension: "gif"),
        TypeDeclaration(
            "public.tiff", parents: ["public.image"], mimeTypes: ["image/tiff"],
            preferredFilenameExtension: "tiff"),
        TypeDeclaration(
            "com.microsoft.bmp", parents: ["public.image"], mimeTypes: ["image/bmp"],
            preferredFilenameExtension: "bmp"),
        TypeDeclaration(
            "com.microsoft.ico", parents: ["public.image"],
            mimeTypes: ["image/vnd.microsoft.icon"], preferredFilenameExtension: "ico"),
        TypeDeclaration(
            "public.svg-image", parents: ["public.image"], mimeTypes: ["image/svg+xml"],
            preferredFilenameExtension: "svg"),
        TypeDeclaration(
            "org.webmproject.webp", parents: ["public.image"], mimeTypes: ["image/webp"],
            preferredFilenameExtension: "webp"),
        TypeDeclaration(
            "public.heif", parents: ["public.image"], mimeTypes: ["image/heif"],
            preferredFilenameExtension: "heif"),
        // shared-mime-info makes image/heic an alias of image/heif; the extension tells them apart.
        TypeDeclaration(
            "public.heic", parents: ["public.image"], mimeTypes: ["image/heic"],
            preferredFilenameExtension: "heic"),
        TypeDeclaration(
            "public.camera-raw-image", parents: ["public.image"], mimeTypes: ["image/x-dcraw"]),

        // Documents.
        TypeDeclaration(
            "com.adobe.pdf", parents: ["public.data", "public.composite-content"],
            mimeTypes: ["application/pdf"], preferredFilenameExtension: "pdf"),
        TypeDeclaration(
            "org.idpf.epub-container", parents: ["public.zip-archive", "public.composite-content"],
            mimeTypes: ["application/epub+zip"], preferredFilenameExtension: "epub"),
        TypeDeclaration("public.spreadsheet", parents: ["public.content"]),
        TypeDeclaration("public.presentation", parents: ["public.composite-content"]),
        TypeDeclaration(
            "org.openxmlformats.spreadsheetml.sheet",
            parents: ["public.zip-archive", "public.spreadsheet"],
            mimeTypes: ["application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"],
            preferredFilenameExtension: "xlsx"),
        TypeDeclaration(
            "com.microsoft.excel.xls", parents: ["public.data", "public.spreadsheet"],
            mimeTypes: ["application/vnd.ms-excel"], preferredFilenameExtension: "xls"),
        TypeDeclaration(
            "org.oasis-open.opendocument.spreadsheet",
            parents: ["public.zip-archive", "public.spreadsheet"],
            mimeTypes: ["application/vnd.oasis.opendocument.spreadsheet"],
            preferredFilenameExtension: "ods"),
        TypeDeclaration(
            "org.openxmlformats.presentationml.presentation",
            parents: ["public.zip-archive", "public.presentation"],
            mimeTypes: [
                "application/vnd.openxmlformats-officedocument.presentationml.presentation"
            ],
            preferredFilenameExtension: "pptx"),
        TypeDeclaration(
            "com.microsoft.powerpoint.ppt", parents: ["public.data", "public.presentation"],
            mimeTypes: ["application/vnd.ms-powerpoint"], preferredFilenameExtension: "ppt"),
        TypeDeclaration(
            "org.oasis-open.opendocument.presentation",
            parents: ["public.zip-archive", "public.presentation"],
            mimeTypes: ["application/vnd.oasis.opendocument.presentation"],
            preferredFilenameExtension: "odp"),

        // Audio and video.
        TypeDeclaration(
            "public.audiovisual-content", parents: ["public.data", "public.content"]),
        TypeDeclaration(
            "public.movie", parents: ["public.audiovisual-content"], umbrella: "video/*"),
        TypeDeclaration("public.video", parents: ["public.movie"]),
        TypeDeclaration(
            "public.audio", parents: ["public.audiovisual-content"], umbrella: "audio/*"),
        TypeDeclaration(
            "public.mpeg-4", parents: ["public.movie"], mimeTypes: ["video/mp4"],
            preferredFilenameExtension: "mp4"),
        TypeDeclaration(
            "com.apple.quicktime-movie", parents: ["public.movie"], mimeTypes: ["video/quicktime"],
            preferredFilenameExtension: "mov"),
        TypeDeclaration(
            "public.mpeg", parents: ["public.movie"], mimeTypes: ["video/mpeg"],
            preferredFilenameExtension: "mpg"),
        TypeDeclaration(
            "public.avi", parents: ["public.movie"], mimeTypes: ["video/x-msvideo"],
            preferredFilenameExtension: "avi"),
        TypeDeclaration(
            "public.mpeg-4-audio", parents: ["public.audio"], mimeTypes: ["audio/mp4"],
            preferredFilenameExtension: "m4a"),
        TypeDeclaration(
            "public.mp3", parents: ["public.audio"], mimeTypes: ["audio/mpeg"],
            preferredFilenameExtension: "mp3"),
        TypeDeclaration(
            "com.microsoft.waveform-audio", parents: ["public.audio"], mimeTypes: ["audio/x-wav"],
            preferredFilenameExtension: "wav"),
        TypeDeclaration(
            "public.aiff-audio", parents: ["public.audio"], mimeTypes: ["audio/x-aiff"],
            preferredFilenameExtension: "aiff"),

        // Archives and executables.
        TypeDeclaration("public.archive", parents: ["public.data"]),
        TypeDeclaration(
            "public.zip-archive", parents: ["public.archive"], mimeTypes: ["application/zip"],
            preferredFilenameExtension: "zip"),
        TypeDeclaration(
            "org.gnu.gnu-zip-archive", parents: ["public.archive"],
            mimeTypes: ["application/gzip"], preferredFilenameExtension: "gz"),
        TypeDeclaration(
            "public.bzip2-archive", parents: ["public.archive"], mimeTypes: ["application/x-bzip"],
            preferredFilenameExtension: "bz2"),
        TypeDeclaration(
            "public.tar-archive", parents: ["public.archive"], mimeTypes: ["application/x-tar"],
            preferredFilenameExtension: "tar"),
        TypeDeclaration(
            "public.unix-executable", parents: ["public.data", "public.executable"],
            mimeTypes: ["application/x-executable"]),
        TypeDeclaration(
            "public.font", parents: ["public.data", "public.content"], umbrella: "font/*"),
    ]

    /// Declarations by (lowercase) identifier.
    static let byIdentifier: [String: TypeDeclaration] = Dictionary(
        all.map { ($0.identifier, $0) }, uniquingKeysWith: { first, _ in first })

    /// Identifiers by a MIME type exactly as declared ("image/heic" → public.heic).
    static let byDeclaredMIMEType: [String: String] = Dictionary(
        all.flatMap { declaration in declaration.mimeTypes.map { ($0, declaration.identifier) } },
        uniquingKeysWith: { first, _ in first })

    /// Identifiers by GIO content type, in declaration order ("image/heif" → public.heif,
    /// public.heic, since GIO resolves the alias image/heic to image/heif).
    static let byContentType: [String: [String]] = {
        var result: [String: [String]] = [:]
        for declaration in all {
            for mimeType in declaration.mimeTypes {
                let contentType = GIOContentTypes.contentType(forMIMEType: mimeType) ?? mimeType
                if !result[contentType, default: []].contains(declaration.identifier) {
                    result[contentType, default: []].append(declaration.identifier)
                }
            }
        }
        return result
    }()
}
