import Foundation
import ShareSheet
import UniformTypes

/// A descriptor's content in a named file of its own.
///
/// The file sits alone in a private folder (mode 0700) that `remove()` deletes; whoever spooled
/// it owns both and removes them when the share is over.
public struct SpooledFile: Sendable, Hashable {
    /// The file: `<private folder>/<name>`; the folder is this file's alone.
    public let url: URL
    /// How many bytes the file holds.
    public let byteCount: Int64
    /// The content's type: from the MIME type given, else the name's extension, else sniffed
    /// from the first bytes.
    public let type: UTType

    /// Removes the file and its folder (with anything an activity left in it); removing twice
    /// does nothing.
    public func remove() {
        let folder = url.deletingLastPathComponent()
        // Only ever a folder the spooler made: never a shared one, whatever `url` says.
        guard folder.lastPathComponent.hasPrefix(DescriptorSpooler.folderPrefix) else { return }
        try? FileManager.default.removeItem(at: folder)
        ShareScopedFiles.unregister(folder: folder)
    }
}

/// Streams what a descriptor holds into a named file, for activities that need a file (Mail
/// attaches it under its name, Save to Photos keeps its name, AirDrop sends it).
///
/// The copy never holds more than one 256 KiB buffer in memory, runs on a thread of its own (a
/// pipe whose writer stays open blocks only that thread) and stops as soon as the calling task
/// is cancelled, even while nothing arrives.
public enum DescriptorSpooler {
    /// The one buffer a copy holds, and so the most one `read` or `write` moves. 256 KiB was the
    /// fastest block size for `dd` on our machine; 1 MiB took twice as long.
    static let bufferSize = 256 * 1024
    /// Bytes per `sendfile` step, which copies in the kernel and uses no buffer of ours;
    /// cancellation is checked between steps.
    static let sendfileStep = 1 << 20
    /// Buffers start on a page: the kernel copied a pipe's pages into one that started 16 bytes
    /// into a page (where `malloc` puts large blocks) so slowly that a 1 GiB pipe took twice as
    /// long (BENCHMARKS.md, "Descriptor spooling").
    static let bufferAlignment = 4096
    /// How many leading bytes are kept to sniff the type (UTType sniffs at most 64 KiB).
    static let headLength = 64 * 1024
    /// How the private folders start: `sharesheet-spool-PID.XXXXXX` (before #28
    /// `sharesheet-spool-XXXXXX`, without the PID of the process that owns it).
    static let folderPrefix = "sharesheet-spool-"
    /// The hidden name the file has until it is complete.
    static let partialName = ".partial"
    /// The longest file name Linux filesystems take, in bytes.
    static let maximumNameLength = 255

    /// Copies everything readable from `descriptor` into a new file named after `name`, in a
    /// new private folder.
    ///
    /// A regular file is copied whole, from offset 0, whatever the descriptor's offset (which is
    /// left as it was: the copy uses `sendfile` and `pread` with explicit offsets). A pipe, socket
    /// or other stream is read from where it is until its end. The copy runs on a thread of its
    /// own through one 256 KiB buffer, fills a hidden file in the folder and gives it its name
    /// only when complete (it is not flushed to disk: it is a working copy, gone with the share).
    /// `descriptor` is never closed and must stay open until this returns.
    ///
    /// - Parameters:
    ///   - descriptor: A readable regular file, pipe or socket.
    ///   - name: The sender's file name. Folders and control characters are removed; none, or
    ///     nothing left, gives "item". A name without an extension gets one from `mimeType`;
    ///     without `mimeType`, from the content when it has a signature (a PNG's, a PDF's), and
    ///     for an unnamed item also when it is text (`item.txt`).
    ///   - mimeType: The sender's MIME type, if any; it decides the type when it is well-formed.
    ///   - limit: The most bytes accepted; `nil` for no limit.
    ///   - temporaryDirectory: Where the private folder is made; `nil` for `$TMPDIR` or `/tmp`.
    /// - Returns: The complete file; the caller removes it with `SpooledFile.remove()`.
    /// - Throws: `CancellationError` when the task is cancelled; otherwise a `ShareError` whose
    ///   one-line message starts with the item's name (or "descriptor N"): `.noInput` for a closed,
    ///   invalid or unreadable descriptor, `.badData` for a directory or more than `limit` bytes,
    ///   `.ioError` when reading or writing fails. Whatever is thrown, nothing is left on disk.
    public static func spool(
        _ descriptor: Int32, name: String?, mimeType: String?, limit: Int64? = nil,
        temporaryDirectory: URL? = nil
    ) async throws -> SpooledFile {
        try await spool(
            SpoolJob(
                descriptor: descriptor, name: name, mimeType: mimeType, limit: limit,
                parent: temporaryDirectory ?? defaultTemporaryDirectory))
    }

