import Foundation
import LocalTestSupport
import Testing

/// The small things a person meets at the prompt: the end of `share paste`, an empty outbox,
/// `targets check` by desktop id, what Save to Photos leaves out.
@Suite("share, details at the prompt")
final class CommandDetailsTests {
    let fixture: CommandFolder
    var folder: URL { fixture.url }

    init() throws {
        fixture = try CommandFolder()
    }

    private func share(_ arguments: [String]) async throws -> ShareBinary.Run {
        try await ShareBinary.run(arguments, in: folder)
    }

    @Test("share paste ends a line on a terminal; into a pipe the bytes stay exactly as copied")
    func pasteEndsTheLineOnlyOnATerminal() async throws {
        let copied = try await share(["--activity", "copy", "--text", "no newline"])
        #expect(copied.status == 0, "\(copied)")
        let piped = try await share(["paste"])
        #expect(piped.status == 0, "\(piped)")
        #expect(piped.standardOutput == "no newline")
        let onTerminal = try await ShareBinary.runOnTerminal(["paste"], in: folder)
        #expect(onTerminal.status == 0, "\(onTerminal)")
        #expect(onTerminal.standardOutput == "no newline\n", "\(onTerminal)")

        // Text that already ends its line gets no second newline.
        #expect(try await share(["--activity", "copy", "--text", "one line\n"]).status == 0)
        let ended = try await ShareBinary.runOnTerminal(["paste"], in: folder)
        #expect(ended.standardOutput == "one line\n", "\(ended)")
    }

    @Test("an empty outbox says so; its JSON is an empty array")
    func emptyOutbox() async throws {
        let list = try await share(["outbox", "list"])
        #expect(list.status == 0, "\(list)")
        #expect(list.standardOutput == "The outbox is empty.\n")
        let json = try await share(["outbox", "list", "--json"])
        #expect(json.standardOutput == "[]\n", "\(json)")
    }

    @Test("targets check takes an installed desktop id, with or without .desktop")
    func targetsCheckByDesktopID() async throws {
        let applications = folder.appendingPathComponent("home/data/applications")
        try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        try Data("[Desktop Entry]\nType=Application\nName=Saver\nExec=/bin/true %F\nX-ShareSheet-Accepts=public.image\n".utf8)
            .write(to: applications.appendingPathComponent("org.example.Saver.desktop"))
        for id in ["org.example.Saver.desktop", "org.example.Saver"] {
            let run = try await share(["targets", "check", id])
            #expect(run.status == 0, "\(id): \(run)")
            #expect(run.standardOutput.hasSuffix("\(id): a valid share target\n"), "\(id): \(run)")
        }
        let missing = try await share(["targets", "check", "org.example.Nowhere"])
        #expect(missing.status == 66, "\(missing)")
        // Said as an id that is not installed, not as a missing file of the current folder.
        #expect(missing.standardError.hasPrefix(
            "share: org.example.Nowhere: no such file here, and no desktop entry org.example.Nowhere.desktop is installed"), "\(missing)")
    }

    @Test("Save to Photos says which items it skipped and why")
    func photosSaysWhatItSkipped() async throws {
        try FileManager.default.copyItem(at: Sample.url("sunset.png"), to: folder.appendingPathComponent("sunset.png"))
        let run = try await share(["--activity", "photos", "sunset.png", "notes.txt"])
        #expect(run.status == 0, "\(run)")
        #expect(
            run.standardError
                == "share: Save to Photos: skipped notes.txt (text file (public.plain-text)): it takes images, image or video files only\n",
            "\(run)")
        #expect(run.standardOutput.hasSuffix("/sunset.png\n"), "\(run)")
    }
}
