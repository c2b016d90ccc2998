// The settings window (SPEC §7): Settings… on a result page whose fix is a setting opens it,
// what is set there is written to the configuration file, and Retry then sends what waited.
// Real peers: the real `share --gui`, aiosmtpd on loopback, Xvfb and AT-SPI.
import Foundation
import LocalTestSupport
import Testing

@Suite("The settings window", .serialized)
struct SettingsWindowTests {
    /// The accessible text of every node that reads like an option or configuration syntax.
    private func syntax(in window: RunningWindow) async throws -> [String] {
        let nodes = try JSONSerialization.jsonObject(with: Data(try await window.driver.dump().utf8)) as? [[String: Any]] ?? []
        let texts = nodes.flatMap { node in ["name", "description", "text"].compactMap { node[$0] as? String } }
        return texts.filter { text in
            text.contains(/--[A-Za-z]/) || text.contains(/\[[A-Za-z][A-Za-z0-9_-]*\]/) || text.contains(/[A-Za-z0-9_-]+=/)
        }
    }

    private func shows(_ name: String, in window: RunningWindow) async throws -> Bool {
        let nodes = try JSONSerialization.jsonObject(with: Data(try await window.driver.dump().utf8)) as? [[String: Any]] ?? []
        return nodes.contains { $0["name"] as? String == name && $0["role"] as? String == "push button" }
    }

