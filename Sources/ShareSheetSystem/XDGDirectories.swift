import Foundation
import ShareSheet

/// The folders the XDG Base Directory and user-dirs specifications give this user, where every
/// backend keeps what it stores, so other programs find it in the usual places.
public struct XDGDirectories: Sendable {
    /// A folder from `user-dirs.dirs`, as the desktop's file manager shows it.
    public enum UserDirectory: Sendable, CaseIterable {
        case desktop, documents, download, music, pictures, publicShare, templates, videos

        /// The English folder name used when `user-dirs.dirs` names none.
        var fallbackName: String {
            switch self {
            case .desktop: return "Desktop"
            case .documents: return "Documents"
            case .download: return "Downloads"
            case .music: return "Music"
            case .pictures: return "Pictures"
            case .publicShare: return "Public"
            case .templates: return "Templates"
            case .videos: return "Videos"
            }
        }
    }

    private let environment: [String: String]

    /// Reads the folders from `environment` (the process's own by default: activities pass
    /// their `hostEnvironment` instead).
    public init(environment: [String: String] = HostEnvironment.process.variables) {
        self.environment = environment
    }

    /// Reads the folders from a host environment.
    public init(_ host: HostEnvironment) {
        self.init(environment: host.variables)
    }

    /// The user's home folder.
    public var home: URL {
        URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory(), isDirectory: true)
    }

    /// `$XDG_DATA_HOME`, or `~/.local/share`.
    public var dataHome: URL { folder("XDG_DATA_HOME", default: ".local/share") }
    /// `$XDG_CONFIG_HOME`, or `~/.config`.
    public var configHome: URL { folder("XDG_CONFIG_HOME", default: ".config") }
    /// `$XDG_STATE_HOME`, or `~/.local/state`.
    public var stateHome: URL { folder("XDG_STATE_HOME", default: ".local/state") }
    /// `$XDG_CACHE_HOME`, or `~/.cache`.
    public var cacheHome: URL { folder("XDG_CACHE_HOME", default: ".cache") }

    /// `$XDG_DATA_DIRS` (absolute entries only), or `/usr/local/share` and `/usr/share`: where
    /// installed applications' data (desktop entries, D-Bus service files) is, after the data home.
    public var dataDirs: [URL] {
        let listed = (environment["XDG_DATA_DIRS"] ?? "").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        return (listed.isEmpty ? ["/usr/local/share", "/usr/share"] : listed).map { URL(fileURLWithPath: $0, isDirectory: true) }
    }

    /// ShareSheet's own folder under the data home: `$XDG_DATA_HOME/sharesheet`.
    public var shareSheetData: URL { dataHome.appendingPathComponent("sharesheet", isDirectory: true) }
    /// ShareSheet's configuration file: `$XDG_CONFIG_HOME/sharesheet/config`.
    public var configurationFile: URL {
        configHome.appendingPathComponent("sharesheet", isDirectory: true).appendingPathComponent("config", isDirectory: false)
    }

    /// `url`'s path as people write it: `~/…` under the home folder, else the whole path.
    public func displayPath(_ url: URL) -> String {
        let path = url.path
        let home = self.home.path
        if path == home { return "~" }
        if path.hasPrefix(home.hasSuffix("/") ? home : home + "/") {
            return "~/" + path.dropFirst(home.hasSuffix("/") ? home.count : home.count + 1)
        }
        return path
    }

    /// A user folder (Pictures, Videos, Documents, Downloads…) as `user-dirs.dirs` names it
    /// under `$XDG_CONFIG_HOME`, or its English name in the home folder when it names none.
    public func userDirectory(_ directory: UserDirectory) -> URL {
        if let named = UserDirsFile(configHome: configHome, home: home).path(for: directory) {
            return URL(fileURLWithPath: named, isDirectory: true)
        }
        return home.appendingPathComponent(directory.fallbackName, isDirectory: true)
    }

    private func folder(_ variable: String, default relative: String) -> URL {
        // The specification says a relative value is invalid and must be ignored.
        if let value = environment[variable], value.hasPrefix("/") {
            return URL(fileURLWithPath: value, isDirectory: true)
        }
        return home.appendingPathComponent(relative, isDirectory: true)
    }
}

/// The `user-dirs.dirs` file: `XDG_PICTURES_DIR="$HOME/Pictures"` lines, read the way
/// xdg-user-dirs writes them. Read per call rather than through GLib, whose answer is fixed for
/// the life of the process and ignores a changed `XDG_CONFIG_HOME`.
struct UserDirsFile {
    let configHome: URL
    let home: URL

    func path(for directory: XDGDirectories.UserDirectory) -> String? {
        let key = "XDG_\(Self.keyName(directory))_DIR"
        let file = configHome.appendingPathComponent("user-dirs.dirs")
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix(key + "="), let open = trimmed.firstIndex(of: "\""),
                let close = trimmed.lastIndex(of: "\""), open < close
            else { continue }
            var value = String(trimmed[trimmed.index(after: open)..<close])
            if value.hasPrefix("$HOME") { value = home.path + value.dropFirst("$HOME".count) }
            guard value.hasPrefix("/") else { return nil }
            // A folder equal to the home folder means "not set" in xdg-user-dirs.
            return value == home.path || value == home.path + "/" ? nil : value
        }
        return nil
    }

    private static func keyName(_ directory: XDGDirectories.UserDirectory) -> String {
        switch directory {
        case .desktop: return "DESKTOP"
        case .documents: return "DOCUMENTS"
        case .download: return "DOWNLOAD"
        case .music: return "MUSIC"
        case .pictures: return "PICTURES"
        case .publicShare: return "PUBLICSHARE"
        case .templates: return "TEMPLATES"
        case .videos: return "VIDEOS"
        }
    }
}
