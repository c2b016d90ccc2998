import Foundation
import LocalTestSupport
import ShareSheet
import ShareSheetBuiltins
import ShareSheetSystem
import Testing

/// The built-ins read their folders and configuration from the host environment the registry
/// passes in, never from this process's: a sheet for a temporary home writes into that home.
@MainActor
@Suite("Built-ins use the registry's host environment")
struct HostEnvironmentTests {
    /// A temporary home with its own XDG folders and configuration, and a scheduler that does
    /// not answer (so Print saves as PDF).
    final class Home {
        let root: URL
        init() throws {
            let folder = try TemporaryFolder("host-env")
            try folder.folder(".config/sharesheet")
            root = folder.url
        }
        deinit { TemporaryFolder(existing: root).remove() }

        var environment: HostEnvironment {
            HostEnvironment(variables: [
                "HOME": root.path, "XDG_CONFIG_HOME": root.appendingPathComponent(".config").path,
                "XDG_DATA_HOME": root.appendingPathComponent(".local/share").path,
                "XDG_CACHE_HOME": root.appendingPathComponent(".cache").path, "CUPS_SERVER": "127.0.0.1:1",
                "PATH": "/usr/bin:/bin", "USER": "host-user",
            ])
        }

        func configure(_ text: String) throws {
            try text.write(to: root.appendingPathComponent(".config/sharesheet/config"), atomically: true, encoding: .utf8)
        }

        func files(_ relative: String) -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(relative).path)) ?? []).sorted()
        }
    }

    func share(_ items: [Any], pick: ActivityType, values: InterfaceValues = [:], home: Home) async -> ShareOutcome {
        let registry = ActivityRegistry(environment: home.environment)
        Builtins.install(into: registry)
        let controller = ActivityViewController(activityItems: items, applicationActivities: nil, registry: registry)
        controller.present(with: ScriptedPresenter(pick: pick, values: values))
        return await controller.waitForCompletion()
    }

    @Test("this process's HOME is somewhere else")
    func processHomeDiffers() throws {
        let home = try Home()
        #expect(ProcessInfo.processInfo.environment["HOME"] != home.root.path)
    }

    @Test("Save to Photos writes under the host's Pictures, in the subfolder of the host's configuration")
    func photos() async throws {
        let home = try Home()
        try home.configure("[photos]\nsubfolder=From Host\n")
        let png = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")!
        let source = home.root.appendingPathComponent("dot.png")
        try png.write(to: source)
        let outcome = await share([source], pick: .saveToCameraRoll, home: home)
        #expect(outcome.completed, "\(String(describing: outcome.error))")
        #expect(home.files("Pictures/From Host") == ["dot.png"])
        #expect(outcome.disposition == .saved)
        #expect(outcome.location == home.root.appendingPathComponent("Pictures/From Host/dot.png").path)
    }

    @Test("Mail queues in the host's data home and names the host's configuration file")
    func mail() async throws {
        let home = try Home()
        let outcome = await share(["Hello"], pick: .mail, values: ["to": .text("bob@example.com")], home: home)
        #expect(outcome.completed, "\(String(describing: outcome.error))")
        let queued = home.files(".local/share/sharesheet/Outbox/new")
        #expect(queued.count == 1)
        #expect(outcome.disposition == .queued)
        #expect(outcome.fallback?.path == "~/.config/sharesheet/config")
        let message = try String(contentsOf: URL(fileURLWithPath: try #require(outcome.location)), encoding: .utf8)
        #expect(message.contains("host-user@"), "the sender comes from the host's USER")
    }

    @Test("Mail reads [mail] from the host's configuration: a bad value there is reported")
    func mailConfiguration() async throws {
        let home = try Home()
        try home.configure("[mail]\nstarttls=sometimes\n")
        let outcome = await share(["Hello"], pick: .mail, values: ["to": .text("bob@example.com")], home: home)
        #expect(!outcome.completed)
        #expect((outcome.error as? ShareError)?.message.contains("starttls=sometimes") == true)
        #expect(home.files(".local/share/sharesheet/Outbox/new").isEmpty)
    }

    @Test("Print saves as PDF into the host's Documents when its scheduler has no printer")
    func print() async throws {
        let home = try Home()
        let outcome = await share(["Print me"], pick: .print, home: home)
        #expect(outcome.completed, "\(String(describing: outcome.error))")
        #expect(home.files("Documents") == ["Print.pdf"])
        #expect(outcome.disposition == .saved)
        #expect(outcome.location == home.root.appendingPathComponent("Documents/Print.pdf").path)
        #expect(outcome.fallback?.path == "~/.config/sharesheet/config")
    }

    @Test("Add to Reading List stores in the host's data home")
    func readingList() async throws {
        let home = try Home()
        let outcome = await share([URL(string: "https://example.com/article")!], pick: .addToReadingList, home: home)
        #expect(outcome.completed, "\(String(describing: outcome.error))")
        let database = home.root.appendingPathComponent(".local/share/sharesheet/reading-list.sqlite")
        #expect(FileManager.default.fileExists(atPath: database.path))
        #expect(outcome.disposition == .saved)
        #expect(outcome.location == database.path)
    }

    @Test("Copy without a display in the host goes to the host's pasteboard file, and says so")
    func copy() async throws {
        let home = try Home()
        let outcome = await share(["copied text"], pick: .copyToPasteboard, home: home)
        #expect(outcome.completed, "\(String(describing: outcome.error))")
        let file = home.root.appendingPathComponent(".local/share/sharesheet/pasteboard.json")
        #expect(FileManager.default.fileExists(atPath: file.path))
        #expect(outcome.disposition == .copied)
        #expect(outcome.location == file.path)
        #expect(outcome.fallback?.message.hasPrefix("There is no display here") == true)
    }
}
