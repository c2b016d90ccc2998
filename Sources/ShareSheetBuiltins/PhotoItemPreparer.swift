import Foundation
import PhotoPreparation
import ShareSheet
import ShareSheetSystem
import UniformTypes

/// Prepares the photos a share sends (SPEC §13) with `PhotoPreparation`: fitted to the size
/// the person chose or the activity's `image-size=`, without location and camera serial when
/// they leave this computer, as JPEG when the receiver may not read HEIC, WebP or AVIF.
///
/// Copies go into a private folder of the share's own (mode 0700), removed when the share ends
/// (`finish`), sent, queued (the queue copies what it keeps) or cancelled; kept when they were
/// handed to a program that reads them later (a share target's `Exec=`). The person's files
/// are only read. Work happens off the main actor; a size worked out to be shown before the
/// pick is kept for the send.
@MainActor
public final class PhotoItemPreparer: ItemPreparing {
    private let environment: HostEnvironment
    private var folder: URL?
    private var prepared: [Key: PreparedPhoto] = [:]
    private var finished = false
    /// The configuration file, read once per share: `needsPreparing` and `prepare` both ask.
    private lazy var configuration: Configuration? = try? environment.loadConfiguration()
    /// Preparations running now: a copy one of them writes after `finish` is removed when it ends.
    private var running: [UUID: Task<PreparedPhoto, any Error>] = [:]

    private struct Key: Hashable {
        var path: String
        var options: PhotoOptions
    }

    /// A preparer for the shares of `environment` (its configuration gives `image-size=`).
    public init(environment: HostEnvironment) {
        self.environment = environment
    }

    public func needsPreparing(_ items: [Any], for activity: Activity, choices: ItemChoices) -> Bool {
        let options = options(for: activity, choices: choices)
        guard options.longEdge != nil || options.removesLocation || options.convertsToJPEG else { return false }
        return items.contains { Self.mayBePhoto($0) }
    }

    public func prepare(_ items: [Any], for activity: Activity, choices: ItemChoices) async throws -> [Any] {
        let options = options(for: activity, choices: choices)
        var result: [Any] = []
        for item in items {
            try Task.checkCancellation()
            result.append(try await prepared(item, options: options) ?? item)
        }
        return result
    }

    public func byteCount(of items: [Any], at size: ImageSize, removingLocation: Bool) async -> Int? {
        let options = PhotoOptions(longEdge: size.longEdge, removesLocation: removingLocation)
        var total: Int?
        for item in items where Self.mayBePhoto(item) {
            guard let source = try? await sourceFile(of: item), let photo = try? await prepare(source, options: options) else {
                continue
            }
            total = (total ?? 0) + photo.byteCount
        }
        return total
    }

    public func finish(keepingCopies: Bool) {
        finished = true
        prepared = [:]
        if let folder, !keepingCopies {
            try? FileManager.default.removeItem(at: folder)
            // libvips cannot be stopped mid-photo: what it still writes goes when it is done.
            for task in running.values {
                Task.detached {
                    _ = await task.result
                    try? FileManager.default.removeItem(at: folder)
                }
            }
        }
        folder = nil
    }

    // MARK: Choices

    /// What `choices` and `activity` ask of the photos: the size chosen, else the activity's
    /// `image-size=`, else the original; location removed when the items leave; JPEG when the
    /// receiver may not read the format.
    func options(for activity: Activity, choices: ItemChoices) -> PhotoOptions {
        let size = choices.imageSize ?? configuredSize(for: activity) ?? .original
        return PhotoOptions(
            longEdge: size.longEdge, removesLocation: !choices.keepsLocation(for: activity),
            convertsToJPEG: activity.needsWidelyReadImages)
    }

    private func configuredSize(for activity: Activity) -> ImageSize? {
        guard let group = activity.imageSizeSettingGroup, let value = configuration?.string("image-size", in: group)
        else { return nil }
        // A value that is not a size is said by the configuration check; the photo goes as it is.
        return ImageSize(named: value)
    }

    // MARK: Items

