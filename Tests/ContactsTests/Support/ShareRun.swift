import Foundation
import LocalTestSupport
import Testing

/// Runs the built `share` executable with a home of its own, the way a person's shell would.
struct ShareRun {
    /// The home folder and XDG folders of the runs: `<folder>/home`, `<folder>/home/data`…
    let folder: URL

    var home: URL { folder.appendingPathComponent("home", isDirectory: true) }
    var dataHome: URL { home.appendingPathComponent("data", isDirectory: true) }
    var configHome: URL { home.appendingPathComponent("config", isDirectory: true) }
    /// The embedded default contacts folder of these runs.
    var defaultContacts: URL { dataHome.appendingPathComponent("contacts/default", isDirectory: true) }

    /// Writes ShareSheet's configuration file for these runs.
    func configure(_ text: String) throws {
        let file = configHome.appendingPathComponent("sharesheet/config")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }

    /// The environment of every run: fixed width, no color, XDG folders inside `home`.
    var environment: [String: String] { TemporaryHome.environment(home: home) }

    /// Runs `share` with `arguments` in `folder`.
    func callAsFunction(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) async throws -> Command.Result {
        let binary = try #require(Share.url, "the share executable was not found next to the test bundle", sourceLocation: sourceLocation)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        return try await Command.run(binary.path, arguments, environment: environment, in: folder, sourceLocation: sourceLocation)
    }
}

extension ShareRun {
    /// Runs `share` with `arguments` and measures its peak memory.
    func measuringMemory(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) async throws -> MeasuredRun {
        let binary = try #require(Share.url, "the share executable was not found next to the test bundle", sourceLocation: sourceLocation)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        return try await MemoryMeter.runMeasuringMemory(
            binary.path, arguments, environment: environment, sourceLocation: sourceLocation)
    }
}
