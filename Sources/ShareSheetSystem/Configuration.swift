import CGIO
import Foundation
import GLibErrors
import ShareSheet

/// ShareSheet's settings: `$XDG_CONFIG_HOME/sharesheet/config`, in GLib's key-file syntax
/// (`[group]` headers, `key=value` lines, `#` comments), read with GLib's own parser.
///
/// ```
/// [mail]
/// smtp=smtps://mail.example.com
/// from=Ana <ana@example.com>
///
/// [photos]
/// subfolder=Shared
/// ```
public struct Configuration: Sendable {
    private let values: [String: [String: String]]
    /// The file the settings came from; nil when there was none.
    public let file: URL?

    /// No settings at all: every backend uses its embedded default.
    public static let empty = Configuration(values: [:], file: nil)

    private init(values: [String: [String: String]], file: URL?) {
        self.values = values
        self.file = file
    }

    /// Reads the configuration file of `directories` (this process's by default: activities
    /// read their `hostEnvironment`'s); a missing file gives `.empty`.
    /// - Throws: `ShareError(.configuration)` naming the file, the line and GLib's reason when
    ///   it is malformed.
    public static func load(from directories: XDGDirectories = HostEnvironment.process.directories) throws -> Configuration {
        try load(file: directories.configurationFile)
    }

    /// Reads a configuration file; a missing file gives `.empty`.
    /// - Throws: `ShareError(.configuration)` naming the file, the line and GLib's reason when
    ///   it is malformed.
    public static func load(file: URL) throws -> Configuration {
        // Several activities read it while one sheet is built: read once while it is unchanged.
        guard let values = try FileCache.value(at: file.path, make: { try KeyFile.read(file) }) else { return .empty }
        return Configuration(values: values, file: file)
    }

    /// Makes a configuration from values, for tests and embedding applications.
    public init(_ values: [String: [String: String]]) {
        self.init(values: values, file: nil)
    }

    /// The value of `key` in `[group]`, or nil.
    public func string(_ key: String, in group: String) -> String? { values[group]?[key] }

    /// The value of `key` in `[group]` as a boolean (`true`/`false`, as GLib writes them).
    public func bool(_ key: String, in group: String) -> Bool? {
        switch string(key, in: group)?.lowercased() {
        case "true", "yes", "1": return true
        case "false", "no", "0": return false
        default: return nil
        }
    }

    /// The value of `key` in `[group]` as a whole number.
    public func integer(_ key: String, in group: String) -> Int? { string(key, in: group).flatMap { Int($0) } }

    /// A configuration error for a value of the file that makes no sense, naming the file and
    /// the line: "~/.config/sharesheet/config:3: [mail] starttls=maybe: use required, optional or off".
    /// - Parameter reason: why the value is wrong and what to write instead.
    public func problem(with key: String, in group: String, _ reason: String) -> ShareError {
        let value = string(key, in: group) ?? ""
        var place = file?.path ?? "config"
        if let file, let data = try? Data(contentsOf: file),
            let line = ConfigurationLines.line(of: key, in: group, text: String(decoding: data, as: UTF8.self))
        {
            place += ":\(line)"
        }
        return ShareError(.configuration, "\(place): [\(group)] \(key)=\(value): \(reason)")
    }

    /// Every group of the file, sorted.
    public var groups: [String] { values.keys.sorted() }

    /// Every key of `[group]`.
    public func keys(in group: String) -> [String] { values[group].map { Array($0.keys).sorted() } ?? [] }
}

/// GLib's key-file parser, the one place this module calls it.
enum KeyFile {
    static func read(_ file: URL) throws -> [String: [String: String]] {
        guard let keyFile = g_key_file_new() else { throw ShareError(.ioError, "\(file.path): out of memory") }
        defer { g_key_file_free(keyFile) }
        var error: UnsafeMutablePointer<GError>?
        guard g_key_file_load_from_file(keyFile, file.path, G_KEY_FILE_NONE, &error) != 0 else {
            let reason = GLibError(taking: &error, call: "g_key_file_load_from_file").message
            // GLib says what is wrong, not where: the line is found here, so it can be fixed.
            let text = (try? Data(contentsOf: file)).map { String(decoding: $0, as: UTF8.self) }
            let line = text.flatMap(ConfigurationLines.firstMalformedLine(in:)).map { ":\($0)" } ?? ""
            throw ShareError(.configuration, "\(file.path)\(line): \(reason)")
        }
        var result: [String: [String: String]] = [:]
        var groupCount: gsize = 0
        guard let groups = g_key_file_get_groups(keyFile, &groupCount) else { return result }
        defer { g_strfreev(groups) }
        for groupIndex in 0..<Int(groupCount) {
            guard let groupName = groups[groupIndex] else { continue }
            let group = String(cString: groupName)
            result[group] = result[group] ?? [:]  // an empty group is still listed (and checked)
            var keyCount: gsize = 0
            guard let keys = g_key_file_get_keys(keyFile, groupName, &keyCount, nil) else { continue }
            defer { g_strfreev(keys) }
            for keyIndex in 0..<Int(keyCount) {
                guard let keyName = keys[keyIndex] else { continue }
                // get_string unescapes \n, \s and friends the way the format defines them.
                guard let value = g_key_file_get_string(keyFile, groupName, keyName, nil) else { continue }
                result[group, default: [:]][String(cString: keyName)] = String(cString: value)
                g_free(value)
            }
        }
        return result
    }
}

