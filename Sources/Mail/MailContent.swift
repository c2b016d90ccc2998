import Foundation
import ShareSheet
import UniformTypes

/// What a mix of share items makes of a message (SPEC §1.7 plus Apple's additions): strings,
/// attributed strings and web links make the body (with an HTML alternative when any text is
/// attributed), files, images and typed data become attachments with their names and MIME
/// types, and `mailto:` links give recipients, a subject and a body.
struct MailContent {
    var body = ""
    var htmlBody: String?
    var attachments: [MailAttachment] = []
    var to: [String] = []
    var cc: [String] = []
    var bcc: [String] = []
    var subject: String?

    init(items: [Any]) {
        var plainParagraphs: [String] = []
        var htmlParagraphs: [String] = []
        var hasAttributedText = false
        for item in items {
            switch item {
            case let text as String:
                plainParagraphs.append(text)
                htmlParagraphs.append(HTML.paragraph(HTML.escaped(text)))
            case let text as Substring:
                plainParagraphs.append(String(text))
                htmlParagraphs.append(HTML.paragraph(HTML.escaped(String(text))))
            case let url as URL:
                add(url: url, plain: &plainParagraphs, html: &htmlParagraphs)
            case let dataItem as DataItem:
                attachments.append(
                    MailAttachment(
                        content: .data(dataItem.data), filename: dataItem.filename,
                        mimeType: Self.mimeType(of: dataItem.type)))
            case let image as Image:
                let ext = image.type.preferredFilenameExtension ?? "img"
                if let file = image.fileURL {
                    attachments.append(
                        MailAttachment(
                            content: .file(file), filename: FileNames.sendable(file.lastPathComponent),
                            mimeType: Self.mimeType(of: image.type)))
                } else if let data = image.encodedData {
                    attachments.append(MailAttachment(content: .data(data), filename: "image.\(ext)", mimeType: Self.mimeType(of: image.type)))
                }
            case let attributed as AttributedString:
                hasAttributedText = true
                plainParagraphs.append(String(attributed.characters))
                htmlParagraphs.append(HTML.paragraph(HTML.render(attributed)))
            case let attributed as NSAttributedString:
                hasAttributedText = true
                plainParagraphs.append(attributed.string)
                htmlParagraphs.append(HTML.paragraph(HTML.render(attributed)))
            default:
                continue
            }
        }
        body = plainParagraphs.joined(separator: "\n\n")
        if hasAttributedText {
            htmlBody = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"></head><body>\n"
                + htmlParagraphs.joined(separator: "\n") + "\n</body></html>\n"
        }
    }

    private mutating func add(url: URL, plain: inout [String], html: inout [String]) {
        if url.isFileURL {
            let type = UTType.type(ofFileAt: url)
            // A line break in the name would refuse the whole mail (it could start a header):
            // it is sent as a space.
            attachments.append(
                MailAttachment(content: .file(url), filename: FileNames.sendable(url.lastPathComponent), mimeType: Self.mimeType(of: type)))
            return
        }
        if url.scheme?.lowercased() == "mailto" {
            apply(mailto: url, plain: &plain, html: &html)
            return
        }
        plain.append(url.absoluteString)
        let escaped = HTML.escaped(url.absoluteString)
        html.append(HTML.paragraph("<a href=\"\(escaped)\">\(escaped)</a>"))
    }

    /// RFC 6068: `mailto:a@x,b@y?cc=…&bcc=…&subject=…&body=…`.
    private mutating func apply(mailto url: URL, plain: inout [String], html: inout [String]) {
        let text = url.absoluteString.dropFirst("mailto:".count)
        let pieces = text.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        func decoded(_ part: Substring) -> String { String(part).removingPercentEncoding ?? String(part) }
        func addresses(_ part: Substring) -> [String] {
            decoded(part).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        if let first = pieces.first { to += addresses(first) }
        guard pieces.count > 1 else { return }
        for pair in pieces[1].split(separator: "&") {
            let keyValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard keyValue.count == 2 else { continue }
            switch keyValue[0].lowercased() {
            case "to": to += addresses(keyValue[1])
            case "cc": cc += addresses(keyValue[1])
            case "bcc": bcc += addresses(keyValue[1])
            case "subject": subject = decoded(keyValue[1])
            case "body":
                let body = decoded(keyValue[1])
                plain.append(body)
                html.append(HTML.paragraph(HTML.escaped(body)))
            default: continue
            }
        }
    }

    static func mimeType(of type: UTType) -> String {
        type.preferredMIMEType ?? "application/octet-stream"
    }
}

/// Just enough HTML for a message body: escaped text, paragraphs and links.
enum HTML {
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }

    static func paragraph(_ inner: String) -> String {
        "<p>" + inner.replacingOccurrences(of: "\n", with: "<br>\n") + "</p>"
    }

    static func render(_ text: AttributedString) -> String {
        var html = ""
        for run in text.runs {
            var piece = escaped(String(text[run.range].characters))
            if let link = run.link { piece = "<a href=\"\(escaped(link.absoluteString))\">\(piece)</a>" }
            html += piece
        }
        return html
    }

    static func render(_ text: NSAttributedString) -> String {
        var html = ""
        let whole = NSRange(location: 0, length: text.length)
        let string = text.string as NSString
        text.enumerateAttribute(NSAttributedString.Key("NSLink"), in: whole) { value, range, _ in
            var piece = escaped(string.substring(with: range))
            let link = (value as? URL)?.absoluteString ?? (value as? String)
            if let link { piece = "<a href=\"\(escaped(link))\">\(piece)</a>" }
            html += piece
        }
        return html
    }
}
