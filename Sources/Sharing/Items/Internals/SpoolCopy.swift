import Foundation
import ShareSheet
import ShareSheetSystem
import UniformTypes

/// The blocking half of `DescriptorSpooler.spool`: runs on the spool's own thread, copies the
/// descriptor into a hidden file in a new private folder, names it when complete, and removes
/// both when anything goes wrong.
struct SpoolCopy {
    let job: SpoolJob
    let control: SpoolControl

    private let label: String

    init(job: SpoolJob, control: SpoolControl) {
        self.job = job
        self.control = control
        label = job.label
    }

    func run() throws -> SpooledFile {
        if control.isCancelled { throw CancellationError() }
        var info = stat()
        guard job.descriptor >= 0, fstat(job.descriptor, &info) == 0 else {
            let code = job.descriptor < 0 ? EBADF : errno
            throw ShareError(.noInput, "\(label): " + (code == EBADF ? "not an open descriptor" : describe(code)))
        }
        let kind = info.st_mode & S_IFMT
        if kind == S_IFDIR { throw ShareError(.badData, "\(label): is a directory") }
        // A pipe's writing end would never become readable: refuse what was opened only to write.
        if fcntl(job.descriptor, F_GETFL) & O_ACCMODE == O_WRONLY {
            throw ShareError(.noInput, "\(label): not open for reading")
        }
        let isRegularFile = kind == S_IFREG
        // A regular file says its size: one too large is refused before anything is written.
        if isRegularFile, let limit = job.limit, Int64(info.st_size) > limit { throw tooLarge(limit) }

        let folder = try makeFolder()
        let partial = folder + "/" + DescriptorSpooler.partialName
        var complete = false
        defer {
            if !complete {
                unlink(partial)
                rmdir(folder)
            }
        }
        let output = open(partial, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw writeError(errno) }
        defer { close(output) }

        let (byteCount, head) =
            isRegularFile ? try copyRegularFile(to: output) : try copyStream(to: output)
        if control.isCancelled { throw CancellationError() }

        let (name, type) = DescriptorSpooler.nameAndType(name: job.name, mimeType: job.mimeType, head: head)
        let path = folder + "/" + name
        guard rename(partial, path) == 0 else { throw writeError(errno) }
        complete = true
        return SpooledFile(url: URL(fileURLWithPath: path, isDirectory: false), byteCount: byteCount, type: type)
    }

