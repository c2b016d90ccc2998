import Foundation
import UniformTypes

/// A document written only after the pick, under its real name (seed 004's recipe, solved once).
///
/// The placeholder is the file URL the document will have, so the sheet offers what fits the
/// file's type at once. After the pick the writer fills a temporary file next to it, which is
/// renamed into place when the writer returns. Dismissing cancels the writer and removes the
/// temporary file: a cancelled share leaves nothing behind.
open class FileProvider: ActivityItemProvider, @unchecked Sendable {
    /// Where the document will be once written.
    public let fileURL: URL
    /// Set when a writer first makes the document's folder: until then there is nothing to remove.
    private let folderMade: Locked<Bool>

    /// Makes a provider that writes `filename` lazily.
    /// - Parameters:
    ///   - filename: the document's name, as people will see it.
    ///   - type: its type; when given and the name has no extension, the type's extension is added.
    ///   - write: writes the whole document to the URL it is given; may check `Task.isCancelled`.
    public convenience init(
        filename: String, type: UTType? = nil, write: @escaping @Sendable (URL) async throws -> Void
    ) {
        self.init(filename: filename, type: type) { url, _ in try await write(url) }
    }

    /// Makes a provider that writes `filename` lazily and reports its progress.
    public init(
        filename: String, type: UTType? = nil,
        write: @escaping @Sendable (URL, Progress) async throws -> Void
    ) {
        let name = FileProvider.name(filename, ensuringExtensionOf: type)
        // Only named here: the folder is made when the writer runs, after the pick. The name is
        // a file's, said so, which spares the URL a look at the file system.
        let folder = TemporaryFolder.makeUniqueURL()
        let destination = folder.appendingPathComponent(name, isDirectory: false)
        let folderMade = Locked(false)
        fileURL = destination
        self.folderMade = folderMade
        super.init(placeholder: destination) { _, progress in
            folderMade.withLock { $0 = true }
            // The document goes with the share (or this provider): say so to those who keep paths.
            ShareScopedFiles.register(folder: folder)
            try await AtomicFileWrite.write(to: destination, progress: progress, write)
            return destination
        }
    }

    deinit {
        // A sheet that was only listed (a service's ListActivities) never made the folder.
        guard folderMade.withLock({ $0 }) else { return }
        try? FileManager.default.removeItem(at: fileURL.deletingLastPathComponent())
        ShareScopedFiles.unregister(folder: fileURL.deletingLastPathComponent())
    }

    static func name(_ filename: String, ensuringExtensionOf type: UTType?) -> String {
        // Foundation's replacing costs more than the rest of making a provider: only when needed.
        let safe = filename.contains("/") ? filename.replacingOccurrences(of: "/", with: "∕") : filename
        guard let type, (safe as NSString).pathExtension.isEmpty,
            let ext = type.preferredFilenameExtension
        else { return safe.isEmpty ? "document" : safe }
        return safe + "." + ext
    }
}

/// Writes a file through a temporary neighbour that is renamed into place, or removed when the
/// writer fails or the task is cancelled.
enum AtomicFileWrite {
    static func write(
        to destination: URL, progress: Progress,
        _ body: @Sendable (URL, Progress) async throws -> Void
    ) async throws {
        let fileManager = FileManager.default
        let folder = destination.deletingLastPathComponent()
        try fileManager.createDirectory(at: folder, withIntermediateDirectories: true)
        // Same folder, so the final rename cannot cross file systems; same extension, so a
        // writer that picks its format by extension still sees the right one.
        let staging = folder.appendingPathComponent(".partial-\(UUID().uuidString)", isDirectory: true)
        try fileManager.createDirectory(at: staging, withIntermediateDirectories: false)
        defer { try? fileManager.removeItem(at: staging) }
        let partial = staging.appendingPathComponent(destination.lastPathComponent)
        do {
            try await body(partial, progress)
            try Task.checkCancellation()
        } catch {
            // A cancelled or failed write leaves nothing: the staging folder goes with the
            // defer above, and the provider's own folder too when nothing else is in it (rmdir
            // removes only an empty folder). The process may end before the provider's deinit.
            try? fileManager.removeItem(at: staging)
            rmdir(folder.path)
            throw error
        }
        guard fileManager.fileExists(atPath: partial.path) else {
            throw ShareError(.ioError, "\(destination.lastPathComponent): the provider wrote no file")
        }
        if fileManager.fileExists(atPath: destination.path) { try fileManager.removeItem(at: destination) }
        try fileManager.moveItem(at: partial, to: destination)
    }
}

/// Unique folders under the temporary directory for providers' files.
enum TemporaryFolder {
    static func makeUniqueURL() -> URL {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("sharesheet-\(randomUUID().uuidString)", isDirectory: true)
    }

    /// A random (version 4) UUID from the system's generator (`getrandom`), as unguessable as
    /// `UUID()`, without the open and read of `/dev/urandom` that costs on Linux per call.
    static func randomUUID() -> UUID {
        var generator = SystemRandomNumberGenerator()
        var bytes = (generator.next() as UInt64, generator.next() as UInt64)
        return withUnsafeMutableBytes(of: &bytes) { raw in
            raw[6] = raw[6] & 0x0F | 0x40  // version 4
            raw[8] = raw[8] & 0x3F | 0x80  // RFC 4122 variant
            return UUID(uuid: raw.load(as: uuid_t.self))
        }
    }
}
