import Foundation
import ShareSheet

extension HostEnvironment {
    /// The XDG folders of this environment.
    public var directories: XDGDirectories { XDGDirectories(self) }

    /// The configuration file of this environment (`$XDG_CONFIG_HOME/sharesheet/config`), read
    /// now; a missing file gives `.empty`.
    /// - Throws: `ShareError(.badData)` naming the file when it is malformed.
    public func loadConfiguration() throws -> Configuration {
        try Configuration.load(from: directories)
    }

    /// The configuration file as people write it (`~/.config/sharesheet/config`), for hints.
    public var configurationFileDisplayPath: String {
        directories.displayPath(directories.configurationFile)
    }

    /// The search path: `PATH`, or `/usr/bin:/bin` when it is unset.
    public var searchPath: [String] {
        (variables["PATH"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
    }

    /// The first executable file called `name` in the search path, or nil.
    public func executable(named name: String) -> URL? {
        searchPath.lazy.map { URL(fileURLWithPath: $0).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}
