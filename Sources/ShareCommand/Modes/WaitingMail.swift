import Foundation
import Mail
import ShareSheet
import ShareSheetSystem

/// The window's Retry of a mail that waits in the outbox once the settings changed: that one
/// message goes now, with the configuration as just saved (the window knows no backend, so the
/// command gives it this).
enum WaitingMail {
    /// Sends the waiting message at a path, off the main actor (the SMTP exchange blocks).
    static func sender(for host: HostEnvironment) -> @Sendable (String) async throws -> Void {
        { path in
            try await Task.detached {
                _ = try MailDelivery(settings: try MailSettings(host: host)).sendWaiting(URL(fileURLWithPath: path))
            }.value
        }
    }
}
