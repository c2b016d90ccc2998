import CGlibcShims
import Foundation
import ShareSheet

/// The one place that writes into the library: an unnamed file in the destination folder,
/// filled by a streamed copy, flushed, then given a name that no file has.
enum LibraryWriter {
    /// Bytes per `copy_file_range` or `read`/`write` step; cancellation is checked between steps.
    static let chunkSize = 8 * 1024 * 1024
    /// The prefix of the hidden stand-in used where unnamed files are not supported.
    static let partialPrefix = ".sharesheet-partial-"

    static func save(
        _ source: PhotoSource, as filename: String, into folder: URL, progress: Progress?,
        isCancelled: () -> Bool
    ) throws -> URL {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw ShareError(.ioError, "\(folder.path): cannot create the folder: \((error as NSError).localizedDescription)")
        }
        removeAbandonedPartials(in: folder)
        let file = try PendingFile(in: folder)
        defer { file.discard() }
        switch source {
        case .file(let url): try copy(from: url, to: file, progress: progress, isCancelled: isCancelled)
        case .data(let data, _): try write(data, to: file, progress: progress, isCancelled: isCancelled)
        }
        if isCancelled() { throw cancelled(filename) }
        return try file.publish(as: filename)
    }

    // MARK: Copying

    private static func copy(from url: URL, to file: PendingFile, progress: Progress?, isCancelled: () -> Bool) throws {
        let input = open(url.path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw inputError(url.path, errno) }
        defer { close(input) }
        var info = stat()
        guard fstat(input, &info) == 0 else { throw inputError(url.path, errno) }
        let size = Int64(info.st_size)
        progress?.totalUnitCount = size
        var useCopyFileRange = true
        var offset: Int64 = 0
        while offset < size {
            // Holes of a sparse file are skipped and stay holes; everything else is copied.
            var dataStart = cglibc_seek_data(input, offset)
            var dataEnd: Int64
            if dataStart < 0 {
                if errno == ENXIO { break }  // only a hole is left
                dataStart = offset
                dataEnd = size
            } else {
                dataEnd = cglibc_seek_hole(input, dataStart)
                if dataEnd < 0 { dataEnd = size }
            }
            dataEnd = min(dataEnd, size)
            var inputOffset = dataStart
            var outputOffset = dataStart
            while inputOffset < dataEnd {
                if isCancelled() { throw cancelled(url.path) }
                let length = Int(min(Int64(chunkSize), dataEnd - inputOffset))
                var copied: Int64 = -1
                if useCopyFileRange {
                    copied = cglibc_copy_file_range(input, &inputOffset, file.descriptor, &outputOffset, length)
                    if copied < 0 {
                        let code = errno
                        if code == EINTR { continue }
                        guard [EXDEV, ENOSYS, EINVAL, EOPNOTSUPP, EBADF, EPERM].contains(code) else {
                            throw outputError(file.folder.path, code)
                        }
                        useCopyFileRange = false
                    }
                }
                if !useCopyFileRange {
                    copied = try copyByReading(input, at: inputOffset, to: file, length: length, label: url.path)
                    inputOffset += copied
                    outputOffset += copied
                }
                if copied == 0 { throw ShareError(.ioError, "\(url.path): the file got shorter while it was copied") }
                progress?.completedUnitCount = inputOffset
            }
            offset = dataEnd
        }
        // The length covers a trailing hole too.
        guard ftruncate(file.descriptor, off_t(size)) == 0 else { throw outputError(file.folder.path, errno) }
        progress?.completedUnitCount = size
    }

    private static func copyByReading(
        _ input: Int32, at offset: Int64, to file: PendingFile, length: Int, label: String
    ) throws -> Int64 {
        var buffer = [UInt8](repeating: 0, count: min(length, 1024 * 1024))
        let count = buffer.withUnsafeMutableBytes { pread(input, $0.baseAddress, $0.count, off_t(offset)) }
        if count < 0 {
            if errno == EINTR { return try copyByReading(input, at: offset, to: file, length: length, label: label) }
            throw inputError(label, errno)
        }
        try buffer.withUnsafeBytes { bytes in
            try file.write(UnsafeRawBufferPointer(rebasing: bytes[0..<count]), at: offset)
        }
        return Int64(count)
    }

    private static func write(_ data: Data, to file: PendingFile, progress: Progress?, isCancelled: () -> Bool) throws {
        progress?.totalUnitCount = Int64(data.count)
        var offset = 0
        while offset < data.count {
            if isCancelled() { throw cancelled("image") }
            let end = min(offset + chunkSize, data.count)
            try data[offset..<end].withUnsafeBytes { try file.write($0, at: Int64(offset)) }
            offset = end
            progress?.completedUnitCount = Int64(offset)
        }
    }

    // MARK: Leftovers

    /// Removes hidden stand-ins whose process is gone (killed mid-copy on a filesystem without
    /// unnamed files). Those of running processes are left alone.
    static func removeAbandonedPartials(in folder: URL) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix(partialPrefix) {
            let rest = name.dropFirst(partialPrefix.count)
            guard let pidText = rest.split(separator: "-").first, let pid = pid_t(pidText) else { continue }
            if kill(pid, 0) != 0, errno == ESRCH {
                unlink(folder.appendingPathComponent(name).path)
            }
        }
    }

    // MARK: Errors

    static func inputError(_ label: String, _ code: Int32) -> ShareError {
        let reason = code == ENOENT || code == ENOTDIR ? "no such file" : describe(code)
        return ShareError(.noInput, "\(label): \(reason)")
    }

    static func outputError(_ label: String, _ code: Int32) -> ShareError {
        ShareError(.ioError, "\(label): cannot write: \(describe(code))")
    }

    static func cancelled(_ label: String) -> ShareError {
        ShareError(.cancelled, "\(label): saving was cancelled")
    }

    static func describe(_ code: Int32) -> String {
        if code == EACCES || code == EPERM { return "permission denied" }
        let text = String(cString: strerror(code))
        return text.prefix(1).lowercased() + text.dropFirst()
    }
}

