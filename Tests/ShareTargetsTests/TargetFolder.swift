import Foundation
import LocalTestSupport
import ShareSheet

/// A test's own XDG folders with share targets in them: `data/applications` is the data home's
/// folder, `system/applications` the only data dir's, so the machine's entries never count.
struct TargetFolder {
    let root: URL
    var home: URL { root.appendingPathComponent("home") }
    var applications: URL { root.appendingPathComponent("data/applications") }
    var systemApplications: URL { root.appendingPathComponent("system/applications") }
    var configuration: URL { root.appendingPathComponent("config/sharesheet/config") }

    init() throws {
        root = try TemporaryFolder.make("targets-tests")
        for folder in [home, applications, systemApplications] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
    }

    /// The variables that point every XDG folder inside `root`.
    var variables: [String: String] {
        [
            "HOME": home.path, "XDG_DATA_HOME": root.appendingPathComponent("data").path,
            "XDG_DATA_DIRS": root.appendingPathComponent("system").path,
            "XDG_CONFIG_HOME": root.appendingPathComponent("config").path,
            "XDG_CACHE_HOME": root.appendingPathComponent("cache").path, "LANG": "C.UTF-8",
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
        ]
    }

    var environment: HostEnvironment { HostEnvironment(variables: variables) }

    /// Writes `name.desktop` with the given keys under `[Desktop Entry]` (Type=Application added).
    @discardableResult
    func entry(_ name: String, in folder: URL? = nil, _ keys: [String: String]) throws -> URL {
        let url = (folder ?? applications).appendingPathComponent(name + ".desktop")
        var lines = ["[Desktop Entry]", "Type=Application"]
        lines += keys.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    /// A copy of the repository's sample PNG, as `name`.
    func photo(_ name: String = "sunset.png") throws -> URL {
        let url = root.appendingPathComponent(name)
        try FileManager.default.copyItem(at: Sample.url("sunset.png"), to: url)
        return url
    }

    func remove() { TemporaryFolder(existing: root).remove() }
}
