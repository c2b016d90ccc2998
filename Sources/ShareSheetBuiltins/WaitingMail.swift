import Foundation
import Mail
import ShareSheet

/// `ActivityRegistry.waitingSender` for mail: the one message waiting at the location goes
/// now, with the configuration as just saved (the window knows no backend; the registry the
/// built-ins are installed into does).
enum WaitingMail {
    /// Sends the waiting message at `path`, off the main actor (the SMTP exchange blocks).
    @Sendable
    static func send(_ host: HostEnvironment, _ path: String) async throws {
        try await Task.detached {
            _ = try MailDelivery(settings: try MailSettings(host: host)).sendWaiting(URL(fileURLWithPath: path))
        }.value
    }
}
