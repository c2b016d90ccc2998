// A subcommand's `run` reads its options by name (`parsed.flag("--once")`), so an option that is
// declared but never read, or read under another spelling, would be accepted and do nothing.
// DeclaredOptionsTests shows every option reaches the ParsedOptions; this shows each subcommand's
// own source reads every option it declares.
import Foundation
import Testing

@testable import ShareCommand

@Suite("Every subcommand reads every option it declares")
struct SubcommandOptionReadsTests {
    /// The repository's Sources/ShareCommand/Subcommands.
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/ShareCommand/Subcommands", isDirectory: true)

    /// The text of the files of `type` (`AccountsCommand.swift`, `AccountsCommand+Input.swift`…),
    /// without the declarations of options (`.flag("--x"`, `.value("--x"`), so what is left
    /// of an option's name is where it is read.
    @MainActor
    static func readingText(of type: any ShareSubcommand.Type) throws -> String {
        let name = String(describing: type)
        // The files that declare the type or extend it (ManPageCommand lives beside the completions).
        let texts = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            .map { try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8) }
            .filter { $0.contains("enum \(name):") || $0.contains("extension \(name) ") || $0.contains("extension \(name) {") }
        #expect(!texts.isEmpty, "no source file for \(name) in \(folder.path)")
        return withoutDeclarations(texts.joined())
    }

    /// `text` with each declaration of an option (`.flag("--x"`, `OptionSpec.value("--x"`) taken
    /// out; reads (`parsed.flag("--x")`) stay. `JSONOutput.format(parsed, …)` reads `--json`
    /// and `--pretty` for the subcommand, so it counts as reading both.
    static func withoutDeclarations(_ text: String) -> String {
        text.replacingOccurrences(
            of: #"(^|[\s\[,(]|OptionSpec)\.(flag|value)\(\s*"--[a-z0-9-]+""#, with: "$1.declared(", options: .regularExpression
        )
        .replacingOccurrences(of: "JSONOutput.format(parsed", with: #"JSONOutput.format("--json", "--pretty", parsed"#)
    }

    @Test("each declared option's name is read in its subcommand's source")
    @MainActor
    func everyOptionIsRead() throws {
        for type in Subcommands.all {
            let name = String(describing: type)
            let text = try Self.readingText(of: type)
            let options = type.spec.options + type.spec.actions.flatMap(\.options)
            for option in Set(options.map(\.name)) where option != "--help" {
                #expect(text.contains("\"\(option)\""), "\(name) declares \(option) but never reads it")
            }
        }
    }

    @Test("the check finds an option that is declared and not read")
    func theCheckCanFail() {
        let text = Self.withoutDeclarations(
            #"options: [.flag("--once", "only once"), .value("--pin", "PIN", "")] ... parsed.flag("--onse"); parsed.value("--pin")"#)
        #expect(!text.contains("\"--once\""), "a declared option that is never read is found")
        #expect(text.contains("\"--pin\""), "a read option is seen as read")
    }
}
