import Foundation
import LocalTestSupport
import Testing

/// A desktop of its own for one test: XDG data, config and cache folders in a temporary folder,
/// desktop entries whose `Exec` runs a recorder script that writes its arguments, and the real
/// shared-mime-info database. `share`, `xdg-mime` and `desktop-file-validate` run as child
/// processes in it, because GIO reads the XDG folders once per process.
final class TestDesktop {
    /// Where a desktop entry goes: the person's data folder or a system one.
    enum Place {
        case user, system
    }

    /// What one run printed and returned.
    typealias Run = Command.Result

    let root: URL
    var home: URL { root.appendingPathComponent("home") }
    var dataHome: URL { root.appendingPathComponent("home/.local/share") }
    var configHome: URL { root.appendingPathComponent("home/.config") }
    var cacheHome: URL { root.appendingPathComponent("home/.cache") }
    var systemData: URL { root.appendingPathComponent("system") }
    var systemConfig: URL { root.appendingPathComponent("etc-xdg") }
    var records: URL { root.appendingPathComponent("records") }
    var recorder: URL { root.appendingPathComponent("bin/recorder") }
    var work: URL { root.appendingPathComponent("work") }

    init() throws {
        root = try TemporaryFolder.make("openin-tests")
        let manager = FileManager.default
        for folder in [
            dataHome.appendingPathComponent("applications"), configHome, cacheHome,
            systemData.appendingPathComponent("applications"), systemConfig, records, work,
            recorder.deletingLastPathComponent(),
        ] {
            try manager.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        // The real MIME database, without the machine's own applications.
        try manager.createSymbolicLink(
            at: systemData.appendingPathComponent("mime"), withDestinationURL: URL(fileURLWithPath: "/usr/share/mime"))
        // Writes its arguments after the first (the application's name), NUL-separated, to
        // records/NAME.PID, through a temporary file so a reader never sees half of it.
        let script = """
            #!/bin/sh
            name="$1"
            shift
            out='\(records.path)'/"$name.$$"
            printf '%s\\0' "$@" > "$out.tmp" && mv "$out.tmp" "$out"

            """
        try Data(script.utf8).write(to: recorder)
        chmod(recorder.path, 0o755)
    }

    deinit { TemporaryFolder(existing: root).remove() }

    /// Installs a desktop entry `ID.desktop` whose Exec runs the recorder.
    /// - Parameters:
    ///   - code: the Exec field code, `%f` for files or `%u` for URLs.
    ///   - exec: the whole Exec line instead of the recorder's.
    @discardableResult
    func addApplication(
        _ id: String, name: String, icon: String? = nil, mimeTypes: [String], code: String = "%f",
        exec: String? = nil, place: Place = .user
    ) throws -> String {
        var lines = [
            "[Desktop Entry]", "Type=Application", "Name=\(name)",
            "Exec=" + (exec ?? "\(recorder.path) \(id) \(code)"),
            "MimeType=" + mimeTypes.map { $0 + ";" }.joined(),
        ]
        if let icon { lines.append("Icon=\(icon)") }
        let folder = applicationsFolder(place)
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: folder.appendingPathComponent(id + ".desktop"))
        return id + ".desktop"
    }

    func applicationsFolder(_ place: Place) -> URL {
        (place == .user ? dataHome : systemData).appendingPathComponent("applications")
    }

    /// Writes the MIME caches the way a package installation does (`update-desktop-database`).
    func updateDatabases() async throws {
        for place in [Place.user, .system] {
            let run = try await run(program: "/usr/bin/update-desktop-database", [applicationsFolder(place).path])
            #expect(run.status == 0, "update-desktop-database: \(run)")
        }
    }

    /// Writes a `mimeapps.list` with `[Default Applications]` in a system data folder.
    func setSystemDefaults(_ defaults: [String: String]) throws {
        let text = "[Default Applications]\n" + defaults.map { "\($0.key)=\($0.value);\n" }.sorted().joined()
        try Data(text.utf8).write(to: applicationsFolder(.system).appendingPathComponent("mimeapps.list"))
    }

    /// A file in the work folder.
    func file(_ name: String, _ contents: Data) throws -> URL {
        let url = work.appendingPathComponent(name)
        try contents.write(to: url)
        return url
    }

    var environment: [String: String] {
        [
            "HOME": home.path, "XDG_DATA_HOME": dataHome.path, "XDG_DATA_DIRS": systemData.path,
            "XDG_CONFIG_HOME": configHome.path, "XDG_CONFIG_DIRS": systemConfig.path,
            "XDG_CACHE_HOME": cacheHome.path, "XDG_RUNTIME_DIR": root.appendingPathComponent("runtime").path,
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "LANG": "C.UTF-8", "NO_COLOR": "1", "COLUMNS": "80", "TERM": "dumb",
        ]
    }

    /// Runs the built `share` with `arguments` in this desktop.
    func share(_ arguments: [String], input: Data? = nil) async throws -> Run {
        let binary = try #require(Share.url, "the share executable was not found next to the test bundle")
        return try await run(program: binary.path, arguments, input: input)
    }

    /// `xdg-mime ARGS` in this desktop.
    func xdgMime(_ arguments: [String]) async throws -> Run {
        try await run(program: "/usr/bin/xdg-mime", arguments)
    }

    /// Runs a program in this desktop; a hang is killed after `timeout` seconds and recorded.
    func run(program: String, _ arguments: [String], input: Data? = nil, timeout: Double = 60) async throws -> Run {
        try await Command.run(
            program, arguments, environment: environment, in: work, input: input.map { .data($0) } ?? .null, timeout: timeout)
    }

    /// The argument lists the application `id` received so far, waiting up to `timeout` seconds
    /// for at least `count` of them (the launched program runs on its own).
    func recorded(_ id: String, count: Int = 1, timeout: Double = 20) async throws -> [[String]] {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: records.path)) ?? []
            let mine = names.filter { $0.hasPrefix(id + ".") && !$0.hasSuffix(".tmp") }.sorted()
            if mine.count >= count || Date() > deadline {
                return try mine.map { name in
                    let data = try Data(contentsOf: records.appendingPathComponent(name))
                    var parts = data.split(separator: 0, omittingEmptySubsequences: false).map {
                        String(decoding: $0, as: UTF8.self)
                    }
                    if parts.last == "" { parts.removeLast() }
                    return parts
                }
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Every record file so far, by application.
    func allRecords() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: records.path)) ?? []).sorted()
    }

    /// The repository's root folder (for `make install-desktop-entry`).
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}

/// A 1×1 PNG.
let onePixelPNG = Data([
    0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4,
    0x89, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0xF8, 0xCF, 0xC0, 0xF0,
    0x1F, 0x00, 0x05, 0x00, 0x01, 0xFF, 0x89, 0x99, 0x3D, 0x1D, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45,
    0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
])

/// The start of a PDF: enough for the MIME database to recognise one without a name.
let minimalPDF = Data("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n".utf8)
