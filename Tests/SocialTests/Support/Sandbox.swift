import Foundation
import LocalTestSupport
import ShareSheetSystem
@testable import Social

/// A temporary home with its own XDG folders, and an account store that keeps tokens in its
/// tokens file (no Secret Service is asked).
final class Sandbox: @unchecked Sendable {
    let home: URL

    init() throws {
        home = try TemporaryFolder.make("social-home")
        for folder in [".config", ".local/share", ".cache"] {
            try FileManager.default.createDirectory(
                at: home.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
    }

    deinit { TemporaryFolder(existing: home).remove() }

    /// The environment of a process in this home: no session bus, so tokens go to the file.
    var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["HOME"] = home.path
        env["XDG_CONFIG_HOME"] = home.appendingPathComponent(".config").path
        env["XDG_DATA_HOME"] = home.appendingPathComponent(".local/share").path
        env["XDG_CACHE_HOME"] = home.appendingPathComponent(".cache").path
        env["XDG_RUNTIME_DIR"] = home.path
        env.removeValue(forKey: "DBUS_SESSION_BUS_ADDRESS")
        for service in SocialService.allCases { env.removeValue(forKey: "SHARESHEET_TOKEN_" + service.rawValue.uppercased()) }
        return env
    }

    var directories: XDGDirectories { XDGDirectories(environment: environment) }

    var accounts: AccountStore { AccountStore(directories: directories, environment: environment) }

    /// Writes the configuration file.
    func writeConfiguration(_ text: String) throws {
        let file = directories.configurationFile
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: file, atomically: true, encoding: .utf8)
    }

    /// A file in the sandbox with `contents`.
    func file(_ name: String, _ contents: Data) throws -> URL {
        let url = home.appendingPathComponent(name)
        try contents.write(to: url)
        return url
    }
}

/// A 1×1 PNG.
let tinyPNG = Data(
    base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")!

/// Records the rate-limit waits instead of sleeping.
final class WaitRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [Int] = []
    var waits: [Int] { lock.withLock { recorded } }
    var sleeper: @Sendable (Int) async throws -> Void {
        { [self] seconds in lock.withLock { recorded.append(seconds) } }
    }
}
