/// The system-declared types, under the names Apple gives them.
extension UTType {
    // MARK: Base types

    /// The root of the physical hierarchy: files, folders and everything else. (`public.item`)
    public static let item = UTType(declared: "public.item")

    /// The root of the functional hierarchy: anything a user reads, views or plays. (`public.content`)
    public static let content = UTType(declared: "public.content")

    /// Content that mixes kinds, such as a PDF. (`public.composite-content`)
    public static let compositeContent = UTType(declared: "public.composite-content")

    /// Any sequence of bytes. (`public.data`)
    public static let data = UTType(declared: "public.data")

    /// A directory. (`public.directory`)
    public static let directory = UTType(declared: "public.directory")

    /// A folder a user browses. (`public.folder`)
    public static let folder = UTType(declared: "public.folder")

    /// Anything that can be run. (`public.executable`)
    public static let executable = UTType(declared: "public.executable")

    /// A message. (`public.message`)
    public static let message = UTType(declared: "public.message")

    /// A contact card. (`public.contact`)
    public static let contact = UTType(declared: "public.contact")

    /// An archive of files. (`public.archive`)
    public static let archive = UTType(declared: "public.archive")

    // MARK: Text

    /// Any text. (`public.text`)
    public static let text = UTType(declared: "public.text")

    /// Text without markup. (`public.plain-text`)
    public static let plainText = UTType(declared: "public.plain-text")

    /// Plain text encoded as UTF-8. (`public.utf8-plain-text`)
    public static let utf8PlainText = UTType(declared: "public.utf8-plain-text")

    /// Rich Text Format. (`public.rtf`)
    public static let rtf = UTType(declared: "public.rtf")

    /// HTML. (`public.html`)
    public static let html = UTType(declared: "public.html")

    /// XML. (`public.xml`)
    public static let xml = UTType(declared: "public.xml")

    /// JSON. (`public.json`)
    public static let json = UTType(declared: "public.json")

    /// Comma-separated values. (`public.comma-separated-values-text`)
    public static let commaSeparatedText = UTType(declared: "public.comma-separated-values-text")

    /// Program source code. (`public.source-code`)
    public static let sourceCode = UTType(declared: "public.source-code")

    /// A script. (`public.script`)
    public static let script = UTType(declared: "public.script")

    /// A shell script. (`public.shell-script`)
    public static let shellScript = UTType(declared: "public.shell-script")

    /// A Python script. (`public.python-script`)
    public static let pythonScript = UTType(declared: "public.python-script")

    /// JavaScript source code. (`com.netscape.javascript-source`)
    public static let javaScript = UTType(declared: "com.netscape.javascript-source")

    /// A URL. (`public.url`)
    public static let url = UTType(declared: "public.url")

    /// A URL of a local file. (`public.file-url`)
    public static let fileURL = UTType(declared: "public.file-url")

    /// A vCard contact. (`public.vcard`)
    public static let vCard = UTType(declared: "public.vcard")

    /// A calendar event (iCalendar). (`public.calendar-event`)
    public static let calendarEvent = UTType(declared: "public.calendar-event")

    /// An e-mail message. (`public.email-message`)
    public static let emailMessage = UTType(declared: "public.email-message")

    // MARK: Images

    /// Any image. (`public.image`)
    public static let image = UTType(declared: "public.image")

    /// A JPEG image. (`public.jpeg`)
    public static let jpeg = UTType(declared: "public.jpeg")

    /// A PNG image. (`public.png`)
    public static let png = UTType(declared: "public.png")

    /// A GIF image. (`com.compuserve.gif`)
    public static let gif = UTType(declared: "com.compuserve.gif")

    /// A TIFF image. (`public.tiff`)
    public static let tiff = UTType(declared: "public.tiff")

    /// A Windows bitmap image. (`com.microsoft.bmp`)
    public static let bmp = UTType(declared: "com.microsoft.bmp")

    /// A Windows icon image. (`com.microsoft.ico`)
    public static let ico = UTType(declared: "com.microsoft.ico")

    /// An SVG image. (`public.svg-image`)
    public static let svg = UTType(declared: "public.svg-image")

    /// A WebP image. (`org.webmproject.webp`)
    public static let webP = UTType(declared: "org.webmproject.webp")

    /// A HEIF image. (`public.heif`)
    public static let heif = UTType(declared: "public.heif")

    /// A HEIC image. (`public.heic`)
    public static let heic = UTType(declared: "public.heic")

    /// A digital camera's raw image. (`public.camera-raw-image`)
    public static let rawImage = UTType(declared: "public.camera-raw-image")

    // MARK: Documents

    /// A PDF document. (`com.adobe.pdf`)
    public static let pdf = UTType(declared: "com.adobe.pdf")

    /// An EPUB book. (`org.idpf.epub-container`)
    public static let epub = UTType(declared: "org.idpf.epub-container")

    /// Any spreadsheet. (`public.spreadsheet`)
    public static let spreadsheet = UTType(declared: "public.spreadsheet")

    /// Any presentation. (`public.presentation`)
    public static let presentation = UTType(declared: "public.presentation")

    // MARK: Audio and video

    /// Any audio or video. (`public.audiovisual-content`)
    public static let audiovisualContent = UTType(declared: "public.audiovisual-content")

    /// Any movie, with or without sound. (`public.movie`)
    public static let movie = UTType(declared: "public.movie")

    /// Video without sound. (`public.video`)
    public static let video = UTType(declared: "public.video")

    /// Any audio. (`public.audio`)
    public static let audio = UTType(declared: "public.audio")

    /// An MPEG-4 movie. (`public.mpeg-4`)
    public static let mpeg4Movie = UTType(declared: "public.mpeg-4")

    /// A QuickTime movie. (`com.apple.quicktime-movie`)
    public static let quickTimeMovie = UTType(declared: "com.apple.quicktime-movie")

    /// An MPEG-1 or MPEG-2 movie. (`public.mpeg`)
    public static let mpeg = UTType(declared: "public.mpeg")

    /// An AVI movie. (`public.avi`)
    public static let avi = UTType(declared: "public.avi")

    /// MPEG-4 audio. (`public.mpeg-4-audio`)
    public static let mpeg4Audio = UTType(declared: "public.mpeg-4-audio")

    /// MP3 audio. (`public.mp3`)
    public static let mp3 = UTType(declared: "public.mp3")

    /// WAVE audio. (`com.microsoft.waveform-audio`)
    public static let wav = UTType(declared: "com.microsoft.waveform-audio")

    /// AIFF audio. (`public.aiff-audio`)
    public static let aiff = UTType(declared: "public.aiff-audio")

    // MARK: Archives, executables and fonts

    /// A zip archive. (`public.zip-archive`)
    public static let zip = UTType(declared: "public.zip-archive")

    /// A gzip-compressed file. (`org.gnu.gnu-zip-archive`)
    public static let gzip = UTType(declared: "org.gnu.gnu-zip-archive")

    /// A bzip2-compressed file. (`public.bzip2-archive`)
    public static let bz2 = UTType(declared: "public.bzip2-archive")

    /// A tar archive. (`public.tar-archive`)
    public static let tarArchive = UTType(declared: "public.tar-archive")

    /// A Unix executable (ELF). (`public.unix-executable`)
    public static let unixExecutable = UTType(declared: "public.unix-executable")

    /// Any font. (`public.font`)
    public static let font = UTType(declared: "public.font")
}
