import Foundation
import LocalTestSupport
import ShareSheet
import Testing

@testable import Printing

/// Where Print says the document went, with the activity's defaults taken from the host
/// environment the registry passes in (its `CUPS_SERVER`, Documents folder and configuration).
@MainActor
@Suite("Print: disposition, location and fallback")
struct PrintDispositionTests {
    /// The environment of a host whose home is `folder` and whose scheduler is `server`.
    func host(_ folder: TemporaryFolder, server: String) -> HostEnvironment {
        HostEnvironment(variables: [
            "HOME": folder.url.path, "XDG_CONFIG_HOME": folder.file(".config").path, "CUPS_SERVER": server,
            "PATH": "/usr/bin:/bin",
        ])
    }

    func share(_ items: [Any], host: HostEnvironment, values: InterfaceValues = [:]) async -> ShareOutcome {
        let registry = ActivityRegistry(environment: host)
        registry.install(.print) { PrintActivity() }
        let controller = ActivityViewController(activityItems: items, applicationActivities: nil, registry: registry)
        controller.present(with: ScriptedPresenter(pick: .print, values: values))
        return await controller.waitForCompletion()
    }

    @Test("no printer: saved as PDF in the host's Documents, and the fallback says where and how to print")
    func savedWithoutPrinter() async throws {
        let folder = try TemporaryFolder("print-test")
        defer { folder.remove() }
        let outcome = await share(
            ["Nothing prints here."], host: host(folder, server: "127.0.0.1:\(try Loopback.freePort())"))
        #expect(outcome.completed, "\(String(describing: outcome.error))")
        let saved = folder.file("Documents/Print.pdf")
        #expect(FileManager.default.fileExists(atPath: saved.path))
        #expect(outcome.disposition == .saved)
        #expect(outcome.location == saved.path)
        #expect(outcome.fallback?.message == "No printer is set up, so the document was saved as PDF: \(saved.path)")
        #expect(outcome.fallback?.fix == .addPrinter)
        #expect(outcome.fallback?.setting == ShareError.Setting(group: "print", "printer"))
        #expect(outcome.fallback?.path == "~/.config/sharesheet/config")
    }

    @Test("[print] printer= in the host's configuration chooses the printer: printed, the location is the job")
    func printedOnConfiguredPrinter() async throws {
        let peers = try PrintPeers()
        defer { peers.stop() }
        try peers.addQueue("Office", makeDefault: true)
        try peers.addQueue("Lab")
        let folder = try TemporaryFolder("print-test")
        defer { folder.remove() }
        let config = folder.file(".config/sharesheet/config")
        try FileManager.default.createDirectory(at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "[print]\nprinter=Lab\n".write(to: config, atomically: true, encoding: .utf8)
        let outcome = await share(["For the lab."], host: host(folder, server: peers.server))
        #expect(outcome.completed, "\(String(describing: outcome.error))")
        #expect(outcome.disposition == .printed)
        let location = try #require(outcome.location)
        #expect(location.hasPrefix("Lab-") && Int(location.dropFirst(4)) != nil, "\(location)")
        #expect(outcome.returnedItems as? [String] == [location])
        #expect(outcome.fallback == nil)
        #expect(peers.spooledFiles().count == 1)
        #expect(!FileManager.default.fileExists(atPath: folder.file("Documents").path))
    }
}
