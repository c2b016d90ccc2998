import Foundation

extension UTType {
    /// How many leading bytes are sniffed: enough for every magic rule of common formats,
    /// including ISO 9660's at offset 32 769.
    static let sniffLength = 64 * 1024

    /// The type of the file or folder at a URL.
    ///
    /// A folder URL is `.folder` (`URL(fileURLWithPath:)` looks when the URL is made, so this
    /// function does not `stat` again: a shared file is typed once per sheet, and each look at
    /// the disk counts). Otherwise the name decides; when it says nothing (no extension, or one
    /// GIO does not know) or is ambiguous (`.ts`: Qt translation or MPEG stream), the first bytes
    /// of the content are sniffed too, and content that turns out to be a directory is `.folder`.
    /// An unreadable or missing file goes by its name alone. What neither name nor content
    /// identify is `.data`, or the dynamic type of an unknown extension.
    /// - Parameter url: A file URL; for other URLs only the last path component is used.
    public static func type(ofFileAt url: URL) -> UTType {
        if url.isFileURL, url.hasDirectoryPath { return .folder }
        let name = url.lastPathComponent
        let filenameExtension = url.pathExtension.isEmpty ? nil : url.pathExtension
        let byName = GIOContentTypes.guess(filename: name, data: nil)
        let nameIsConclusive = !byName.isUncertain && !GIOContentTypes.isUnknown(byName.contentType)
        if nameIsConclusive || !url.isFileURL {
            return forContentType(byName.contentType, filenameExtension: filenameExtension)
        }
        switch readHead(of: url) {
        case .folder:
            return .folder
        case .bytes(let head) where !head.isEmpty:
            let sniffed = GIOContentTypes.guess(filename: name, data: head)
            return forContentType(sniffed.contentType, filenameExtension: filenameExtension)
        default:
            return forContentType(byName.contentType, filenameExtension: filenameExtension)
        }
    }

    /// The type of some bytes, sniffed from their content and, if given, a file name.
    /// - Parameters:
    ///   - data: The content, or at least its first few kilobytes.
    ///   - filename: The name the data would be saved under, if known.
    public static func type(ofData data: Data, filename: String? = nil) -> UTType {
        let head = data.prefix(sniffLength)
        let guess = GIOContentTypes.guess(filename: filename, data: head)
        var filenameExtension: String?
        if let filename {
            let pathExtension = (filename as NSString).pathExtension
            filenameExtension = pathExtension.isEmpty ? nil : pathExtension
        }
        return forContentType(guess.contentType, filenameExtension: filenameExtension)
    }

    private enum Head {
        case bytes(Data)
        case folder
        case unreadable
    }

    /// The first bytes of a file, with one `open` and one `read`; never blocks on a FIFO.
    private static func readHead(of url: URL) -> Head {
        let descriptor = open(url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return .unreadable }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: sniffLength)
        var count: Int
        repeat {
            count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        } while count < 0 && errno == EINTR
        if count < 0 { return errno == EISDIR ? .folder : .unreadable }
        return .bytes(Data(buffer[0..<count]))
    }
}
