import Foundation
import LocalTestSupport
import ShareSheet
import ShareSheetSystem
import Testing

/// The settings window's values: read from the configuration file, and saved back changing
/// only what the person changed, with every comment, blank line and unknown line kept.
@Suite("The settings window's draft of the configuration")
struct SettingsDraftTests {
    private func file(_ text: String?) throws -> (folder: TemporaryFolder, file: URL) {
        let folder = try TemporaryFolder("settings-draft")
        let file = folder.url.appendingPathComponent("sharesheet/config")
        if let text {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
        return (folder, file)
    }

    @Test("the server, its security, From and login are read back as the window shows them")
    func readsMail() throws {
        let (folder, file) = try self.file("[mail]\nsmtp=smtps://ana:secret@mail.example.com:465\nfrom=Ana <ana@example.com>\nuser=ana\n")
        defer { folder.remove() }
        let draft = try SettingsDraft.load(file: file)
        #expect(draft.mailServer == "mail.example.com:465", "no scheme, and never the password written into the address")
        #expect(draft.mailSecurity == .tls)
        #expect(draft.mailFrom == "Ana <ana@example.com>")
        #expect(draft.mailUser == "ana")
        let plain = SettingsDraft(configuration: Configuration(["mail": ["smtp": "smtp://relay:25", "starttls": "off"]]))
        #expect(plain.mailServer == "relay:25" && plain.mailSecurity == .none)
        #expect(SettingsDraft().mailSecurity == .startTLSRequired, "the program's default")
    }

    @Test("saving writes only what changed, and keeps comments, blank lines and unknown groups and keys")
    func keepsTheRest() throws {
        let text = """
            # my settings
            [mail]
            # the relay at home
            from=ana@example.com
            cafile=/etc/ssl/home.pem

            [someday]
            wish=a pony

            [photos]
            subfolder=Shared
            """
        let (folder, file) = try self.file(text + "\n")
        defer { folder.remove() }
        let original = try SettingsDraft.load(file: file)
        var draft = original
        draft.mailServer = "smtp://127.0.0.1:2525"
        draft.mailSecurity = .none
        draft.photosSubfolder = ""
        draft.nearbyDiscovery = false
        try draft.save(to: file, from: original)
        let saved = try String(contentsOf: file, encoding: .utf8)
        for line in ["# my settings", "# the relay at home", "from=ana@example.com", "cafile=/etc/ssl/home.pem", "[someday]", "wish=a pony"] {
            #expect(saved.contains(line + "\n"), "kept \(line): \(saved)")
        }
        #expect(saved.contains("smtp=smtp://127.0.0.1:2525\n"), "\(saved)")
        #expect(saved.contains("starttls=off\n"), "\(saved)")
        #expect(!saved.contains("subfolder"), "an emptied value removes its key: \(saved)")
        #expect(!saved.contains("[photos]"), "and its group once empty: \(saved)")
        #expect(saved.contains("[nearby]\nenabled=false\n"), "\(saved)")
        let again = try SettingsDraft.load(file: file)
        #expect(again.mailServer == "127.0.0.1:2525" && again.mailSecurity == .none && !again.nearbyDiscovery)
    }

    @Test("a new file is made 0600 through a temporary file in the same folder, and nothing else is left there")
    func newFileIsPrivate() throws {
        let (folder, file) = try self.file(nil)
        defer { folder.remove() }
        var draft = SettingsDraft()
        draft.mailServer = "mail.example.com"
        draft.mailSecurity = .tls
        try draft.save(to: file, from: SettingsDraft())
        var status = stat()
        #expect(stat(file.path, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
        #expect(try String(contentsOf: file, encoding: .utf8).contains("smtp=smtps://mail.example.com\n"))
        let names = try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path)
        #expect(names == ["config"], "\(names)")
    }

    @Test("nothing changed: the file is not written at all")
    func unchangedIsNotWritten() throws {
        let (folder, file) = try self.file("[mail]\nsmtp = smtp://relay\n")
        defer { folder.remove() }
        let original = try SettingsDraft.load(file: file)
        #expect(original.edits(from: original).isEmpty)
        try original.save(to: file, from: original)
        #expect(try String(contentsOf: file, encoding: .utf8) == "[mail]\nsmtp = smtp://relay\n", "byte for byte")
    }

    @Test("turning the server off removes it and its security; TLS drops the STARTTLS rule")
    func serverEdits() {
        var original = SettingsDraft()
        original.mailServer = "relay:25"
        original.mailSecurity = .none
        var draft = original
        draft.mailServer = ""
        #expect(draft.edits(from: original).map { "\($0.key)=\($0.value ?? "∅")" } == ["smtp=∅", "starttls=∅"])
        draft.mailServer = "smtps://mail.example.com:465"
        #expect(draft.edits(from: original).map { "\($0.key)=\($0.value ?? "∅")" } == ["smtp=smtps://mail.example.com:465", "starttls=∅"])
    }

    @Test("problems are sentences for a person: a bad port, a host with spaces, a From without @, a folder with ..")
    func problems() {
        var draft = SettingsDraft()
        #expect(draft.problems.isEmpty)
        draft.mailServer = "mail example:99999"
        draft.mailFrom = "ana"
        draft.photosSubfolder = "../elsewhere"
        #expect(draft.problems.count == 4, "\(draft.problems)")
        for problem in draft.problems {
            #expect(!problem.contains("=") && !problem.contains("--") && !problem.contains("["), "\(problem)")
        }
    }
}
