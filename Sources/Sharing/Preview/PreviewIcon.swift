import ShareSheet
import UniformTypes

/// The freedesktop icon names a preview draws when it has no picture: each names a symbolic
/// icon that Adwaita ships (Debian 12's adwaita-icon-theme 43), so the theme draws it in the
/// header's colour.
///
/// Adwaita has no `application-pdf` and no `text-html` in symbolic form: a PDF is drawn as a
/// document and a web link as the web browser's globe.
enum PreviewIcon {
    static let image = "image-x-generic-symbolic"
    static let video = "video-x-generic-symbolic"
    static let audio = "audio-x-generic-symbolic"
    static let text = "text-x-generic-symbolic"
    static let document = "x-office-document-symbolic"
    static let spreadsheet = "x-office-spreadsheet-symbolic"
    static let presentation = "x-office-presentation-symbolic"
    static let contact = "x-office-address-book-symbolic"
    static let calendar = "x-office-calendar-symbolic"
    static let archive = "package-x-generic-symbolic"
    static let font = "font-x-generic-symbolic"
    static let executable = "application-x-executable-symbolic"
    static let folder = "folder-symbolic"
    static let webLink = "web-browser-symbolic"
    static let emailAddress = "mail-unread-symbolic"
    static let phoneNumber = "call-start-symbolic"
    static let message = "mail-message-new-symbolic"
    static let location = "mark-location-symbolic"
    static let otherLink = "insert-link-symbolic"
    static let color = "color-select-symbolic"
    static let print = "document-print-symbolic"
    /// Several items of different kinds.
    static let documents = "emblem-documents-symbolic"

    /// Every name above, for tests that check the theme has them.
    static let all = [
        image, video, audio, text, document, spreadsheet, presentation, contact, calendar, archive, font,
        executable, folder, webLink, emailAddress, phoneNumber, message, location, otherLink, color, print,
        documents,
    ]

    /// The icon of an item of kind `kind`.
    static func icon(for kind: ItemKind) -> String {
        switch kind {
        case .string, .attributedString, .dictionary, .other: return text
        case .webURL: return webLink
        case .fileURL(let type), .data(let type, _), .image(let type), .asset(let type): return icon(for: type)
        case .schemeURL(let scheme):
            switch scheme {
            case "mailto": return emailAddress
            case "tel": return phoneNumber
            case "sms": return message
            case "geo": return location
            default: return otherLink
            }
        case .color: return color
        case .array: return documents
        case .printInfo, .printFormatter, .printPageRenderer: return print
        }
    }

    /// The icon of a file or bytes of type `type`.
    static func icon(for type: UTType) -> String {
        // Most specific first: an XLSX is also a ZIP archive, a vCard also text.
        if type.conforms(to: .folder) || type.conforms(to: .directory) { return folder }
        if type.conforms(to: .image) { return image }
        if type.conforms(to: .movie) { return video }
        if type.conforms(to: .audio) { return audio }
        if type.conforms(to: .contact) { return contact }
        if type.conforms(to: .calendarEvent) { return calendar }
        if type.conforms(to: .spreadsheet) { return spreadsheet }
        if type.conforms(to: .presentation) { return presentation }
        if type.conforms(to: .pdf) || type.conforms(to: .rtf) || type.conforms(to: .epub) { return document }
        let mimeType = type.preferredMIMEType ?? ""
        if ["wordprocessingml", "opendocument.text", "msword"].contains(where: mimeType.contains) { return document }
        if type.conforms(to: .font) { return font }
        if type.conforms(to: .archive) { return archive }
        if type.conforms(to: .executable) || type.conforms(to: .unixExecutable) { return executable }
        return text
    }
}
