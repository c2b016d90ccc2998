import Foundation
import ShareSheet
import UniformTypes

/// One item of a print job, checked and ready to render: what SPEC §1.7 lets Print take.
enum PrintableItem {
    /// A PDF passed through unchanged.
    case pdf(Data, label: String, pageCount: Int?)
    /// A decoded image: one page, turned to the image's shape.
    case image(DecodedImage, label: String)
    /// Pages drawn by a renderer (text, attributed text and formatters are wrapped in one).
    case renderer(PrintPageRenderer, label: String)

    var label: String {
        switch self {
        case .pdf(_, let label, _), .image(_, let label), .renderer(_, let label): return label
        }
    }

    /// Its pages, once laid out (nil for a PDF whose pages could not be counted).
    var pageCount: Int? {
        switch self {
        case .pdf(_, _, let count): return count
        case .image: return 1
        case .renderer(let renderer, _): return renderer.numberOfPages
        }
    }

    /// The font plain-text files print in, like a line printer's.
    static let textFileFont = PrintFont(family: "Monospace", size: 10)

    /// Checks and prepares `item`; nil for items that print nothing (a `PrintInfo`).
    /// - Throws: `ShareError` `.badData` naming the item when its content is unusable,
    ///   `.noInput` when its file cannot be read.
    static func make(from item: Any) throws -> PrintableItem? {
        switch item {
        case is PrintInfo:
            return nil
        case let text as String:
            return plainText(text, label: "text", font: .systemFont(ofSize: 12))
        case let text as Substring:
            return plainText(String(text), label: "text", font: .systemFont(ofSize: 12))
        case let attributed as AttributedString:
            return .renderer(
                wrap(AttributedTextPrintFormatter(pangoMarkup: AttributedMarkup.markup(attributed), font: .systemFont(ofSize: 12))),
                label: "attributed text")
        case let attributed as NSAttributedString:
            return .renderer(
                wrap(AttributedTextPrintFormatter(pangoMarkup: AttributedMarkup.markup(attributed), font: .systemFont(ofSize: 12))),
                label: "attributed text")
        case let url as URL:
            guard url.isFileURL else { throw ShareError(.badData, "\(url.absoluteString): only local files can be printed") }
            let label = url.lastPathComponent
            let type = UTType.type(ofFileAt: url)
            if Self.isPlainText(type) {
                // Read a block at a time while laid out and drawn, never whole.
                guard access(url.path, R_OK) == 0 else { throw ShareError(.noInput, "\(label): cannot be read") }
                return .renderer(wrap(TextFilePrintFormatter(url: url, label: label, font: textFileFont)), label: label)
            }
            let data: Data
            do {
                data = try Data(contentsOf: url, options: .mappedIfSafe)
            } catch {
                throw ShareError(.noInput, "\(label): cannot be read")
            }
            return try content(data, type: type, label: label, path: url.path)
        case let dataItem as DataItem:
            return try content(dataItem.data, type: dataItem.type, label: dataItem.filename)
        case let data as Data:
            return try content(data, type: UTType.type(ofData: data.prefix(4096)), label: "data")
        case let image as Image:
            let label = image.fileURL?.lastPathComponent ?? "image"
            guard let data = image.encodedData else { throw ShareError(.noInput, "\(label): cannot be read") }
            return try decodeImage(data, label: label, path: image.fileURL?.path)
        case let renderer as PrintPageRenderer:
            return .renderer(renderer, label: "print page renderer")
        case let formatter as PrintFormatter:
            return .renderer(wrap(formatter), label: "print formatter")
        default:
            throw ShareError(.badData, "\(ItemKind.of(item)): cannot be printed")
        }
    }

    private static func plainText(_ text: String, label: String, font: PrintFont) -> PrintableItem {
        let formatter = SimpleTextPrintFormatter(text: text)
        formatter.font = font
        return .renderer(wrap(formatter), label: label)
    }

    /// A renderer holding only `formatter`, from the first page.
    static func wrap(_ formatter: PrintFormatter) -> PrintPageRenderer {
        // The printable area already keeps 18 pt from the edge; 54 more make an inch.
        if formatter.perPageContentInsets == (72, 72, 72, 72) { formatter.perPageContentInsets = (54, 54, 54, 54) }
        let renderer = PrintPageRenderer()
        renderer.addPrintFormatter(formatter, startingAtPageAt: 0)
        return renderer
    }

    /// True for text that is neither PDF, an image nor HTML: what prints as plain text.
    private static func isPlainText(_ type: UTType) -> Bool {
        type.conforms(to: .text) && !type.conforms(to: .pdf) && !type.conforms(to: .image) && !type.conforms(to: .html)
    }

