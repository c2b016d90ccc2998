// An interactive Share: the service opens the window of the window issue, driven through AT-SPI
// as in Tests/WindowTests, and the request ends with what the person picked.
import Foundation
import LocalTestSupport
import Testing

@Suite("The service's window", .serialized)
struct ServiceWindowTests {
    /// A desktop (display, accessibility bus) and a private bus that activates the service,
    /// which gets the desktop's display and accessibility bus.
    private func withDesktopAndBus(
        preparing prepare: (TemporaryHome) throws -> Void = { _ in }, _ body: (DesktopSession, ServiceBus) async throws -> Void
    ) async throws {
        let home = try TemporaryHome(prefix: "service-window")
        defer { home.remove() }
        try prepare(home)
        let desktop = try DesktopSession.start(in: home.root.appendingPathComponent("desktop", isDirectory: true))
        defer { desktop.stop() }
        let bus = try ServiceBus.start(home: home, desktop: desktop)
        defer { bus.stop() }
        try await body(desktop, bus)
    }

    @Test("an interactive Share opens the window; clicking Copy ends the request with response 0")
    func copyInTheServiceWindow() async throws {
        try await withDesktopAndBus { desktop, bus in
            let client = ServiceClient(bus: bus)
            let started = try client.start(["share", "--text", "from the window", "--token", "window1"])
            let driver = AccessibilityDriver(session: desktop, pid: try await bus.servicePID())
            try await driver.click(name: "Copy", role: "push button")
            let output = try await client.finish(started)
            let result = try #require(output.objects.last, "client: \(output)")
            #expect(result["response"] as? Int == 0, "client: \(output); service: \(bus.logTail())")
            let results = result["results"] as? [String: Any]
            #expect(results?["activity"] as? String == "copy")
            #expect(results?["disposition"] as? String == "copied")
            // The service is still there and answers after its window is gone.
            let listed = try await client.listActivities(["--text", "again"])
            #expect(!listed.isEmpty)
        }
    }

    @Test("Escape in the service's window dismisses: response 1")
    func escapeInTheServiceWindow() async throws {
        try await withDesktopAndBus { desktop, bus in
            let client = ServiceClient(bus: bus)
            let started = try client.start(["share", "--text", "never mind", "--token", "window2"])
            let driver = AccessibilityDriver(session: desktop, pid: try await bus.servicePID())
            try await driver.wait(name: "Copy", role: "push button")
            try await driver.key("Escape")
            let output = try await client.finish(started)
            #expect(output.objects.last?["response"] as? Int == 1, "client: \(output); service: \(bus.logTail())")
        }
    }

    @Test("the caller's custom action appears in the sheet beside ours; picking it ends the request with activity app.ID")
    func customActionInTheWindow() async throws {
        try await withDesktopAndBus { desktop, bus in
            let client = ServiceClient(bus: bus)
            let listed = try await client.listActivities([
                "--uri", "https://swift.org", "--option-variant", "custom-actions=[('copy-link', 'Copy Link', 'edit-copy')]",
            ])
            let custom = listed.first { $0["activity"] as? String == "app.copy-link" }
            #expect(custom?["title"] as? String == "Copy Link", "listed: \(listed)")
            #expect(custom?["icon-name"] as? String == "edit-copy")
            #expect(custom?["available"] as? Bool == true)

            let started = try client.start([
                "share", "--uri", "https://swift.org", "--custom-action", "copy-link:Copy Link:edit-copy", "--token", "window3",
            ])
            let driver = AccessibilityDriver(session: desktop, pid: try await bus.servicePID())
            try await driver.click(name: "Copy Link", role: "push button")
            let output = try await client.finish(started)
            let result = try #require(output.objects.last, "client: \(output)")
            #expect(result["response"] as? Int == 0, "client: \(output); service: \(bus.logTail())")
            #expect((result["results"] as? [String: Any])?["activity"] as? String == "app.copy-link", "client: \(output)")
        }
    }

