import Foundation
import OpenIn

/// A desktop in memory for the seed ports: applications by MIME type, launches recorded, so
/// the Open In menu never starts a real program in a test.
final class MemoryDesktop: ApplicationCatalog, @unchecked Sendable {
    private let lock = NSLock()
    private let byType: [String: [Application]]
    private var launchLog: [(application: String, urls: [URL])] = []

    init(_ byType: [String: [Application]]) { self.byType = byType }

    /// A desktop with one text editor, the default for plain text.
    static func withTextEditor() -> MemoryDesktop {
        MemoryDesktop([
            "text/plain": [Application(id: "editor.desktop", name: "Editor", executable: "editor", role: .default)]
        ])
    }

    /// What was started, in order.
    var launches: [(application: String, urls: [URL])] { lock.withLock { launchLog } }

    func applications(forContentType contentType: String) -> [Application] { byType[contentType] ?? [] }
    func isChosenDefault(_ application: Application, forContentType contentType: String) -> Bool { false }
    func isRegistered(_ application: Application, forContentType contentType: String) -> Bool { true }
    func application(withID id: String) -> Application? { byType.values.joined().first { $0.id == id } }
    func launch(_ application: Application, urls: [URL]) throws {
        lock.withLock { launchLog.append((application.id, urls)) }
    }
    func setDefault(_ application: Application, forContentType contentType: String) throws {}
}
