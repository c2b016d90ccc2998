import Foundation
import ShareSheet
import UniformTypes

/// A file that goes with a post: a photo or a video.
public struct SocialAttachment: Sendable, CustomStringConvertible {
    /// Where the bytes are.
    public enum Source: Sendable {
        case file(URL)
        case data(Data)
    }

    /// The name the service sees.
    public var filename: String
    /// The file's type.
    public var type: UTType
    /// The bytes or the file holding them.
    public var source: Source

    /// Makes an attachment from a file; its type comes from its name, then its content.
    public init(fileURL: URL) {
        filename = FileNames.sendable(fileURL.lastPathComponent)
        type = UTType.type(ofFileAt: fileURL)
        source = .file(fileURL)
    }

    /// Makes an attachment from bytes.
    public init(data: Data, filename: String, type: UTType? = nil) {
        self.filename = filename
        self.type = type ?? UTType.type(ofData: data, filename: filename)
        source = .data(data)
    }

    /// The MIME type sent with the upload.
    public var mimeType: String { type.preferredMIMEType ?? "application/octet-stream" }
    /// True for a photo.
    public var isImage: Bool { type.conforms(to: .image) }
    /// True for a video.
    public var isVideo: Bool { type.conforms(to: .movie) }

    /// The whole file.
    /// - Throws: `ShareError(.noInput)` naming the file when it cannot be read.
    public func contents() throws -> Data {
        switch source {
        case .data(let data): return data
        case .file(let url):
            do {
                return try Data(contentsOf: url, options: .mappedIfSafe)
            } catch {
                throw ShareError(.noInput, "\(url.path): cannot be read")
            }
        }
    }

    /// The size in bytes.
    public func size() throws -> Int {
        switch source {
        case .data(let data): return data.count
        case .file(let url):
            var info = stat()
            guard stat(url.path, &info) == 0 else { throw ShareError(.noInput, "\(url.path): no such file") }
            return Int(info.st_size)
        }
    }

    public var description: String { "\(filename) (\(mimeType))" }
}

/// A post: its text and the files that go with it.
public struct SocialPost: Sendable {
    /// The text, links included.
    public var text: String
    /// The photos and videos, in order.
    public var attachments: [SocialAttachment]

    /// Makes a post.
    public init(text: String, attachments: [SocialAttachment] = []) {
        self.text = text
        self.attachments = attachments
    }

    /// The first web link in the text, for share pages that take one.
    public var firstLink: URL? { LinkScanner.links(in: text).lazy.compactMap(URL.init(string:)).first }

    /// The text without its first link, for share pages that take the link separately.
    public var textWithoutFirstLink: String {
        guard let link = LinkScanner.links(in: text).first, let range = text.range(of: link) else { return text }
        var remaining = text
        remaining.removeSubrange(range)
        return remaining.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Builds a post from share-sheet items: text and attributed text join the text, web links
    /// follow it, images, files, typed data and assets become attachments.
    public init(items: [Any]) {
        var texts: [String] = []
        var links: [String] = []
        var attachments: [SocialAttachment] = []
        for item in items {
            switch item {
            case let text as String: texts.append(text)
            case let text as Substring: texts.append(String(text))
            case let url as URL:
                if url.isFileURL {
                    attachments.append(SocialAttachment(fileURL: url))
                } else {
                    links.append(url.absoluteString)
                }
            case let image as Image:
                if let file = image.fileURL {
                    attachments.append(SocialAttachment(fileURL: file))
                } else if let data = image.encodedData {
                    let ext = image.type.preferredFilenameExtension ?? "img"
                    attachments.append(SocialAttachment(data: data, filename: "image.\(ext)", type: image.type))
                }
            case let dataItem as DataItem:
                attachments.append(SocialAttachment(data: dataItem.data, filename: dataItem.filename, type: dataItem.type))
            case let asset as Asset:
                attachments.append(SocialAttachment(fileURL: asset.fileURL))
            case let data as Data:
                let type = UTType.type(ofData: data)
                attachments.append(
                    SocialAttachment(data: data, filename: "item." + (type.preferredFilenameExtension ?? "bin"), type: type))
            case let attributed as AttributedString:
                texts.append(String(attributed.characters))
            case let attributed as NSAttributedString:
                texts.append(attributed.string)
            default:
                continue
            }
        }
        let body = texts.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
        self.init(text: (body + links).joined(separator: " "), attachments: attachments)
    }
}
