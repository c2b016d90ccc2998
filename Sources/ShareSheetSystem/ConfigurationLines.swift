import Foundation

/// Where in the configuration file something is, by line, for messages that name the line
/// ("config:3: …"): GLib's key-file parser says what is wrong but not where.
enum ConfigurationLines {
    /// The number (from 1) of the first line GLib's key-file syntax does not allow: text before
    /// the first `[group]`, a `[` line without its `]`, or a line that is neither a comment, a
    /// group nor `key=value`. Nil when every line is well formed (the fault is elsewhere, such
    /// as the encoding).
    static func firstMalformedLine(in text: String) -> Int? {
        var inGroup = false
        for (index, raw) in lines(of: text).enumerated() {
            let line = raw.drop { $0 == " " || $0 == "\t" }
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("[") {
                guard line.trimmingCharacters(in: .whitespaces).hasSuffix("]") else { return index + 1 }
                inGroup = true
                continue
            }
            guard inGroup, let equals = line.firstIndex(of: "="),
                !line[..<equals].trimmingCharacters(in: .whitespaces).isEmpty
            else { return index + 1 }
        }
        return nil
    }

    /// The number (from 1) of the line that sets `key` in `[group]`; the last one when it is
    /// set twice, as GLib keeps the last.
    static func line(of key: String, in group: String, text: String) -> Int? {
        var current: String?
        var found: Int?
        for (index, raw) in lines(of: text).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[") {
                current = line.hasSuffix("]") ? String(line.dropFirst().dropLast()) : nil
                continue
            }
            guard current == group, let equals = line.firstIndex(of: "=") else { continue }
            if line[..<equals].trimmingCharacters(in: .whitespaces) == key { found = index + 1 }
        }
        return found
    }

    /// The file's lines ("\r\n" is one character to Swift, so it is a line end too).
    private static func lines(of text: String) -> [Substring] {
        text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
    }
}
