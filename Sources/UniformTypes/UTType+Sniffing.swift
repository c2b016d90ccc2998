import Foundation

extension UTType {
    /// How many leading bytes are sniffed: enough for every magic rule of common formats,
    /// including ISO 9660's at offset 32 769.
    static let sniffLength = 64 * 1024

    /// The type of the file or folder at a URL.
    ///
    /// A directory is `.folder`. Otherwise the name decides; when it says nothing (no extension,
    /// or one GIO does not know) or is ambiguous (`.ts`: Qt translation or MPEG stream), the first
    /// bytes of the content are sniffed too. An unreadable or missing file goes by its name alone.
    /// What neither name nor content identify is `.data`, or the dynamic type of an unknown
    /// extension.
    /// - Parameter url: A file URL; for other URLs only the last path component is used.
    public static func type(ofFileAt url: URL) -> UTType {
        let name = url.lastPathComponent
        let filenameExtension = url.pathExtension.isEmpty ? nil : url.pathExtension
        if url.isFileURL {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory),
                isDirectory.boolValue
            {
                return .folder
            }
        }
        let byName = GIOContentTypes.guess(filename: name, data: nil)
        let nameIsConclusive = !byName.isUncertain && !GIOContentTypes.isUnknown(byName.contentType)
        if nameIsConclusive || !url.isFileURL {
            return forContentType(byName.contentType, filenameExtension: filenameExtension)
        }
        guard let head = readHead(of: url), !head.isEmpty else {
            return forContentType(byName.contentType, filenameExtension: filenameExtension)
        }
        let sniffed = GIOContentTypes.guess(filename: name, data: head)
        return forContentType(sniffed.contentType, filenameExtension: filenameExtension)
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

    private static func readHead(of url: URL) -> Data? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        return try? handle.read(upToCount: sniffLength)
    }
}
