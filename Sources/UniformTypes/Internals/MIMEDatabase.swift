import Foundation

/// The parts of the shared-mime-info database GIO has no API for: the filename extensions of a
/// MIME type (from `globs2`), a MIME type's aliases (from `aliases`), and the registered spelling
/// of a MIME type given in another case (from `types` and `aliases`).
///
/// Read once, from the directories GIO itself uses, most important first. Like GIO, a
/// `__NOGLOBS__` entry in a more important directory hides that type's globs in less important
/// ones. Changes to the database after the first use are not seen until the process restarts.
struct MIMEDatabase: Sendable {
    /// One `*.ext` glob of a MIME type.
    struct Extension: Equatable, Sendable {
        /// The extension without the dot, as written in the glob ("jpg", "tar.gz", "C").
        var name: String
        /// The glob's weight (50 by default; higher wins conflicts).
        var weight: Int
    }

    /// The database GIO is using, read on first use.
    static let shared = MIMEDatabase(directories: GIOContentTypes.mimeDirectories())

    private var extensionsByMIMEType: [String: [Extension]] = [:]
    private var aliasesByMIMEType: [String: [String]] = [:]
    private var spellingByLowercasedName: [String: String] = [:]

    /// Reads `globs2`, `aliases` and `types` from each directory (e.g. `/usr/share/mime`), most
    /// important first. Missing or unreadable files are skipped.
    init(directories: [String]) {
        self.init(
            globs2: directories.map { Self.read($0 + "/globs2") },
            aliases: directories.map { Self.read($0 + "/aliases") },
            types: directories.map { Self.read($0 + "/types") })
    }

    /// Builds the database from the contents of `globs2`, `aliases` and `types` files, most
    /// important first.
    init(globs2: [String], aliases: [String], types: [String] = []) {
        var hidden: Set<String> = []
        for contents in globs2 {
            var hiddenHere: Set<String> = []
            for line in contents.split(whereSeparator: \.isNewline) {
                guard let entry = Self.parseGlobLine(line), !hidden.contains(entry.mimeType)
                else { continue }
                if entry.glob == "__NOGLOBS__" {
                    hiddenHere.insert(entry.mimeType)
                    continue
                }
                guard let name = Self.extensionName(ofGlob: entry.glob) else { continue }
                var list = extensionsByMIMEType[entry.mimeType, default: []]
                if !list.contains(where: { $0.name == name }) {
                    list.append(Extension(name: name, weight: entry.weight))
                }
                extensionsByMIMEType[entry.mimeType] = list
            }
            hidden.formUnion(hiddenHere)
        }
        for contents in aliases {
            for line in contents.split(whereSeparator: \.isNewline) {
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                guard fields.count == 2, !fields[0].hasPrefix("#") else { continue }
                let alias = String(fields[0])
                let canonical = String(fields[1])
                if !aliasesByMIMEType[canonical, default: []].contains(alias) {
                    aliasesByMIMEType[canonical, default: []].append(alias)
                }
                remember(alias)
                remember(canonical)
            }
        }
        for contents in types {
            for line in contents.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
                remember(line.trimmingCharacters(in: .whitespaces))
            }
        }
        for mimeType in extensionsByMIMEType.keys {
            remember(mimeType)
        }
    }

    private mutating func remember(_ name: String) {
        guard !name.isEmpty else { return }
        let key = name.lowercased()
        if spellingByLowercasedName[key] == nil {
            spellingByLowercasedName[key] = name
        }
    }

    /// The registered spelling of a MIME type or alias, matched case-insensitively
    /// ("application/vnd.ms-excel.sheet.macroenabled.12" → "…macroEnabled.12").
    func registeredSpelling(of name: String) -> String? {
        spellingByLowercasedName[name.lowercased()]
    }

    /// The extensions registered for a (canonical) MIME type, heaviest first, then
    /// alphabetically.
    func extensions(forMIMEType mimeType: String) -> [Extension] {
        (extensionsByMIMEType[mimeType] ?? []).sorted {
            $0.weight != $1.weight ? $0.weight > $1.weight : $0.name < $1.name
        }
    }

    /// The aliases of a canonical MIME type (`image/pjpeg` for `image/jpeg`), sorted.
    func aliases(ofMIMEType mimeType: String) -> [String] {
        (aliasesByMIMEType[mimeType] ?? []).sorted()
    }

    // MARK: Parsing

    private struct GlobLine {
        var weight: Int
        var mimeType: String
        var glob: String
    }

    /// Parses `weight:mimetype:glob[:flags]`; `nil` for comments and malformed lines.
    private static func parseGlobLine(_ line: Substring) -> GlobLine? {
        guard !line.hasPrefix("#") else { return nil }
        let fields = line.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
        guard fields.count >= 3, let weight = Int(fields[0]), !fields[1].isEmpty,
            !fields[2].isEmpty
        else { return nil }
        return GlobLine(weight: weight, mimeType: String(fields[1]), glob: String(fields[2]))
    }

    /// "jpg" for `*.jpg`; `nil` for globs that are not a plain extension (`*,v`, `*.so.[0-9]*`,
    /// `Makefile`).
    static func extensionName(ofGlob glob: String) -> String? {
        guard glob.hasPrefix("*.") else { return nil }
        let name = glob.dropFirst(2)
        guard !name.isEmpty, !name.contains(where: { "*?[]/\\".contains($0) }) else { return nil }
        return String(name)
    }

    private static func read(_ path: String) -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }
}