    private static func content(_ data: Data, type: UTType, label: String, path: String? = nil) throws -> PrintableItem {
        if type.conforms(to: .pdf) { return try pdf(data, label: label) }
        if type.conforms(to: .image) { return try decodeImage(data, label: label, path: path) }
        if type.conforms(to: .html) {
            return .renderer(wrap(MarkupTextPrintFormatter(markupText: try decodeText(data, label: label))), label: label)
        }
        if type.conforms(to: .text) {
            return plainText(try decodeText(data, label: label), label: label, font: textFileFont)
        }
        // Content decides when the type says nothing useful.
        if data.starts(with: Array("%PDF-".utf8)) { return try pdf(data, label: label) }
        throw ShareError(.badData, "\(label): \(type.identifier) cannot be printed (images, PDF and text can)")
    }

    private static func decodeText(_ data: Data, label: String) throws -> String {
        let holdsNUL = data.withUnsafeBytes { $0.baseAddress.map { memchr($0, 0, data.count) != nil } ?? false }
        if holdsNUL { throw ShareError(.badData, "\(label): not text (it holds NUL bytes)") }
        return String(decoding: data, as: UTF8.self)
    }

    private static func decodeImage(_ data: Data, label: String, path: String? = nil) throws -> PrintableItem {
        do {
            return .image(try path.map(DecodedImage.init(path:)) ?? DecodedImage(data: data), label: label)
        } catch let failure as PrintFailure {
            throw ShareError(.badData, "\(label): not a readable image: \(failure.reason)")
        }
    }

    /// Checks that `data` is a whole PDF: the header, and the end-of-file marker a truncated
    /// file lacks.
    static func pdf(_ data: Data, label: String) throws -> PrintableItem {
        guard let headerRange = data.prefix(1024).firstRange(of: Data("%PDF-".utf8)) else {
            throw ShareError(.badData, "\(label): not a PDF (no %PDF- header)")
        }
        _ = headerRange
        guard data.suffix(2048).firstRange(of: Data("%%EOF".utf8)) != nil else {
            throw ShareError(.badData, "\(label): the PDF is truncated (no %%EOF at its end)")
        }
        return .pdf(data, label: label, pageCount: PDFPageCounter.count(in: data))
    }
}

/// Counts the pages of a PDF whose page objects are not compressed: `/Type /Page` entries.
enum PDFPageCounter {
    static func count(in data: Data) -> Int? {
        var count = 0
        let bytes = [UInt8](data)
        let key = Array("/Type".utf8)
        var index = 0
        while index + key.count < bytes.count {
            if bytes[index] == 0x2F, bytes[index..<(index + key.count)].elementsEqual(key) {
                var cursor = index + key.count
                while cursor < bytes.count, bytes[cursor] == 0x20 || bytes[cursor] == 0x0A || bytes[cursor] == 0x0D { cursor += 1 }
                let page = Array("/Page".utf8)
                if cursor + page.count < bytes.count, bytes[cursor..<(cursor + page.count)].elementsEqual(page) {
                    let next = bytes[cursor + page.count]
                    if !(next >= 0x41 && next <= 0x5A) && !(next >= 0x61 && next <= 0x7A) { count += 1 }
                }
                index = cursor
                continue
            }
            index += 1
        }
        return count > 0 ? count : nil
    }
}

/// Attributed text as Pango markup: the characters, with link runs underlined and followed by
/// their address.
enum AttributedMarkup {
    static func markup(_ text: AttributedString) -> String {
        var result = ""
        for run in text.runs {
            let piece = HTMLMarkup.escaped(String(text[run.range].characters))
            if let link = run.link {
                result += "<span foreground=\"#1A4DB3\" underline=\"single\">\(piece)</span>"
                if link.absoluteString != String(text[run.range].characters) {
                    result += " (" + HTMLMarkup.escaped(link.absoluteString) + ")"
                }
            } else {
                result += piece
            }
        }
        return result
    }

    static func markup(_ text: NSAttributedString) -> String {
        var result = ""
        let whole = text.string as NSString
        text.enumerateAttribute(NSAttributedString.Key("NSLink"), in: NSRange(location: 0, length: text.length)) { value, range, _ in
            let piece = HTMLMarkup.escaped(whole.substring(with: range))
            let link = (value as? URL)?.absoluteString ?? (value as? String)
            if let link {
                result += "<span foreground=\"#1A4DB3\" underline=\"single\">\(piece)</span>"
                if link != whole.substring(with: range) { result += " (" + HTMLMarkup.escaped(link) + ")" }
            } else {
                result += piece
            }
        }
        return result
    }
}