    @Test("Close while the window shows a failure takes the window away and answers 1")
    func closeTakesAwayTheFailurePage() async throws {
        let home = try TemporaryHome(prefix: "service-window")
        defer { home.remove() }
        // Pictures is a file, so Save to Photos fails and the window shows why until closed.
        try? FileManager.default.removeItem(at: home.pictures)
        try FileManager.default.createDirectory(at: home.home, withIntermediateDirectories: true)
        try Data("not a folder".utf8).write(to: home.home.appendingPathComponent("Pictures", isDirectory: false))
        let image = try home.file("photo.png", ShareServiceTests.png)
        let desktop = try DesktopSession.start(in: home.root.appendingPathComponent("desktop", isDirectory: true))
        defer { desktop.stop() }
        let bus = try ServiceBus.start(home: home, desktop: desktop)
        defer { bus.stop() }
        let client = ServiceClient(bus: bus)
        let started = try client.start([
            "share", "--file", image.path + ":image/png", "--activity", "photos", "--token", "window5", "--close-after", "8",
        ])
        let driver = AccessibilityDriver(session: desktop, pid: try await bus.servicePID())
        try await driver.wait(name: "Close", role: "push button")
        let output = try await client.finish(started)
        let result = try #require(output.objects.last, "client: \(output)")
        #expect(result["response"] as? Int == 1, "client: \(output); service: \(bus.logTail())")
        try await driver.waitGone(name: "Close", role: "push button")
    }

    @Test("an interactive Share with an activity skips the sheet: Mail's form opens with the fields given, Escape answers 1")
    func interactiveActivityOpensItsForm() async throws {
        try await withDesktopAndBus { desktop, bus in
            let client = ServiceClient(bus: bus)
            let started = try client.start([
                "share", "--text", "minutes", "--activity", "mail", "--field", "to=bo@example.com", "--token", "window4",
            ])
            let driver = AccessibilityDriver(session: desktop, pid: try await bus.servicePID())
            try await driver.wait(name: "Subject", role: "text")
            #expect(try await driver.read(name: "To", role: "text") == "bo@example.com")
            try await driver.key("Escape")
            let output = try await client.finish(started)
            let result = try #require(output.objects.last, "client: \(output)")
            #expect(result["response"] as? Int == 1, "client: \(output); service: \(bus.logTail())")
            #expect((result["results"] as? [String: Any])?["activity"] as? String == "mail", "client: \(output)")
        }
    }

    @Test("Settings… on the service's window: the settings window has the share targets and the posting accounts, as share's own has")
    func settingsFromTheServiceWindow() async throws {
        // One share target installed, so the settings window has one to turn on or off.
        let installTarget: (TemporaryHome) throws -> Void = { home in
            let applications = home.dataHome.appendingPathComponent("applications", isDirectory: true)
            try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
            try Data("[Desktop Entry]\nType=Application\nName=Notes\nExec=/bin/true %F\nX-ShareSheet-Accepts=text/plain\n".utf8)
                .write(to: applications.appendingPathComponent("org.example.Notes.desktop"))
        }
        try await withDesktopAndBus(preparing: installTarget) { desktop, bus in
            let client = ServiceClient(bus: bus)
            let started = try client.start([
                "share", "--text", "minutes", "--activity", "mail", "--field", "to=bo@example.com", "--token", "window5",
            ])
            let driver = AccessibilityDriver(session: desktop, pid: try await bus.servicePID())
            try await driver.wait(name: "Send", role: "push button")
            try await driver.click(name: "Send", role: "push button")
            // No mail server: the mail waits; a mail may first wait to be taken back (Send Now).
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline {
                let dump = try await driver.dump()
                if dump.contains("\"Settings…\"") { break }
                if dump.contains("\"Send Now\"") { try? await driver.click(name: "Send Now", role: "push button") }
                try await Task.sleep(for: .milliseconds(300))
            }
            try await driver.click(name: "Settings…", role: "push button")
            try await driver.wait(name: "Posting accounts", role: "label")
            try await driver.wait(name: "Share targets", role: "label")
            try await driver.wait(name: "Notes", role: "check box")
            try await driver.wait(name: "Mail server", role: "text")
            try await driver.key("Escape")
            try await driver.waitGone(name: "Posting accounts", role: "label")
            try await driver.click(name: "Close", role: "push button")
            let output = try await client.finish(started)
            let result = try #require(output.objects.last, "client: \(output)")
            #expect((result["results"] as? [String: Any])?["activity"] as? String == "mail", "client: \(output); service: \(bus.logTail())")
        }
    }
}