    @Test("Mail queued for want of a server: Settings… opens the settings window, the server set there is saved, and Retry sends to a loopback SMTP server")
    func settingsThenRetrySends() async throws {
        try await WindowDesk.with { desk in
            let peer = try SMTPPeer(in: desk.home.root)
            defer { peer.stop() }
            try desk.configure("# kept by hand\n[someday]\nwish=a pony\n")
            let (notes, _) = try desk.notesAndPhoto()
            let window = try desk.startShare(["--json", "--to", "bo@example.com", notes.path])
            try await window.driver.click(name: "Mail", role: "push button")
            try await window.driver.click(name: "Send", role: "push button")
            let deadline = Date().addingTimeInterval(30)
            while !(try await shows("Open Outbox", in: window)), Date() < deadline {
                if try await shows("Send Now", in: window) { try? await window.driver.click(name: "Send Now", role: "push button") }
                try await Task.sleep(for: .milliseconds(300))
            }
            try await window.driver.wait(name: "Mail is waiting in the outbox", role: "label")
            try await window.driver.wait(name: "Settings…", role: "push button")
            #expect(!(try await shows("Retry", in: window)), "nothing to retry before a server is set up")

            try await window.driver.click(name: "Settings…", role: "push button")
            try await window.driver.wait(name: "Mail server", role: "text")
            try await desk.saveScreenshot("settings-window.png", of: window)
            #expect(try await window.driver.read(name: "Mail server", role: "text") == "", "no server yet")
            var seen = try await syntax(in: window)
            try await window.driver.fill(name: "Mail server", text: "smtp://127.0.0.1:\(peer.port)", role: "text")
            try await window.driver.fill(name: "From address", text: "ana@example.org", role: "text")
            try await window.driver.click(name: "No encryption", role: "radio button")
            try await window.driver.click(name: "Save", role: "push button")
            try await window.driver.wait(name: "Settings saved.", role: "label")
            seen += try await syntax(in: window)
            #expect(seen.isEmpty, "option or configuration syntax in the window: \(seen)")

            let saved = try String(contentsOf: desk.home.configFile, encoding: .utf8)
            #expect(saved.contains("smtp=smtp://127.0.0.1:\(peer.port)\n"), "\(saved)")
            #expect(saved.contains("starttls=off\n") && saved.contains("from=ana@example.org\n"), "\(saved)")
            #expect(saved.contains("# kept by hand\n") && saved.contains("[someday]\nwish=a pony\n"), "the rest stays: \(saved)")

            // Escape closes the settings window; the result page under it now offers Retry.
            try await window.driver.key("Escape")
            try await window.driver.waitGone(name: "Save", role: "push button")
            try await window.driver.wait(name: "Mail is waiting in the outbox", role: "label")
            try await desk.saveScreenshot("settings-result-retry.png", of: window)
            try await window.driver.click(name: "Retry", role: "push button")
            try await window.driver.wait(name: "Sent", role: "label")
            let arrived = Date().addingTimeInterval(20)
            while peer.received.isEmpty, Date() < arrived { try await Task.sleep(for: .milliseconds(200)) }
            #expect(peer.received.count == 1, "one message at the SMTP server")
            if let message = peer.received.first {
                let envelope = try peer.envelope(of: message)
                #expect(envelope.recipients == ["bo@example.com"], "\(envelope.recipients)")
            }
            try await desk.saveScreenshot("settings-retry-sent.png", of: window)

            try await window.driver.click(name: "Close", role: "push button")
            let run = try await window.finish()
            #expect(run.status == 0, "sent after all: \(run.standardError)")
            let result = try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any]
            #expect(result?["disposition"] as? String == "sent", "\(run.standardOutput)")
        }
    }

    @Test("share settings opens the window on its own: a bad port is said in words and nothing is written; a share target turned off is saved beside one not installed; Escape closes it")
    func settingsCommand() async throws {
        try await WindowDesk.with { desk in
            try desk.configure("[photos]\nsubfolder=Shared\n\n[targets]\n# gone, but stays off\ndisabled=gone-app\n")
            let applications = desk.home.dataHome.appendingPathComponent("applications", isDirectory: true)
            try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
            try Data("[Desktop Entry]\nType=Application\nName=Notes\nExec=/bin/true %F\nX-ShareSheet-Accepts=text/plain\n".utf8)
                .write(to: applications.appendingPathComponent("org.example.Notes.desktop"))
            let window = try desk.startShare(["settings"])
            try await window.driver.wait(name: "Photos folder", role: "text")
            #expect(try await window.driver.read(name: "Photos folder", role: "text") == "Shared")
            try await window.driver.fill(name: "Mail server", text: "mail.example.com:99999", role: "text")
            try await window.driver.click(name: "Save", role: "push button")
            try await window.driver.wait(name: "The mail server's port must be a number from 1 to 65535.", role: "label")
            let before = "[photos]\nsubfolder=Shared\n\n[targets]\n# gone, but stays off\ndisabled=gone-app\n"
            #expect(try String(contentsOf: desk.home.configFile, encoding: .utf8) == before, "nothing written")
            try await desk.saveScreenshot("settings-window-problem.png", of: window)

            try await window.driver.fill(name: "Mail server", text: "", role: "text")
            try await window.driver.click(name: "Notes", role: "check box")
            try await window.driver.click(name: "Save", role: "push button")
            try await window.driver.wait(name: "Settings saved.", role: "label")
            let saved = try String(contentsOf: desk.home.configFile, encoding: .utf8)
            #expect(saved.contains("disabled=gone-app;org.example.Notes\n"), "\(saved)")
            #expect(saved.contains("subfolder=Shared\n") && saved.contains("# gone, but stays off\n"), "\(saved)")
            #expect(!saved.contains("smtp"), "\(saved)")
            try await window.driver.key("Escape")
            let run = try await window.finish()
            #expect(run.status == 0, "\(run.standardError)")
        }
    }

    @Test("Posting accounts: a Vimeo token added in the window is kept (in a file only the person can read, with no password store here), then removed")
    func addAndRemoveAnAccount() async throws {
        try await WindowDesk.with { desk in
            let window = try desk.startShare(["settings"], extra: ["SHARESHEET_SECRET_STORE": "file"])
            try await window.driver.wait(name: "Posting accounts", role: "label")
            try await window.driver.click(name: "Add Vimeo account…", role: "push button")
            try await window.driver.fill(name: "Vimeo token", text: "vimeo-token-123", role: "text")
            try await window.driver.click(name: "Add Vimeo account", role: "push button")
            try await window.driver.wait(
                name: "The Vimeo account is added; its token is kept in a file only you can read.", role: "label")
            let tokens = desk.home.configHome.appendingPathComponent("sharesheet/tokens")
            #expect(try String(contentsOf: tokens, encoding: .utf8).contains("vimeo-token-123"))
            try await desk.saveScreenshot("settings-window-accounts.png", of: window)
            try await window.driver.click(name: "Remove Vimeo account", role: "push button")
            try await window.driver.wait(name: "The Vimeo account is removed.", role: "label")
            #expect(!((try? String(contentsOf: tokens, encoding: .utf8)) ?? "").contains("vimeo-token-123"))
            try await window.driver.key("Escape")
            let run = try await window.finish()
            #expect(run.status == 0, "\(run.standardError)")
        }
    }

    @Test("A password typed with no password store on the desktop: the settings are saved, and the window says in words that the password could not be kept")
    func passwordWithoutSecretService() async throws {
        try await WindowDesk.with { desk in
            let window = try desk.startShare(["settings"])
            try await window.driver.fill(name: "Mail server", text: "mail.example.com:587", role: "text")
            try await window.driver.fill(name: "Login name", text: "ana", role: "text")
            try await window.driver.fill(name: "Password", text: "not-kept", role: "text")
            try await window.driver.click(name: "Save", role: "push button")
            try await window.driver.wait(
                name: "Settings saved. The password could not be kept: no password store (Secret Service) is running on this desktop.",
                role: "label")
            let saved = try String(contentsOf: desk.home.configFile, encoding: .utf8)
            #expect(saved.contains("smtp=smtp://mail.example.com:587\n") && saved.contains("user=ana\n"), "\(saved)")
            #expect(!saved.contains("not-kept"), "the password never goes into the file")
            try await window.driver.key("Escape")
            let run = try await window.finish()
            #expect(run.status == 0, "\(run.standardError)")
        }
    }

    @Test("Default printer: the printers a private cupsd lists, the desktop's default named, the configured one kept though gone; Lab picked is saved")
    func defaultPrinterFromTheList() async throws {
        let peers = try PrintPeers()
        defer { peers.stop() }
        try peers.addQueue("Office", makeDefault: true)
        try peers.addQueue("Lab")
        try await WindowDesk.with { desk in
            try desk.configure("[print]\nprinter=Gone\n")
            let window = try desk.startShare(["settings"], extra: ["CUPS_SERVER": peers.server])
            try await window.driver.wait(name: "The desktop's default: Office", role: "radio button")
            for name in ["Office", "Lab", "Gone (not found now)"] {
                try await window.driver.wait(name: name, role: "radio button")
            }
            let nodes = try JSONSerialization.jsonObject(with: Data(try await window.driver.dump().utf8)) as? [[String: Any]] ?? []
            let radios = nodes.filter { $0["role"] as? String == "radio button" }.compactMap { $0["name"] as? String }
            // After mail security's four: the desktop's default first, then the queues, then the gone one.
            #expect(Array(radios.suffix(4)) == ["The desktop's default: Office", "Office", "Lab", "Gone (not found now)"], "\(radios)")
            #expect(!nodes.contains { $0["role"] as? String == "text" && $0["name"] as? String == "Default printer" }, "a list, not a field")
            try await desk.saveScreenshot("settings-window-printers.png", of: window)
            try await window.driver.click(name: "Lab", role: "radio button")
            try await window.driver.click(name: "Save", role: "push button")
            try await window.driver.wait(name: "Settings saved.", role: "label")
            let saved = try String(contentsOf: desk.home.configFile, encoding: .utf8)
            #expect(saved.contains("printer=Lab\n") && !saved.contains("Gone"), "\(saved)")
            try await window.driver.key("Escape")
            let run = try await window.finish()
            #expect(run.status == 0, "\(run.standardError)")
        }
    }
}