    /// Runs a job on a thread of its own; tests call it to choose how regular files are copied.
    static func spool(_ job: SpoolJob) async throws -> SpooledFile {
        let control: SpoolControl
        do {
            control = try SpoolControl()
        } catch {
            throw ShareError(.ioError, "\(job.label): cannot read: \(ItemResolver.describe(errno: error.code.rawValue))")
        }
        let file = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<SpooledFile, any Error>) in
                // A thread of its own: `poll` may wait for as long as the sender keeps its end open,
                // which must hold up neither the main loop nor Swift's shared threads.
                let thread = Thread {
                    // Named from inside: Foundation on Linux names a thread only when it is the
                    // current one, and Linux keeps names of at most 15 bytes.
                    Thread.current.name = "share spool"
                    continuation.resume(with: Result { try SpoolCopy(job: job, control: control).run() })
                }
                thread.start()
            }
        } onCancel: {
            control.cancel()
        }
        // Cancelled just as the copy finished: a cancelled share keeps no file either.
        if Task.isCancelled {
            file.remove()
            throw CancellationError()
        }
        return file
    }

    /// `$TMPDIR` when set, else `/tmp`.
    static var defaultTemporaryDirectory: URL {
        let variable = ProcessInfo.processInfo.environment["TMPDIR"] ?? ""
        return URL(fileURLWithPath: variable.isEmpty ? "/tmp" : variable, isDirectory: true)
    }

    /// What messages call the item: the sender's name on one line, else "descriptor N".
    static func label(descriptor: Int32, name: String?) -> String {
        let oneLine = String((name ?? "").unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.map(Character.init))
        return oneLine.isEmpty ? "descriptor \(descriptor)" : oneLine
    }

    // MARK: Name and type

    /// The file's name and type, from what the sender said and the first bytes of the content.
    static func nameAndType(name: String?, mimeType: String?, head: Data) -> (name: String, type: UTType) {
        let given = name.map(ItemResolver.safeFilename)
        // `safeFilename` falls back to "item" when nothing is left of a name: then it is unnamed.
        let isNamed = given.map { $0 != "item" || name == "item" } ?? false
        let base = given ?? "item"
        let nameExtension = (base as NSString).pathExtension

        let declared = mimeType.flatMap { UTType(mimeType: $0) }
        // An extension GIO does not know says nothing: the content decides then.
        let byName = nameExtension.isEmpty
            ? nil : UTType(filenameExtension: nameExtension).flatMap { $0.preferredMIMEType == nil ? nil : $0 }
        let sniffed = UTType.type(ofData: head, filename: isNamed ? base : nil)
        let type = declared ?? byName ?? sniffed

        guard nameExtension.isEmpty else { return (fitted(base, extension: nil), type) }
        // "README" stays "README"; "photo" holding a PNG becomes "photo.png".
        let hasSignature = sniffed != .data && !sniffed.conforms(to: .text)
        let extensionSource = declared ?? (isNamed && !hasSignature ? nil : sniffed)
        return (fitted(base, extension: extensionSource?.preferredFilenameExtension), type)
    }

    /// `base` with `.extension`, shortened at the end of the base to fit a file name.
    static func fitted(_ base: String, extension newExtension: String?) -> String {
        var stem = base
        var suffix = newExtension.map { "." + $0 } ?? ""
        if newExtension == nil, case let existing = (base as NSString).pathExtension, !existing.isEmpty,
            existing.utf8.count < maximumNameLength / 2
        {
            stem = (base as NSString).deletingPathExtension
            suffix = "." + existing
        }
        if suffix.utf8.count >= maximumNameLength / 2 { suffix = "" }
        while !stem.isEmpty, stem.utf8.count + suffix.utf8.count > maximumNameLength { stem.removeLast() }
        return (stem.isEmpty ? "item" : stem) + suffix
    }
}

/// What one spool was asked to do.
struct SpoolJob: Sendable {
    var descriptor: Int32
    var name: String?
    var mimeType: String?
    var limit: Int64?
    var parent: URL
    /// Regular files go through `sendfile` (false: through the buffer, as where the kernel
    /// cannot, which tests cannot otherwise reach).
    var copiesInKernel = true
    /// What messages call the item, when not its name or "descriptor N" (`-` for standard input).
    var givenLabel: String?
    /// The whole message for more than `limit` bytes, when not "LABEL: more than N bytes".
    var limitMessage: String?
    /// What messages call the item.
    var label: String { givenLabel ?? DescriptorSpooler.label(descriptor: descriptor, name: name) }
}
