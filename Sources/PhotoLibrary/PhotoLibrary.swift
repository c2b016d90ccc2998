import Foundation
import ShareSheet
import ShareSheetSystem
import UniformTypes

/// The user's photo and video library: images go to the XDG Pictures folder, videos to the XDG
/// Videos folder, where image viewers, file managers and other programs already look.
///
/// The plain API behind Save to Photos (SPEC §3), the `UIImageWriteToSavedPhotosAlbum`
/// equivalent. Every save:
/// - decides between photo and video by the content's first bytes, never by the name;
/// - copies the bytes as they are (a JPEG stays the same JPEG), streamed in chunks, so a
///   multi-gigabyte video costs little memory (holes of sparse files stay holes);
/// - writes into an unnamed file in the destination folder (`O_TMPFILE`), which the kernel frees
///   if the process dies, and gives it its name only when complete, with `linkat`, which fails
///   rather than replace an existing file; a clash yields `name 2.ext`, `name 3.ext`…
///
/// On a filesystem without unnamed files, a hidden `.sharesheet-partial-PID-…` file stands in for
/// it; the next save into that folder removes those left by processes that no longer run.
public struct PhotoLibrary: Sendable {
    /// What a saved item is.
    public enum Kind: String, Sendable {
        /// A still image: saved into the pictures folder.
        case photo
        /// A video: saved into the videos folder.
        case video
    }

    /// Where photos are saved.
    public let picturesFolder: URL
    /// Where videos are saved.
    public let videosFolder: URL

    /// A library that saves into the given folders (created when missing).
    public init(picturesFolder: URL, videosFolder: URL) {
        self.picturesFolder = picturesFolder
        self.videosFolder = videosFolder
    }

    /// The user's library: `XDG_PICTURES_DIR` and `XDG_VIDEOS_DIR`, each with the configured
    /// subfolder (`[photos] subfolder=…`) when there is one.
    /// - Throws: `ShareError(.badData)` when the subfolder is absolute or climbs out with `..`.
    public init(directories: XDGDirectories = HostEnvironment.process.directories, configuration: Configuration = .empty) throws {
        var pictures = directories.userDirectory(.pictures)
        var videos = directories.userDirectory(.videos)
        if let subfolder = configuration.string("subfolder", in: "photos"), !subfolder.isEmpty {
            let parts = subfolder.split(separator: "/", omittingEmptySubsequences: true)
            let origin = configuration.file?.path ?? "configuration"
            guard !subfolder.hasPrefix("/"), !parts.isEmpty, !parts.contains(where: { $0 == ".." || $0 == "." }) else {
                throw ShareError(
                    .badData, "\(origin): the photos subfolder '\(subfolder)' must be a relative folder name without . or ..",
                    setting: .init(group: "photos", "subfolder"), path: configuration.file?.path)
            }
            for part in parts {
                pictures.appendPathComponent(String(part), isDirectory: true)
                videos.appendPathComponent(String(part), isDirectory: true)
            }
        }
        self.init(picturesFolder: pictures, videosFolder: videos)
    }

    /// The library of a host environment (this process's by default), with its configuration
    /// file read.
    /// - Throws: `ShareError(.configuration)` for a malformed configuration file.
    public static func user(in host: HostEnvironment = .process) throws -> PhotoLibrary {
        try PhotoLibrary(directories: host.directories, configuration: host.loadConfiguration())
    }

    /// Saves an image or video into the user's library (see `save(_:progress:isCancelled:)`).
    /// - Returns: the saved file.
    @discardableResult
    public static func save(_ item: Any) throws -> URL {
        try user().save(item)
    }

    /// The folder a kind of item is saved into.
    public func folder(for kind: Kind) -> URL {
        kind == .photo ? picturesFolder : videosFolder
    }

    /// Whether `item` would be saved as a photo or a video, decided by its content.
    /// - Throws: `ShareError(.badData)` when it is neither (naming the item and what it is),
    ///   `.noInput` when a file cannot be read.
    public func kind(of item: Any) throws -> Kind {
        try PhotoSource(item).inspect().kind
    }

    /// Saves an image or video: a file URL, an `Image` (its own encoding), an `Asset`, a
    /// `DataItem` or `Data`.
    /// - Parameters:
    ///   - progress: counts bytes copied, when given.
    ///   - isCancelled: asked between chunks; when true the copy stops and nothing is left.
    /// - Returns: the saved file, under a name no other file had.
    /// - Throws: `ShareError` — `.badData` for anything but an image or video, `.noInput` for a
    ///   missing or unreadable file, `.ioError` when writing fails, `.cancelled` when cancelled.
    @discardableResult
    public func save(
        _ item: Any, progress: Progress? = nil, isCancelled: @Sendable () -> Bool = { Task.isCancelled }
    ) throws -> URL {
        let source = try PhotoSource(item)
        let inspected = try source.inspect()
        let folder = folder(for: inspected.kind)
        return try LibraryWriter.save(
            source, as: inspected.filename, into: folder, progress: progress, isCancelled: isCancelled)
    }
}