    /// A new folder only this user can enter, under the job's temporary directory, named with
    /// our PID; the folders of spools whose process is gone (killed before it could remove
    /// them) are removed first.
    private func makeFolder() throws -> String {
        WriterProcess.removeAbandoned(in: job.parent, prefix: DescriptorSpooler.folderPrefix, folders: true)
        let parent = job.parent.path
        var template = Array((parent + "/" + DescriptorSpooler.folderPrefix + "\(getpid()).XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard made != nil else {
            throw ShareError(.ioError, "\(label): cannot make a folder in \(parent): \(describe(errno))")
        }
        return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    // MARK: Copying

    /// A regular file, whole, from offset 0: `sendfile` in the kernel, `pread` and `write` where
    /// the kernel cannot. The descriptor's own offset is never moved.
    private func copyRegularFile(to output: Int32) throws -> (Int64, Data) {
        let input = job.descriptor
        let head = try readHead(of: input)
        var offset: Int64 = 0
        var useSendfile = job.copiesInKernel
        var buffer: UnsafeMutableRawBufferPointer?
        defer { buffer?.deallocate() }
        while true {
            if control.isCancelled { throw CancellationError() }
            var count = -1
            if useSendfile {
                var inputOffset = off_t(offset)
                count = SpoolCalls.sendfile(output, input, &inputOffset, nextLength(after: offset, step: DescriptorSpooler.sendfileStep))
                if count < 0 {
                    let code = errno
                    // Filesystems that cannot splice pages: copy through a buffer instead.
                    guard code == EINVAL || code == ENOSYS || code == EOPNOTSUPP else {
                        throw [ENOSPC, EDQUOT, EFBIG, EROFS].contains(code) ? writeError(code) : readError(code)
                    }
                    useSendfile = false
                }
            }
            if !useSendfile {
                let chunk = buffer ?? .allocate(byteCount: DescriptorSpooler.bufferSize, alignment: DescriptorSpooler.bufferAlignment)
                buffer = chunk
                count = SpoolCalls.pread(input, chunk.baseAddress!, nextLength(after: offset, step: chunk.count), off_t(offset))
                if count < 0 { throw readError(errno) }
                try writeAll(output, UnsafeRawBufferPointer(rebasing: chunk[0..<count]))
            }
            if count == 0 { return (offset, head) }
            offset += Int64(count)
            if let limit = job.limit, offset > limit { throw tooLarge(limit) }
        }
    }

    /// The first bytes of a regular file, for sniffing.
    private func readHead(of input: Int32) throws -> Data {
        var head = Data(count: DescriptorSpooler.headLength)
        var filled = 0
        while filled < head.count {
            let count = head.withUnsafeMutableBytes {
                SpoolCalls.pread(input, $0.baseAddress! + filled, $0.count - filled, off_t(filled))
            }
            if count < 0 { throw readError(errno) }
            if count == 0 { break }
            filled += count
        }
        return head.prefix(filled)
    }

    /// A pipe, socket or other stream, from where it is to its end, waiting in `poll` so that
    /// cancellation wakes the thread even while the sender writes nothing.
    private func copyStream(to output: Int32) throws -> (Int64, Data) {
        let input = job.descriptor
        let buffer = UnsafeMutableRawBufferPointer.allocate(
            byteCount: DescriptorSpooler.bufferSize, alignment: DescriptorSpooler.bufferAlignment)
        defer { buffer.deallocate() }
        var head = Data()
        var total: Int64 = 0
        while true {
            if control.isCancelled { throw CancellationError() }
            switch SpoolCalls.waitUntilReadable(input, orWokenBy: control.wakeDescriptor) {
            case .readable: break
            case .woken: throw CancellationError()
            case .closed: throw ShareError(.noInput, "\(label): not an open descriptor")
            case .failed(let code): throw readError(code)
            }
            let count = SpoolCalls.read(input, buffer.baseAddress!, nextLength(after: total, step: buffer.count))
            if count < 0 {
                let code = errno
                // Not ready after all (a non-blocking descriptor another reader drained): wait again.
                if code == EAGAIN || code == EWOULDBLOCK { continue }
                throw readError(code)
            }
            if count == 0 { return (total, head) }
            let bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
            if head.count < DescriptorSpooler.headLength {
                head.append(contentsOf: bytes.prefix(DescriptorSpooler.headLength - head.count))
            }
            total += Int64(count)
            if let limit = job.limit, total > limit { throw tooLarge(limit) }
            try writeAll(output, bytes)
        }
    }

    /// How much to ask for next: a step, or one byte past the limit, which is enough to refuse.
    private func nextLength(after copied: Int64, step: Int) -> Int {
        guard let limit = job.limit else { return step }
        return Int(min(Int64(step), max(limit - copied, 0) + 1))
    }

    private func writeAll(_ output: Int32, _ bytes: UnsafeRawBufferPointer) throws {
        var written = 0
        while written < bytes.count {
            let count = SpoolCalls.write(output, bytes.baseAddress! + written, bytes.count - written)
            if count < 0 { throw writeError(errno) }
            written += count
        }
    }

    // MARK: Errors

    private func readError(_ code: Int32) -> ShareError {
        // A descriptor opened only for writing (or with O_PATH) cannot be read at all.
        if code == EBADF { return ShareError(.noInput, "\(label): not open for reading") }
        return ShareError(.ioError, "\(label): cannot read: \(describe(code))")
    }

    private func writeError(_ code: Int32) -> ShareError {
        ShareError(.ioError, "\(label): cannot write in \(job.parent.path): \(describe(code))")
    }

    private func tooLarge(_ limit: Int64) -> ShareError {
        ShareError(.badData, job.limitMessage ?? "\(label): more than \(limit) bytes")
    }

    private func describe(_ code: Int32) -> String { ItemResolver.describe(errno: code) }
}

/// What the spool's thread and its task share: the cancellation flag, and a socket pair whose
/// byte wakes a thread waiting in `poll`.
final class SpoolControl: Sendable {
    private let cancelled = Locked(false)
    /// Readable once the spool is cancelled.
    let wakeDescriptor: Int32
    private let wakeWriter: Int32

    /// - Throws: the error of `socketpair` (no descriptors left).
    init() throws(POSIXError) {
        var ends: [Int32] = [-1, -1]
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, type, 0, &ends) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EMFILE) }
        wakeDescriptor = ends[0]
        wakeWriter = ends[1]
    }

    var isCancelled: Bool { cancelled.withLock { $0 } }

    /// Sets the flag and wakes the thread; the descriptors live as long as this object, so a
    /// late call never writes to a closed one.
    func cancel() {
        cancelled.withLock { isCancelled in
            guard !isCancelled else { return }
            isCancelled = true
            var byte: UInt8 = 1
            _ = SpoolCalls.write(wakeWriter, &byte, 1)
        }
    }

    deinit {
        close(wakeDescriptor)
        close(wakeWriter)
    }
}

/// The system calls a spool makes, each retried when a signal interrupts it.
enum SpoolCalls {
    enum Readiness: Equatable {
        case readable
        case woken
        case closed
        case failed(Int32)
    }

    static func read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        retrying { Glibc.read(descriptor, buffer, count) }
    }

    static func pread(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int, _ offset: off_t) -> Int {
        retrying { Glibc.pread(descriptor, buffer, count, offset) }
    }

    static func write(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
        retrying { Glibc.write(descriptor, buffer, count) }
    }

    /// `sendfile` from `offset` of `input`, which it advances; `input`'s own offset stays.
    /// (`copy_file_range` would also share blocks on btrfs and XFS, but Swift sees it only
    /// through the CGlibcShims target, which this module does not depend on.)
    static func sendfile(_ output: Int32, _ input: Int32, _ offset: inout off_t, _ count: Int) -> Int {
        retrying { Glibc.sendfile(output, input, &offset, count) }
    }

    /// Waits, without a time limit, until `descriptor` can be read (or is at its end) or
    /// `wake` is written to.
    static func waitUntilReadable(_ descriptor: Int32, orWokenBy wake: Int32) -> Readiness {
        var watched = [
            pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
        ]
        let ready = retrying { Int(poll(&watched, 2, -1)) }
        if ready < 0 { return .failed(errno) }
        if watched[1].revents != 0 { return .woken }
        if watched[0].revents & Int16(POLLNVAL) != 0 { return .closed }
        // POLLHUP and POLLERR too: `read` then says end of file or which error.
        return .readable
    }

    private static func retrying(_ call: () -> Int) -> Int {
        while true {
            let result = call()
            if result >= 0 || errno != EINTR { return result }
        }
    }
}
