import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A remote file downloaded only after the pick, with progress and cancellation (seed 002's
/// problem, solved once).
///
/// The placeholder is the local file URL the download will have, named after the remote file,
/// so the sheet offers what fits its type without touching the network.
open class RemoteFileProvider: FileProvider, @unchecked Sendable {
    /// The address the file comes from.
    public let remoteURL: URL

    /// Makes a provider that downloads `url` after the pick.
    /// - Parameters:
    ///   - url: the remote file's address.
    ///   - filename: the local name; defaults to the URL's last path component.
    public init(url: URL, filename: String? = nil) {
        remoteURL = url
        let name = filename ?? RemoteFileProvider.defaultName(for: url)
        super.init(filename: name) { destination, progress in
            try await Download.run(url, to: destination, progress: progress)
        }
    }

    static func defaultName(for url: URL) -> String {
        let last = url.lastPathComponent
        return last.isEmpty || last == "/" ? (url.host ?? "download") : last
    }
}

/// One download into a file, cancellable, reporting bytes to a `Progress`.
enum Download {
    static func run(_ url: URL, to destination: URL, progress: Progress) async throws {
        let delegate = DownloadDelegate(destination: destination, progress: progress)
        let session = URLSession(configuration: .ephemeral, delegate: delegate, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                delegate.start(session.downloadTask(with: url), continuation: continuation)
            }
        } onCancel: {
            delegate.cancel()
        }
        try Task.checkCancellation()
    }
}

final class DownloadDelegate: NSObject, URLSessionDownloadDelegate, @unchecked Sendable {
    private let destination: URL
    private let progress: Progress
    private let state = Locked(State())

    struct State {
        var task: URLSessionDownloadTask?
        var continuation: CheckedContinuation<Void, any Error>?
        var failure: (any Error)?
        var cancelled = false
    }

    init(destination: URL, progress: Progress) {
        self.destination = destination
        self.progress = progress
    }

    func start(_ task: URLSessionDownloadTask, continuation: CheckedContinuation<Void, any Error>) {
        let cancelledAlready = state.withLock { state -> Bool in
            state.task = task
            state.continuation = continuation
            return state.cancelled
        }
        if cancelledAlready { task.cancel() } else { task.resume() }
    }

    func cancel() {
        let task = state.withLock { state -> URLSessionDownloadTask? in
            state.cancelled = true
            return state.task
        }
        task?.cancel()
    }

    func urlSession(
        _ session: URLSession, downloadTask: URLSessionDownloadTask, didWriteData bytesWritten: Int64,
        totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64
    ) {
        if totalBytesExpectedToWrite > 0 { progress.totalUnitCount = totalBytesExpectedToWrite }
        progress.completedUnitCount = totalBytesWritten
    }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        if let http = downloadTask.response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
            let name = downloadTask.originalRequest?.url?.absoluteString ?? "download"
            state.withLock { $0.failure = ShareError(.noInput, "\(name): the server answered \(http.statusCode)") }
            return
        }
        do {
            try FileManager.default.moveItem(at: location, to: destination)
        } catch {
            state.withLock { $0.failure = ShareError(.ioError, "\(destination.lastPathComponent): \(error.localizedDescription)") }
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (continuation, failure, cancelled) = state.withLock { state in
            defer { state.continuation = nil }
            return (state.continuation, state.failure, state.cancelled)
        }
        if cancelled {
            continuation?.resume(throwing: CancellationError())
        } else if let error {
            let name = task.originalRequest?.url?.absoluteString ?? "download"
            continuation?.resume(throwing: ShareError(.temporaryFailure, "\(name): \(error.localizedDescription)"))
        } else if let failure {
            continuation?.resume(throwing: failure)
        } else {
            continuation?.resume()
        }
    }
}
