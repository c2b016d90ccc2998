import Foundation
import LocalTestSupport
import Testing

/// `--set <TAB>` offers the keys of the activity given with `--activity`: its settings and its
/// interface's field ids, in every shell's script.
@Suite("share completions: --set keys for the chosen activity")
final class SetCompletionTests {
    let folder: URL

    deinit { try? FileManager.default.removeItem(at: folder) }

    init() throws {
        folder = try TemporaryFolder.make("share-set-completion")
    }

    private func script(_ shell: String, named name: String) async throws -> URL {
        let script = folder.appendingPathComponent(name)
        let made = try await ShareBinary.run(["completions", shell], in: folder)
        #expect(made.status == 0, "\(made)")
        try made.standardOutput.write(to: script, atomically: true, encoding: .utf8)
        return script
    }

    @Test("bash")
    func bash() async throws {
        let script = try await script("bash", named: "share.bash")
        func complete(_ words: [String]) async throws -> [String] {
            let line = words.map(ShareBinary.shellQuoted).joined(separator: " ")
            let program = """
                set -e; source \(ShareBinary.shellQuoted(script.path))
                COMP_WORDS=(\(line)); COMP_CWORD=\(words.count - 1); _share; printf '%s\\n' "${COMPREPLY[@]}"
                """
            let run = try await ShareBinary.run(["--norc", "--noprofile", "-c", program], in: folder, program: "/bin/bash")
            #expect(run.status == 0, "\(run)")
            return run.standardOutput.split(separator: "\n").map(String.init)
        }
        let mail = try await complete(["share", "--activity", "mail", "--set", ""])
        for key in ["smtp=", "from=", "starttls=", "to=", "cc=", "subject=", "body="] { #expect(mail.contains(key), "\(mail)") }
        #expect(!mail.contains("printer="), "\(mail)")
        #expect(try await complete(["share", "--activity", "print", "--set", "co"]) == ["copies="])
        let airDrop = try await complete(["share", "--activity", "airdrop", "notes.txt", "--set", "p"])
        #expect(Set(airDrop) == ["parallel-uploads=", "pin=", "port="], "\(airDrop)")
        // No activity yet: every activity's keys.
        #expect(try await complete(["share", "--set", "smt"]) == ["smtp="])
        // A file name with a space is one name (it was offered as "a" and "b;c.png").
        try Data().write(to: folder.appendingPathComponent("a b;c.png"))
        #expect(try await complete(["share", "--list", "a"]) == ["a b;c.png"])
        let first = try await complete(["share", "a"])
        #expect(first.contains("a b;c.png") && !first.contains("a") && !first.contains("b;c.png"), "\(first)")
    }

    @Test("zsh")
    func zsh() async throws {
        let zsh = try #require(["/usr/bin/zsh", "/bin/zsh"].first(where: FileManager.default.isExecutableFile), "zsh (scripts/bootstrap installs it)")
        let script = try await script("zsh", named: "_share")
        func complete(_ words: [String]) async throws -> [String] {
            let program = """
                compadd() { local word; for word in "$@"; do [[ $word == -- || $word == -S || -z $word ]] || print -r -- $word; done }
                _files() { :; }
                source \(ShareBinary.shellQuoted(script.path))
                words=(\(words.map(ShareBinary.shellQuoted).joined(separator: " "))); CURRENT=\(words.count)
                _share
                """
            let run = try await ShareBinary.run(["-f", "-c", program], in: folder, program: zsh)
            #expect(run.status == 0 && run.standardError.isEmpty, "\(run)")
            return run.standardOutput.split(separator: "\n").map(String.init)
        }
        let mail = try await complete(["share", "--activity", "mail", "--set", ""])
        for key in ["smtp=", "from=", "to=", "subject="] { #expect(mail.contains(key), "\(mail)") }
        #expect(!mail.contains("printer="), "\(mail)")
        #expect(try await complete(["share", "--activity", "print", "--set", ""]).contains("copies="))
    }

    @Test("fish")
    func fish() async throws {
        let fish = try #require(["/usr/bin/fish", "/bin/fish"].first(where: FileManager.default.isExecutableFile), "fish (scripts/bootstrap installs it)")
        let script = try await script("fish", named: "share.fish")
        func complete(_ line: String) async throws -> [String] {
            let program = "source \(ShareBinary.shellQuoted(script.path)); complete -C \(ShareBinary.shellQuoted(line))"
            let run = try await ShareBinary.run(["--no-config", "-c", program], in: folder, program: fish, environment: ["HOME": folder.path])
            #expect(run.status == 0 && run.standardError.isEmpty, "\(run)")
            return run.standardOutput.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
        }
        let mail = try await complete("share --activity mail --set ")
        for key in ["smtp=", "from=", "to=", "subject="] { #expect(mail.contains(key), "\(mail)") }
        #expect(!mail.contains("printer="), "\(mail)")
        #expect(try await complete("share --activity print --set co") == ["copies="])
    }
}
