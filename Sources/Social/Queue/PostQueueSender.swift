import Foundation
import ShareSheet
import ShareSheetSystem

/// Sends queued posts (kind `post`): each through its service's API with the account's token
/// read from the account store (the Secret Service or the tokens file) as any post is, the
/// service's settings as they were when it was queued, and for Mastodon the `Idempotency-Key`
/// of its first attempt, so that a post whose answer was lost is not made twice.
///
/// A server still out of reach keeps the post queued (`temporaryFailure`); so does an account
/// that is gone or refused (the error says to add it again). Never opens a web page.
public struct PostQueueSender: QueueSender {
    public var kind: QueuedShare.Kind { .post }
    let directories: XDGDirectories
    let environment: [String: String]

    /// A sender with the configuration file and accounts of `directories` and `environment`.
    public init(directories: XDGDirectories, environment: [String: String]) {
        self.directories = directories
        self.environment = environment
    }

    public func send(_ entry: ShareQueue.Entry, isCancelled: @escaping @Sendable () -> Bool) throws -> QueueSendResult {
        let share = entry.share
        let service = try PostQueueing.service(of: share)
        let configuration = PostQueueing.configuration(
            try Configuration.load(from: directories), for: share, service: service)
        let composer = SocialComposer(
            service: service, configuration: configuration,
            accounts: AccountStore(directories: directories, environment: environment),
            openWebPage: { _ in throw ShareError(.unavailable, "no web page is opened for a queued post") })
        let post = PostQueueing.post(of: entry)
        let key = share.parameters[PostQueueing.idempotencyKey]
        let result = Self.wait(isCancelled: isCancelled) {
            try await composer.send(post, idempotencyKey: key, apiOnly: true)
        }
        switch result {
        case .success: return .delivered
        case .failure(let notReached as PostNotReached): throw notReached.error
        case .failure(is CancellationError): throw ShareError(.cancelled, "\(service): cancelled")
        case .failure(let error as ShareError): throw error
        case .failure(let error): throw ShareError(.ioError, "\(service): \(error)")
        }
    }

    /// Runs `work` and blocks this thread until it ends, cancelling it once `isCancelled` says
    /// so. The queue calls senders on a thread of their own; the requests run on curl's.
    static func wait(
        isCancelled: @escaping @Sendable () -> Bool, _ work: @escaping @Sendable () async throws -> [URL]
    ) -> Result<[URL], any Error> {
        let result = Locked<Result<[URL], any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let task = Task.detached {
            let outcome: Result<[URL], any Error>
            do {
                outcome = .success(try await work())
            } catch {
                outcome = .failure(error)
            }
            result.withLock { $0 = outcome }
            done.signal()
        }
        while done.wait(timeout: .now() + .milliseconds(100)) == .timedOut {
            if isCancelled() { task.cancel() }
        }
        return result.withLock { $0 } ?? .failure(CancellationError())
    }
}
