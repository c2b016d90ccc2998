/// The system-declared types, under the names Apple gives them.
extension UTType {
    // MARK: Base types

    /// `public.item`: the root of the physical hierarchy (files, folders, everything).
    public static let item = UTType(declared: "public.item")

    /// `public.content`: the root of the functional hierarchy (what a user reads, views, plays).
    public static let content = UTType(declared: "public.content")

    /// `public.composite-content`: content that mixes kinds, such as a PDF.
    public static let compositeContent = UTType(declared: "public.composite-content")

    /// `public.data`: any sequence of bytes.
    public static let data = UTType(declared: "public.data")

    /// `public.directory`: a directory.
    public static let directory = UTType(declared: "public.directory")

    /// `public.folder`: a folder a user browses.
    public static let folder = UTType(declared: "public.folder")

    /// `public.executable`: anything that can be run.
    public static let executable = UTType(declared: "public.executable")

    /// `public.message`: a message.
    public static let message = UTType(declared: "public.message")

    /// `public.contact`: a contact card.
    public static let contact = UTType(declared: "public.contact")

    /// `public.archive`: an archive of files.
    public static let archive = UTType(declared: "public.archive")

    // MARK: Text

    /// `public.text`: any text.
    public static let text = UTType(declared: "public.text")

    /// `public.plain-text`: text without markup.
    public static let plainText = UTType(declared: "public.plain-text")

    /// `public.utf8-plain-text`: plain text encoded as UTF-8.
    public static let utf8PlainText = UTType(declared: "public.utf8-plain-text")

    /// `public.rtf`: Rich Text Format.
    public static let rtf = UTType(declared: "public.rtf")

    /// `public.html`: HTML.
    public static let html = UTType(declared: "public.html")

    /// `public.xml`: XML.
    public static let xml = UTType(declared: "public.xml")

    /// `public.json`: JSON.
    public static let json = UTType(declared: "public.json")

    /// `public.comma-separated-values-text`: comma-separated values.
    public static let commaSeparatedText = UTType(declared: "public.comma-separated-values-text")

    /// `public.source-code`: program source code.
    public static let sourceCode = UTType(declared: "public.source-code")

    /// `public.script`: a script.
    public static let script = UTType(declared: "public.script")

    /// `public.shell-script`: a shell script.
    public static let shellScript = UTType(declared: "public.shell-script")

    /// `public.python-script`: a Python script.
    public static let pythonScript = UTType(declared: "public.python-script")

    /// `com.netscape.javascript-source`: JavaScript source code.
    public static let javaScript = UTType(declared: "com.netscape.javascript-source")

    /// `public.url`: a URL.
    public static let url = UTType(declared: "public.url")

    /// `public.file-url`: a URL of a local file.
    public static let fileURL = UTType(declared: "public.file-url")

    /// `public.vcard`: a vCard contact.
    public static let vCard = UTType(declared: "public.vcard")

    /// `public.calendar-event`: a calendar event (iCalendar).
    public static let calendarEvent = UTType(declared: "public.calendar-event")

    /// `public.email-message`: an e-mail message.
    public static let emailMessage = UTType(declared: "public.email-message")

    // MARK: Images

    /// `public.image`: any image.
    public static let image = UTType(declared: "public.image")

    /// `public.jpeg`: a JPEG image.
    public static let jpeg = UTType(declared: "public.jpeg")

    /// `public.png`: a PNG image.
    public static let png = UTType(declared: "public.png")

    /// `com.compuserve.gif`: a GIF image.
    public static let gif = UTType(declared: "com.compuserve.gif")

    /// `public.tiff`: a TIFF image.
    public static let tiff = UTType(declared: "public.tiff")

    /// `com.microsoft.bmp`: a Windows bitmap image.
    public static let bmp = UTType(declared: "com.microsoft.bmp")

    /// `com.microsoft.ico`: a Windows icon image.
    public static let ico = UTType(declared: "com.microsoft.ico")

    /// `public.svg-image`: an SVG image.
    public static let svg = UTType(declared: "public.svg-image")

    /// `org.webmproject.webp`: a WebP image.
    public static let webP = UTType(declared: "org.webmproject.webp")

    /// `public.heif`: a HEIF image.
    public static let heif = UTType(declared: "public.heif")

    /// `public.heic`: a HEIC image.
    public static let heic = UTType(declared: "public.heic")

    /// `public.camera-raw-image`: a digital camera's raw image.
    public static let rawImage = UTType(declared: "public.camera-raw-image")

    // MARK: Documents

    /// `com.adobe.pdf`: a PDF document.
    public static let pdf = UTType(declared: "com.adobe.pdf")

    /// `org.idpf.epub-container`: an EPUB book.
    public static let epub = UTType(declared: "org.idpf.epub-container")

    /// `public.spreadsheet`: any spreadsheet.
    public static let spreadsheet = UTType(declared: "public.spreadsheet")

    /// `public.presentation`: any presentation.
    public static let presentation = UTType(declared: "public.presentation")

    // MARK: Audio and video

    /// `public.audiovisual-content`: any audio or video.
    public static let audiovisualContent = UTType(declared: "public.audiovisual-content")

    /// `public.movie`: any movie, with or without sound.
    public static let movie = UTType(declared: "public.movie")

    /// `public.video`: video without sound.
    public static let video = UTType(declared: "public.video")

    /// `public.audio`: any audio.
    public static let audio = UTType(declared: "public.audio")

    /// `public.mpeg-4`: an MPEG-4 movie.
    public static let mpeg4Movie = UTType(declared: "public.mpeg-4")

    /// `com.apple.quicktime-movie`: a QuickTime movie.
    public static let quickTimeMovie = UTType(declared: "com.apple.quicktime-movie")

    /// `public.mpeg`: an MPEG-1 or MPEG-2 movie.
    public static let mpeg = UTType(declared: "public.mpeg")

    /// `public.avi`: an AVI movie.
    public static let avi = UTType(declared: "public.avi")

    /// `public.mpeg-4-audio`: MPEG-4 audio.
    public static let mpeg4Audio = UTType(declared: "public.mpeg-4-audio")

    /// `public.mp3`: MP3 audio.
    public static let mp3 = UTType(declared: "public.mp3")

    /// `com.microsoft.waveform-audio`: WAVE audio.
    public static let wav = UTType(declared: "com.microsoft.waveform-audio")

    /// `public.aiff-audio`: AIFF audio.
    public static let aiff = UTType(declared: "public.aiff-audio")

    // MARK: Archives, executables and fonts

    /// `public.zip-archive`: a zip archive.
    public static let zip = UTType(declared: "public.zip-archive")

    /// `org.gnu.gnu-zip-archive`: a gzip-compressed file.
    public static let gzip = UTType(declared: "org.gnu.gnu-zip-archive")

    /// `public.bzip2-archive`: a bzip2-compressed file.
    public static let bz2 = UTType(declared: "public.bzip2-archive")

    /// `public.tar-archive`: a tar archive.
    public static let tarArchive = UTType(declared: "public.tar-archive")

    /// `public.unix-executable`: a Unix executable (ELF).
    public static let unixExecutable = UTType(declared: "public.unix-executable")

    /// `public.font`: any font.
    public static let font = UTType(declared: "public.font")
}
