import Foundation
import LocalTestSupport
import ShareSheet
import ShareSheetSystem
import Testing

@Suite("XDG folders, configuration and atomic files")
struct SystemTests {
    private func temporaryFolder() throws -> URL { try TemporaryFolder.make("system-tests") }

    @Test("XDG variables win, relative values are ignored, defaults sit under HOME")
    func baseDirectories() {
        let dirs = XDGDirectories(environment: ["HOME": "/home/ana", "XDG_DATA_HOME": "/data", "XDG_CONFIG_HOME": "relative"])
        #expect(dirs.dataHome.path == "/data")
        #expect(dirs.configHome.path == "/home/ana/.config")
        #expect(dirs.stateHome.path == "/home/ana/.local/state")
        #expect(dirs.shareSheetData.path == "/data/sharesheet")
        #expect(dirs.configurationFile.path == "/home/ana/.config/sharesheet/config")
    }

    @Test("user folders come from user-dirs.dirs, with English names when it names none")
    func userDirectories() throws {
        let config = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: config) }
        try Data("# written by xdg-user-dirs-update\nXDG_PICTURES_DIR=\"$HOME/Bilder\"\nXDG_VIDEOS_DIR=\"/srv/videos\"\nXDG_DESKTOP_DIR=\"$HOME/\"\n".utf8)
            .write(to: config.appendingPathComponent("user-dirs.dirs"))
        let dirs = XDGDirectories(environment: ["HOME": "/home/ana", "XDG_CONFIG_HOME": config.path])
        #expect(dirs.userDirectory(.pictures).path == "/home/ana/Bilder")
        #expect(dirs.userDirectory(.videos).path == "/srv/videos")
        #expect(dirs.userDirectory(.documents).path == "/home/ana/Documents")
        #expect(dirs.userDirectory(.desktop).path == "/home/ana/Desktop")
    }

    @Test("the configuration file is read with GLib's key-file parser")
    func configuration() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("config")
        try Data("# settings\n[mail]\nsmtp=smtp://127.0.0.1:2525\nstarttls=false\n\n[photos]\nsubfolder=From share\\sSheet\nlimit=3\n".utf8).write(to: file)
        let configuration = try Configuration.load(file: file)
        #expect(configuration.string("smtp", in: "mail") == "smtp://127.0.0.1:2525")
        #expect(configuration.bool("starttls", in: "mail") == false)
        #expect(configuration.string("subfolder", in: "photos") == "From share Sheet")
        #expect(configuration.integer("limit", in: "photos") == 3)
        #expect(configuration.string("missing", in: "mail") == nil)
        #expect(try Configuration.load(file: folder.appendingPathComponent("none")).keys(in: "mail").isEmpty)
    }

    @Test("a malformed configuration file is a configuration error naming the file and the line")
    func malformedConfiguration() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("config")
        try Data("[mail\nsmtp=x\n".utf8).write(to: file)
        #expect {
            try Configuration.load(file: file)
        } throws: { error in
            guard let error = error as? ShareError else { return false }
            return error.kind == .configuration && error.message.hasPrefix(file.path + ":1: ")
        }
    }

    @Test("atomic writes replace the whole file and leave no temporary file")
    func atomicWrite() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("sub/secret")
        try AtomicFile.write(Data("one".utf8), to: file, permissions: 0o600)
        try AtomicFile.write(Data("two".utf8), to: file, permissions: 0o600)
        #expect(try String(contentsOf: file, encoding: .utf8) == "two")
        #expect(try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path) == ["secret"])
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test("a write removes the temporary files of killed writers; a running writer's and other names stay")
    func abandonedTemporaries() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let dead = ".card.vcf.\(try Command.deadPID()).\(UUID().uuidString).tmp"
        let running = ".card.vcf.\(getpid()).\(UUID().uuidString).tmp"
        // Names from before #15 carry no PID: they go once untouched for 36 hours.
        let withoutPID = ".card.vcf.\(UUID().uuidString).tmp"
        let staleWithoutPID = ".old.vcf.\(UUID().uuidString).tmp"
        let other = ".notes.tmp"
        for name in [dead, running, withoutPID, staleWithoutPID, other] {
            try Data("half".utf8).write(to: folder.appendingPathComponent(name))
        }
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-37 * 3600)], ofItemAtPath: folder.appendingPathComponent(staleWithoutPID).path)
        try AtomicFile.write(Data("whole".utf8), to: folder.appendingPathComponent("card.vcf"))
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(left == [running, withoutPID, other, "card.vcf"].sorted())
    }

    @Test("unused names count up and keep the extension")
    func unusedNames() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(AtomicFile.unusedName(for: "cat.png", in: folder).lastPathComponent == "cat.png")
        try Data().write(to: folder.appendingPathComponent("cat.png"))
        try Data().write(to: folder.appendingPathComponent("cat 2.png"))
        #expect(AtomicFile.unusedName(for: "cat.png", in: folder).lastPathComponent == "cat 3.png")
        try Data().write(to: folder.appendingPathComponent("README"))
        #expect(AtomicFile.unusedName(for: "README", in: folder).lastPathComponent == "README 2")
    }
}