    /// True for the kinds of item that can hold a photo: an image, an image file, image bytes.
    private static func mayBePhoto(_ item: Any) -> Bool {
        switch item {
        case let url as URL: return url.isFileURL && UTType.type(ofFileAt: url).conforms(to: .image)
        case let image as Image: return !image.isEmpty
        case let data as DataItem: return data.type.conforms(to: .image)
        default: return false
        }
    }

    /// The item with its photo prepared, of the same kind; nil when it holds no photo this can
    /// prepare (a vector image, an icon), which then goes as it is.
    private func prepared(_ item: Any, options: PhotoOptions) async throws -> Any? {
        guard Self.mayBePhoto(item), let source = try await sourceFile(of: item) else { return nil }
        guard await Self.canPrepare(source) else { return nil }
        let photo = try await prepare(source, options: options)
        // Nothing had to change: the item goes as it came.
        guard photo.isCopy else { return nil }
        switch item {
        case is URL:
            return photo.url
        case let image as Image:
            // An image in memory stays in memory, one from a file becomes the copy's file.
            if image.fileURL != nil { return Image(contentsOfFile: photo.url.path) }
            return Image(data: try Data(contentsOf: photo.url), type: UTType.type(ofFileAt: photo.url))
        case is DataItem:
            let bytes = try Data(contentsOf: photo.url)
            let type = UTType.type(ofFileAt: photo.url)
            return DataItem(data: bytes, filename: photo.url.lastPathComponent, typeIdentifier: type.identifier)
        default:
            return nil
        }
    }

    /// The file holding the item's photo: its own file, or its bytes written into the private
    /// folder.
    private func sourceFile(of item: Any) async throws -> URL? {
        switch item {
        case let url as URL:
            return url
        case let image as Image:
            if let file = image.fileURL { return file }
            guard let data = image.encodedData else { return nil }
            let ext = image.type.preferredFilenameExtension ?? "img"
            return try write(data, named: "image.\(ext)")
        case let item as DataItem:
            return try write(item.data, named: item.filename)
        default:
            return nil
        }
    }

    private func write(_ data: Data, named name: String) throws -> URL {
        let inside = try privateFolder().appendingPathComponent("given", isDirectory: true)
        try FileManager.default.createDirectory(at: inside, withIntermediateDirectories: true)
        var safe = FileNames.sendable(name).replacingOccurrences(of: "/", with: "_")
        if safe.isEmpty || safe == "." || safe == ".." { safe = "photo" }
        let file = inside.appendingPathComponent(safe)
        try data.write(to: file, options: .atomic)
        return file
    }

    private static func canPrepare(_ url: URL) async -> Bool {
        await Task.detached { PhotoPreparation.canPrepare(url) }.value
    }

    /// The photo prepared with `options`, made once per share.
    private func prepare(_ source: URL, options: PhotoOptions) async throws -> PreparedPhoto {
        let key = Key(path: source.path, options: options)
        if let made = prepared[key] { return made }
        // Each size and setting gets a folder of its own: the copies keep the photo's name.
        let folder = try privateFolder().appendingPathComponent(Self.folderName(for: options), isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let id = UUID()
        let task = Task.detached { try PhotoPreparation.prepare(source, options: options, into: folder) }
        running[id] = task
        defer { running[id] = nil }
        let photo = try await task.value
        guard !finished else { throw ShareError(.cancelled, "the share ended") }
        prepared[key] = photo
        return photo
    }

    private static func folderName(for options: PhotoOptions) -> String {
        "\(options.longEdge.map(String.init) ?? "original")-\(options.removesLocation ? "stripped" : "kept")"
            + (options.convertsToJPEG ? "-jpeg" : "")
    }

    private func privateFolder() throws -> URL {
        if finished { throw ShareError(.cancelled, "the share ended") }
        if let folder { return folder }
        var template = Array((NSTemporaryDirectory() + "/sharesheet-photos-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw ShareError(.ioError, "cannot make a private folder for the photos: \(String(cString: strerror(errno)))")
        }
        let url = URL(fileURLWithPath: String(cString: made), isDirectory: true)
        folder = url
        return url
    }
}
