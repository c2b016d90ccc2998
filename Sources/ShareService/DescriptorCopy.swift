import Foundation
import ShareSheet

/// Copies a caller's descriptor into a file, in chunks, on a thread of its own: a pipe whose
/// writer stays open blocks `read`, and that must block neither the main loop nor Swift's
/// shared threads. Cancellation is noticed within 100 ms even while nothing arrives.
enum DescriptorCopy {
    static let chunkSize = 1 << 20

    static func copy(_ descriptor: Int32, to destination: URL, progress: Progress) async throws {
        let cancelled = CancelFlag()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let thread = Thread {
                    do {
                        try copyBlocking(descriptor, to: destination, progress: progress, cancelled: cancelled)
                        continuation.resume()
                    } catch {
                        continuation.resume(throwing: error)
                    }
                }
                thread.name = "sharesheet descriptor copy"
                thread.start()
            }
        } onCancel: {
            cancelled.set()
        }
    }

    private static func copyBlocking(_ descriptor: Int32, to destination: URL, progress: Progress, cancelled: CancelFlag) throws {
        let name = destination.lastPathComponent
        let output = open(destination.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw ShareError(.ioError, "\(name): cannot write a copy: \(String(cString: strerror(errno)))") }
        defer { close(output) }
        var status = stat()
        let isRegular = fstat(descriptor, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
        if isRegular { progress.totalUnitCount = Int64(status.st_size) }
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        var offset: off_t = 0
        while true {
            if cancelled.isSet { throw CancellationError() }
            let count: Int
            if isRegular {
                // From the start, whatever the caller's offset: the file is shared whole.
                count = pread(descriptor, buffer, chunkSize, offset)
            } else {
                var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                let ready = poll(&poller, 1, 100)
                if ready == 0 || (ready < 0 && errno == EINTR) { continue }
                count = read(descriptor, buffer, chunkSize)
            }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw ShareError(.ioError, "\(name): reading the descriptor failed: \(String(cString: strerror(errno)))")
            }
            if count == 0 { return }
            var written = 0
            while written < count {
                let result = write(output, buffer + written, count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    throw ShareError(.ioError, "\(name): writing the copy failed: \(String(cString: strerror(errno)))")
                }
                written += result
            }
            offset += off_t(count)
            progress.completedUnitCount = Int64(offset)
        }
    }
}

/// Set once from a cancellation handler, read by the copying thread.
final class CancelFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
