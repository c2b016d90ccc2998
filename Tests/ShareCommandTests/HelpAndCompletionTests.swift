// Help everywhere, suggestions for typos, completions and the man page: all made from the one
// declaration of each command's options (CommandSpec), checked against the real binary.
import Foundation
import LocalTestSupport
import Testing

@testable import ShareCommand

@Suite("share, help, typos, completions and the man page")
final class HelpAndCompletionTests {
    let fixture: CommandFolder
    var folder: URL { fixture.url }

    init() throws {
        fixture = try CommandFolder([:])
    }

    private func share(_ arguments: [String]) async throws -> ShareBinary.Run {
        try await ShareBinary.run(arguments, in: folder)
    }

    @MainActor
    private static var specs: [CommandSpec] { Subcommands.specs }

    @Test("every subcommand's --help, -h and help SUBCOMMAND exit 0 and list each action and option it takes")
    func subcommandHelp() async throws {
        let specs = await Self.specs
        #expect(specs.count >= 10)
        for spec in specs {
            let run = try await share([spec.name, "--help"])
            #expect(run.status == 0, "\(spec.name): \(run)")
            #expect(run.standardOutput.hasPrefix("usage: share \(spec.name)"), "\(spec.name): \(run.standardOutput)")
            for action in spec.actions {
                #expect(run.standardOutput.contains("\n  \(action.name)"), "\(spec.name) --help lacks \(action.name)")
            }
            for option in spec.allOptions {
                #expect(run.standardOutput.contains(option.usage), "\(spec.name) --help lacks \(option.usage)")
            }
            #expect(run.standardOutput.split(separator: "\n").allSatisfy { $0.count <= 80 }, "\(spec.name): a line over 80 columns")
            #expect(try await share([spec.name, "-h"]).standardOutput == run.standardOutput)
            #expect(try await share(["help", spec.name]).standardOutput == run.standardOutput)
            if let action = spec.actions.first {
                #expect(try await share([spec.name, action.name, "--help"]).standardOutput == run.standardOutput)
            }
        }
    }

    @Test("every declared option is one the subcommand accepts: none is refused as unknown")
    func declaredOptionsAreAccepted() async throws {
        for spec in await Self.specs {
            let forms: [(words: [String], options: [OptionSpec])] =
                spec.actions.isEmpty ? [([spec.name], spec.options)] : spec.actions.map { ([spec.name, $0.name], $0.options) }
            for form in forms {
                for option in form.options {
                    // An operand no command takes ends every run at once, after the options are read.
                    let value = option.value == nil ? [] : ["x"]
                    let run = try await share(form.words + [option.name] + value + ["no-such-operand"])
                    #expect(!run.standardError.contains("unknown option"), "\(form.words) \(option.name): \(run.standardError)")
                }
                let unknown = try await share(form.words + ["--no-such-option"])
                #expect(unknown.status == 64, "\(form.words): \(unknown)")
                #expect(unknown.standardError.contains("unknown option '--no-such-option'"))
            }
        }
    }

