import Foundation
import ShareSheet
import UniformTypes

/// An item to save, reduced to where its bytes are and what it was called.
enum PhotoSource: Sendable {
    /// A file, streamed.
    case file(URL)
    /// Bytes in memory, with the name they should carry.
    case data(Data, name: String)

    init(_ item: Any) throws {
        switch item {
        case let url as URL:
            guard url.isFileURL else {
                throw ShareError(.badData, "\(url.absoluteString): only local image or video files can be saved to Photos")
            }
            self = .file(url)
        case let asset as Asset: self = .file(asset.fileURL)
        case let image as Image:
            if let fileURL = image.fileURL {
                self = .file(fileURL)
            } else if let data = image.encodedData {
                self = .data(data, name: "Image")
            } else {
                throw ShareError(.badData, "image: it has no content")
            }
        case let dataItem as DataItem: self = .data(dataItem.data, name: dataItem.filename)
        case let data as Data: self = .data(data, name: "Untitled")
        default:
            throw ShareError(.badData, "\(ItemKind.of(item)): not an image or video")
        }
    }

    /// The name errors use.
    var label: String {
        switch self {
        case .file(let url): return url.path
        case .data(_, let name): return name
        }
    }

    /// How many bytes saving it copies (0 when the file cannot be read: its copy then fails
    /// with the reason).
    var byteCount: Int64 {
        switch self {
        case .file(let url):
            var info = stat()
            return stat(url.path, &info) == 0 ? Int64(info.st_size) : 0
        case .data(let data, _): return Int64(data.count)
        }
    }

    /// What the content is, and the name to save it under.
    struct Inspection {
        var kind: PhotoLibrary.Kind
        var type: UTType
        var filename: String
    }

    /// Sniffs the first bytes: the content decides, the name only supplies the file name.
    func inspect() throws -> Inspection {
        let head: Data
        let name: String
        switch self {
        case .file(let url):
            head = try Self.readHead(of: url)
            name = url.lastPathComponent
        case .data(let data, let dataName):
            head = data.prefix(64 * 1024)
            name = dataName
        }
        let type = UTType.type(ofData: head)
        let kind: PhotoLibrary.Kind
        if type.conforms(to: .image) {
            kind = .photo
        } else if type.conforms(to: .movie) {
            kind = .video
        } else {
            let what = head.isEmpty ? "it is empty" : "it is \(type.localizedDescription ?? type.identifier)"
            throw ShareError(.badData, "\(label): not an image or video (\(what))")
        }
        return Inspection(kind: kind, type: type, filename: Self.filename(name, type: type, kind: kind))
    }

    /// The name without leading dots (a hidden photo is a lost photo), with the content's
    /// extension added when the name has none or one of another kind (`scan` → `scan.jpg`).
    static func filename(_ name: String, type: UTType, kind: PhotoLibrary.Kind) -> String {
        var base = String(name.drop { $0 == "." })
        if base.isEmpty { base = kind == .photo ? "Image" : "Video" }
        let ext = (base as NSString).pathExtension
        if !ext.isEmpty, let named = UTType(filenameExtension: ext.lowercased()),
            named.conforms(to: kind == .photo ? .image : .movie)
        {
            return base
        }
        guard let preferred = type.preferredFilenameExtension else { return base }
        return base + "." + preferred
    }

    private static func readHead(of url: URL) throws -> Data {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw LibraryWriter.inputError(url.path, errno) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw LibraryWriter.inputError(url.path, errno) }
        if info.st_mode & S_IFMT == S_IFDIR { throw ShareError(.noInput, "\(url.path): is a directory") }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var filled = 0
        while filled < buffer.count {
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + filled, $0.count - filled, off_t(filled)) }
            if count < 0 {
                if errno == EINTR { continue }
                throw LibraryWriter.inputError(url.path, errno)
            }
            if count == 0 { break }
            filled += count
        }
        return Data(buffer[0..<filled])
    }
}
