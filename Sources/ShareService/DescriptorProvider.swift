import Foundation
import ShareSheet
import Sharing
import UniformTypes

/// A file a caller sent as a descriptor: offered at once under its name and type, read only
/// after the pick, streamed into a file of its own off the main actor. Cancelling the share
/// (Close, the caller leaving) stops the copy and leaves nothing behind.
final class DescriptorProvider: FileProvider, @unchecked Sendable {
    /// Makes the provider; the descriptor stays open until the request closes it.
    /// - Parameters:
    ///   - name: the caller's name for the file; without one, "item N" with the type's extension.
    ///   - mimeType: the caller's type for it; else the name's extension says.
    init(descriptor: Int32, name: String?, mimeType: String?, number: Int) {
        let type = Self.type(name: name, mimeType: mimeType)
        let filename = name.map(ItemResolver.safeFilename) ?? "item-\(number)"
        super.init(filename: filename, type: type) { destination, progress in
            var status = stat()
            if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG {
                progress.totalUnitCount = Int64(status.st_size)
            }
            // Streamed off the main thread, cancellable while a pipe's writer stays silent, and
            // nothing left behind on any failure; then moved under the name the sheet showed.
            let spooled = try await DescriptorSpooler.spool(
                descriptor, name: destination.lastPathComponent, mimeType: mimeType,
                temporaryDirectory: destination.deletingLastPathComponent())
            defer { spooled.remove() }
            try FileManager.default.moveItem(at: spooled.url, to: destination)
            progress.completedUnitCount = spooled.byteCount
        }
    }

    private static func type(name: String?, mimeType: String?) -> UTType? {
        if let mimeType, let type = Self.type(mimeType: mimeType) { return type }
        if let name, !(name as NSString).pathExtension.isEmpty {
            return UTType(filenameExtension: (name as NSString).pathExtension)
        }
        return nil
    }

    /// `UTType(mimeType:)`, kept per MIME type: callers send the same few types with every call,
    /// and the look-up (parsing and normalizing the type) costs more than the rest of an item.
    private static func type(mimeType: String) -> UTType? {
        if let kept = mimeTypes.withLock({ $0[mimeType] }) { return kept }
        let type = UTType(mimeType: mimeType)
        mimeTypes.withLock { types in
            if types.count >= 256 { types.removeAll() }
            types[mimeType] = .some(type)
        }
        return type
    }

    private static let mimeTypes = Locked<[String: UTType?]>([:])
}