    @Test("typos suggest the nearest command, action or option; a prefix picks one activity or lists them")
    func suggestions() async throws {
        let outbox = try await share(["outbx", "list"])
        #expect(outbox.status == 64)
        #expect(outbox.standardError == "share: 'outbx' is neither a file nor a command (did you mean 'outbox'?)\n")
        let action = try await share(["reading-list", "exprt"])
        #expect(action.standardError == "share: reading-list: unknown action 'exprt' (did you mean 'export'?)\n")
        let option = try await share(["reading-list", "export", "--frmat", "json"])
        #expect(option.standardError == "share: reading-list export: unknown option '--frmat' (did you mean '--format'?)\n")
        let main = try await share(["--activty", "mail", "x"])
        #expect(main.standardError == "share: unknown option '--activty' (did you mean '--activity'?)\n")
        let help = try await share(["help", "outbx"])
        #expect(help.status == 64 && help.standardError.contains("did you mean 'outbox'?"))

        try Data("quarterly numbers\n".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        let picked = try await share(["--explain", "rea", "notes.txt"])
        #expect(picked.status == 69 && picked.standardOutput.hasPrefix("Add to Reading List (reading-list,"), "\(picked)")
        let several = try await share(["--activity", "ma", "notes.txt"])
        #expect(several.status == 64)
        #expect(several.standardError == "share: 'ma' could be mail or mastodon (say which)\n")
        // A file that exists is shared, even when its name is close to a command's.
        try Data("x\n".utf8).write(to: folder.appendingPathComponent("outbx"))
        #expect(!(try await share(["--list", "outbx"])).standardError.contains("neither a file"))
    }

    @Test("bash: the script loads, complete -p names it, and it completes commands, actions and activity names")
    func bashCompletion() async throws {
        let script = folder.appendingPathComponent("share.bash")
        let made = try await share(["completions", "bash"])
        #expect(made.status == 0)
        try made.standardOutput.write(to: script, atomically: true, encoding: .utf8)
        func complete(_ words: [String]) async throws -> [String] {
            let line = words.map(ShareBinary.shellQuoted).joined(separator: " ")
            let program = """
                set -e; source \(ShareBinary.shellQuoted(script.path)); complete -p share >&2
                COMP_WORDS=(\(line)); COMP_CWORD=\(words.count - 1); _share; printf '%s\\n' "${COMPREPLY[@]}"
                """
            let run = try await ShareBinary.run(["--norc", "--noprofile", "-c", program], in: folder, program: "/bin/bash")
            #expect(run.status == 0, "\(run)")
            #expect(run.standardError.contains("complete -o filenames -F _share share"))
            return run.standardOutput.split(separator: "\n").map(String.init)
        }
        #expect(try await complete(["share", "out"]) == ["outbox"])
        #expect(try await complete(["share", "outbox", "fl"]) == ["flush"])
        #expect(try await complete(["share", "--activity", "ma"]) == ["mail", "mastodon"])
        #expect(try await complete(["share", "reading-list", "export", "--format", ""]) == ["html", "json"])
        #expect(try await complete(["share", "--li"]) == ["--list"])
    }

    @Test("zsh: the script loads and completes commands, actions and activity names")
    func zshCompletion() async throws {
        let zsh = try #require(["/usr/bin/zsh", "/bin/zsh"].first(where: FileManager.default.isExecutableFile), "zsh (scripts/bootstrap installs it)")
        let script = folder.appendingPathComponent("_share")
        try (try await share(["completions", "zsh"])).standardOutput.write(to: script, atomically: true, encoding: .utf8)
        func complete(_ words: [String]) async throws -> [String] {
            // compadd and _files stand in for the completion system's own: they print the candidates.
            let program = """
                compadd() { local word; for word in "$@"; do [[ $word == -- ]] || print -r -- $word; done }
                _files() { :; }
                source \(ShareBinary.shellQuoted(script.path))
                words=(\(words.map(ShareBinary.shellQuoted).joined(separator: " "))); CURRENT=\(words.count)
                _share
                """
            let run = try await ShareBinary.run(["-f", "-c", program], in: folder, program: zsh)
            #expect(run.status == 0 && run.standardError.isEmpty, "\(run)")
            return run.standardOutput.split(separator: "\n").map(String.init)
        }
        #expect(try await complete(["share", ""]).contains("outbox"))
        #expect(try await complete(["share", "outbox", ""]).starts(with: ["list", "show", "flush", "retry", "remove"]))
        #expect(try await complete(["share", "--activity", ""]).contains("mastodon"))
        #expect(try await complete(["share", "targets", "list", ""]).contains("--json"))
    }

    @Test("fish: the script loads and completes commands, actions and activity names")
    func fishCompletion() async throws {
        let fish = try #require(["/usr/bin/fish", "/bin/fish"].first(where: FileManager.default.isExecutableFile), "fish (scripts/bootstrap installs it)")
        let script = folder.appendingPathComponent("share.fish")
        try (try await share(["completions", "fish"])).standardOutput.write(to: script, atomically: true, encoding: .utf8)
        func complete(_ line: String) async throws -> [String] {
            let program = "source \(ShareBinary.shellQuoted(script.path)); complete -C \(ShareBinary.shellQuoted(line))"
            let run = try await ShareBinary.run(["--no-config", "-c", program], in: folder, program: fish, environment: ["HOME": folder.path])
            #expect(run.status == 0 && run.standardError.isEmpty, "\(run)")
            return run.standardOutput.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
        }
        #expect(try await complete("share out") == ["outbox"])
        let actions = try await complete("share outbox ")
        #expect(Set(actions) == ["list", "show", "flush", "retry", "remove"], "\(actions)")
        #expect(try await complete("share --activity ma") == ["mail", "mastodon"])
    }

    @Test("man -l renders the man page, with every subcommand and option")
    func manPage() async throws {
        let page = folder.appendingPathComponent("share.1")
        let made = try await share(["man-page"])
        #expect(made.status == 0)
        try made.standardOutput.write(to: page, atomically: true, encoding: .utf8)
        let run = try await ShareBinary.run(
            ["-l", page.path], in: folder, program: "/usr/bin/man", environment: ["MANPAGER": "cat", "MANWIDTH": "80"])
        #expect(run.status == 0 && !run.standardError.contains("warning"), "\(run)")
        let text = run.standardOutput.replacingOccurrences(of: "\u{2010}", with: "-")
        #expect(text.contains("SHARE(1)") && text.contains("NAME") && text.contains("EXIT STATUS"))
        for spec in await Self.specs { #expect(text.contains("share \(spec.name)"), "the man page lacks \(spec.name)") }
        for option in ShareOptions.all { #expect(text.contains(option.name), "the man page lacks \(option.name)") }
    }
}
