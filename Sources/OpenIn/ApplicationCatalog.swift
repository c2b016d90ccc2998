import Foundation

/// Where a `Workspace` finds applications and launches them.
///
/// The desktop's own catalog (`DesktopApplicationCatalog`) reads desktop entries and
/// `mimeapps.list` through GIO. An implementation must list the default first, then the
/// recommended, then the fallback applications, each once; launch without a shell, passing
/// every URL as one argument; and make `setDefault` visible to other programs when it can.
public protocol ApplicationCatalog: Sendable {
    /// The applications for a MIME type or `x-scheme-handler/SCHEME`, default first, then
    /// recommended, then fallback.
    func applications(forContentType contentType: String) -> [Application]
    /// True when the person made `application` the default for the type (so nobody need ask).
    func isChosenDefault(_ application: Application, forContentType contentType: String) -> Bool
    /// True when the application's entry lists the type itself, not only a broader one.
    func isRegistered(_ application: Application, forContentType contentType: String) -> Bool
    /// The installed application with this desktop-file id, if any.
    func application(withID id: String) -> Application?
    /// Starts `application` with `urls` (file URLs for files).
    /// - Throws: `WorkspaceError` naming the application and the reason.
    func launch(_ application: Application, urls: [URL]) throws
    /// Makes `application` the desktop default for the type.
    /// - Throws: `WorkspaceError` when the desktop's configuration cannot be written.
    func setDefault(_ application: Application, forContentType contentType: String) throws
}