/// A file being written in the destination folder that has no name yet.
final class PendingFile {
    let folder: URL
    let descriptor: Int32
    /// The hidden stand-in's path when the filesystem has no unnamed files.
    private let partialPath: String?
    private var published = false

    init(in folder: URL) throws {
        self.folder = folder
        let unnamed = cglibc_open_unnamed_file(folder.path, 0o644)
        if unnamed >= 0 {
            descriptor = unnamed
            partialPath = nil
            return
        }
        let code = errno
        guard [EOPNOTSUPP, EISDIR, EINVAL, ENOENT].contains(code) else {
            throw LibraryWriter.outputError(folder.path, code)
        }
        let path = folder.appendingPathComponent(
            "\(LibraryWriter.partialPrefix)\(getpid())-\(UUID().uuidString)").path
        let named = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard named >= 0 else { throw LibraryWriter.outputError(folder.path, errno) }
        descriptor = named
        partialPath = path
    }

    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws {
        var written = 0
        while written < bytes.count {
            let count = pwrite(descriptor, bytes.baseAddress! + written, bytes.count - written, off_t(offset) + off_t(written))
            if count < 0 {
                if errno == EINTR { continue }
                throw LibraryWriter.outputError(folder.path, errno)
            }
            written += count
        }
    }

    /// Flushes the file, then names it `filename`, or `base 2.ext`, `base 3.ext`… when taken;
    /// an existing file is never replaced.
    func publish(as filename: String) throws -> URL {
        guard fsync(descriptor) == 0 else { throw LibraryWriter.outputError(folder.path, errno) }
        let base = (filename as NSString).deletingPathExtension
        let ext = (filename as NSString).pathExtension
        var number = 1
        while true {
            let name = number == 1 ? filename : "\(base) \(number)" + (ext.isEmpty ? "" : ".\(ext)")
            let target = folder.appendingPathComponent(name)
            let code = claim(target.path)
            if code == 0 {
                published = true
                syncFolder()
                return target
            }
            guard code == EEXIST else { throw LibraryWriter.outputError(target.path, code) }
            number += 1
        }
    }

    /// Gives the file the name `path` unless something has it; 0 or the errno.
    private func claim(_ path: String) -> Int32 {
        guard let partialPath else {
            // An unnamed file is linked through its /proc entry; linkat never replaces.
            return linkat(AT_FDCWD, "/proc/self/fd/\(descriptor)", AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0 ? 0 : errno
        }
        if link(partialPath, path) == 0 {
            unlink(partialPath)
            return 0
        }
        let code = errno
        guard code == EPERM || code == EOPNOTSUPP || code == EMLINK else { return code }
        // No hard links here (FAT, exFAT): claim the name with O_EXCL, then rename over the claim.
        let placeholder = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard placeholder >= 0 else { return errno }
        close(placeholder)
        guard rename(partialPath, path) == 0 else {
            let renameError = errno
            unlink(path)
            return renameError
        }
        return 0
    }

    private func syncFolder() {
        let folderDescriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folderDescriptor >= 0 else { return }
        fsync(folderDescriptor)
        close(folderDescriptor)
    }

    /// Closes the file; an unpublished one disappears (the kernel frees an unnamed file).
    func discard() {
        close(descriptor)
        if !published, let partialPath { unlink(partialPath) }
    }
}
