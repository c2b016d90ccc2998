import Foundation
import ShareSheet

extension MailDelivery {
    /// Sends the one message waiting at `file` in the outbox now, with the settings as they are
    /// (the window's Retry once a mail server is set up): the share that queued it is over, and
    /// running it again would write a second copy while this one still waits.
    /// - Returns: `.sent` when the server took it (it leaves the outbox).
    /// - Throws: `ShareError(.noInput)` when `file` is not a message waiting in this outbox (sent
    ///   or removed meanwhile); otherwise as `flush()` fails for one message, which stays queued.
    public func sendWaiting(_ file: URL) throws -> MailResult {
        let queue = settings.outbox.folder.appendingPathComponent("new", isDirectory: true).standardizedFileURL.path
        guard file.deletingLastPathComponent().standardizedFileURL.path == queue,
            FileManager.default.fileExists(atPath: file.path)
        else {
            throw ShareError(.noInput, "Mail: \(file.lastPathComponent) no longer waits in the outbox")
        }
        return try send(id: file.lastPathComponent, progress: nil, isCancelled: { false }, removeOnCancel: { false })
    }
}
