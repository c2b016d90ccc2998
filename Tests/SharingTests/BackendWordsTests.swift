import Foundation
import Testing

/// SPEC §11, "Words belong to the front end": no string literal under `Sources/` outside the
/// command's own modules names `--set`, a command-line option, a `share` command line or
/// configuration-file syntax. Backends say facts (`setting`, `fix`, `path`); the command words
/// them as its options and keys (`CommandWords`), the window and the service in plain words.
@Suite("Backend words")
struct BackendWordsTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The command's modules: the only places that may word options, command lines and keys.
    static let commandModules = ["Sources/ShareCommand/", "Sources/share/", "Sources/share-bench/", "Sources/Fuzz/Arguments/"]

    /// Files whose literals are not messages to a person, each with why.
    static let notMessages: [String: String] = [
        "Sources/sharesheet-service/main.swift": "the service front's own usage text",
        "Sources/ShareSheetTesting/LoopbackHTTPServer.swift": "a test peer's Python script",
        "Sources/ReadingList/Formats/NetscapeBookmarks.swift": "the HTML a browser reads",
    ]

    /// Literals that look like the command's words and are not, each with why.
    static let lookAlikes: [(file: String, literal: String, why: String)] = [
        ("Sources/Mail/MailComposer.swift", "as attach= parameters", "a mailto: URL's parameter, not a setting"),
    ]

    /// What the command's words look like, each with a name for the failure message.
    static var patterns: [(name: String, regex: Regex<AnyRegexOutput>)] {
        [
        ("--set", try! Regex(#"--set\b"#)),
        ("a command-line option", try! Regex(#"(?:^|[\s(`'"])--[a-z]"#)),
        (
            "a share command line",
            try! Regex(
                #"`share [a-z]|\bshare (?:--?[a-z]|(?:open|outbox|paste|accounts|reading-list|targets|receive|contacts|completions|man-page|history|devices|suggestions) [a-zA-Z…])"#
            )
        ),
        ("configuration syntax", try! Regex(#"\[[a-z][a-z-]*\] ?[a-z][a-z0-9-]*="#)),
        ("key= syntax", try! Regex(#"(?:^|[\s(`'])[a-z][a-z0-9-]*=(?![\"\\=])"#)),
        ]
    }

    /// Every offending literal under `root`'s `Sources/` outside the command's modules, as
    /// "file:line: what: literal".
    static func offenders(in root: URL) throws -> [String] {
        let sources = root.appendingPathComponent("Sources")
        guard let walker = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil) else { return [] }
        var found: [String] = []
        for case let url as URL in walker where url.pathExtension == "swift" {
            let path = String(url.path.dropFirst(root.path.count + 1))
            if commandModules.contains(where: path.hasPrefix) || notMessages[path] != nil { continue }
            let text = try String(contentsOf: url, encoding: .utf8)
            for literal in SwiftLiterals.literals(in: text) {
                // A literal without a space is a program's argument or a URL's part, not a message.
                guard literal.text.contains(where: \.isWhitespace) else { continue }
                let excused = lookAlikes.contains { $0.file == path && literal.text.contains($0.literal) }
                if excused { continue }
                if let hit = patterns.first(where: { literal.text.contains($0.regex) }) {
                    found.append("\(path):\(literal.line): \(hit.name): \(literal.text.prefix(120))")
                }
            }
        }
        return found.sorted()
    }

    @Test("no backend literal names --set, an option, a share command line or configuration syntax")
    func backendsSayFacts() throws {
        let found = try Self.offenders(in: Self.repository)
        #expect(found.isEmpty, "words for the command in a backend (SPEC §11):\n\(found.joined(separator: "\n"))")
    }

    @Test("the scan finds each kind of offence, and names its file and line")
    func scanFindsOffences() throws {
        let root = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("backend-words-\(UUID().uuidString)")
        let folder = root.appendingPathComponent("Sources/Mail")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let source = """
            let a = "no server (give it with --set smtp=URL)"
            // "--set in a comment" is not a literal
            let b = "Mail: \\(name) is down: run share outbox flush"
            let c = "choose one with --to HOST"
            let d = "set `[mail] from=` in the file"
            let e = "set starttls=optional"
            let f = ["--device", "x"]
            let g = "<span size=\\"big\\">"
            let h = "a share target's entry"
            let i = \"\"\"
                line one
                see share --help
                \"\"\"
            """
        try source.write(to: folder.appendingPathComponent("Offender.swift"), atomically: true, encoding: .utf8)
        let found = try Self.offenders(in: root)
        #expect(Set(found.map { $0.split(separator: ":").prefix(2).joined(separator: ":") }) == [
            "Sources/Mail/Offender.swift:1", "Sources/Mail/Offender.swift:10", "Sources/Mail/Offender.swift:3",
            "Sources/Mail/Offender.swift:4", "Sources/Mail/Offender.swift:5", "Sources/Mail/Offender.swift:6",
        ], "\(found)")
        #expect(found.count == 6, "\(found)")
    }
}

/// The string literals of Swift source, each with the line it starts on and its text with
/// every interpolation shown as "…"; literals inside interpolations are literals too.
enum SwiftLiterals {
    struct Literal {
        var line: Int
        var text: String
    }

    static func literals(in source: String) -> [Literal] {
        var lexer = Lexer(characters: Array(source))
        lexer.code(closingParens: 0)
        return lexer.found
    }

    private struct Lexer {
        let characters: [Character]
        var index = 0
        var line = 1
        var found: [Literal] = []

        init(characters: [Character]) { self.characters = characters }

        func starts(with text: String, at position: Int) -> Bool {
            var position = position
            for character in text {
                guard position < characters.count, characters[position] == character else { return false }
                position += 1
            }
            return true
        }

        mutating func advance() {
            if characters[index] == "\n" { line += 1 }
            index += 1
        }

        /// Code up to the parenthesis that closes an interpolation (or the end).
        mutating func code(closingParens: Int) {
            var depth = closingParens
            while index < characters.count {
                if starts(with: "//", at: index) {
                    while index < characters.count, characters[index] != "\n" { advance() }
                } else if starts(with: "/*", at: index) {
                    while index < characters.count, !starts(with: "*/", at: index) { advance() }
                    index = min(index + 2, characters.count)
                } else if characters[index] == "\"" || (characters[index] == "#" && rawQuoteFollows()) {
                    string()
                } else {
                    if depth > 0 {
                        if characters[index] == "(" { depth += 1 }
                        if characters[index] == ")" {
                            depth -= 1
                            if depth == 0 {
                                advance()
                                return
                            }
                        }
                    }
                    advance()
                }
            }
        }

        func rawQuoteFollows() -> Bool {
            var position = index
            while position < characters.count, characters[position] == "#" { position += 1 }
            return position < characters.count && characters[position] == "\""
        }

        mutating func string() {
            var hashes = 0
            while characters[index] == "#" {
                hashes += 1
                index += 1
            }
            let startLine = line
            let multiline = starts(with: "\"\"\"", at: index)
            index += multiline ? 3 : 1
            let close = (multiline ? "\"\"\"" : "\"") + String(repeating: "#", count: hashes)
            let escape = "\\" + String(repeating: "#", count: hashes)
            var text = ""
            while index < characters.count {
                if starts(with: close, at: index) {
                    index += close.count
                    break
                }
                if starts(with: escape, at: index) {
                    let after = index + escape.count
                    if after < characters.count, characters[after] == "(" {
                        index = after + 1
                        code(closingParens: 1)
                        text += "…"
                        continue
                    }
                    index = after
                    if index < characters.count {
                        text.append(characters[index])
                        advance()
                    }
                    continue
                }
                text.append(characters[index])
                advance()
            }
            found.append(Literal(line: startLine, text: text))
        }
    }
}
