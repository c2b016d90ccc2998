import Foundation
import LocalTestSupport
import Testing

/// A private desktop (Xvfb, a session bus, the accessibility bus) and a temporary home, for one
/// window test; everything started is stopped by PID at the end.
struct WindowDesk {
    let home: TemporaryHome
    let session: DesktopSession

    /// Runs `body` with a fresh desk, then stops the desk and removes the home.
    static func with(_ body: (WindowDesk) async throws -> Void) async throws {
        let home = try TemporaryHome(prefix: "window")
        defer { home.remove() }
        let session = try DesktopSession.start(in: home.root.appendingPathComponent("desktop", isDirectory: true))
        defer { session.stop() }
        try await body(WindowDesk(home: home, session: session))
    }

    /// The environment of a program on this desk: the home's XDG folders and the desktop's
    /// display and buses.
    var environment: [String: String] {
        home.environment.merging(session.environment) { _, desktop in desktop }
    }

    /// Writes the home's configuration file.
    func configure(_ text: String) throws {
        try FileManager.default.createDirectory(
            at: home.configFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: home.configFile)
    }

    /// vCards for the tests' people, by file name: Bo Berg (an address and a photo), Ana Lima
    /// (an address), Cy Park (a phone number).
    static let cards: [String: String] = [
        "bo-berg": "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:bo-berg\r\nFN:Bo Berg\r\nN:Berg;Bo;;;\r\nEMAIL:bo@example.com\r\nPHOTO;ENCODING=b;TYPE=PNG:\(Samples.photo.base64EncodedString())\r\nEND:VCARD\r\n",
        "ana-lima": "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:ana-lima\r\nFN:Ana Lima\r\nN:Lima;Ana;;;\r\nEMAIL:ana@example.com\r\nEND:VCARD\r\n",
        "cy-park": "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:cy-park\r\nFN:Cy Park\r\nN:Park;Cy;;;\r\nTEL:+46 70 123 45 67\r\nEND:VCARD\r\n",
    ]

    /// Writes the cards of `people` (names in `cards`) to the default vCard folder, which it
    /// returns.
    @discardableResult
    func writeContacts(_ people: [String]) throws -> URL {
        let folder = home.dataHome.appendingPathComponent("contacts/default", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in people {
            try Data(Self.cards[name, default: ""].utf8).write(to: folder.appendingPathComponent("\(name).vcf"))
        }
        return folder
    }

    /// A text file and a small PNG in the home's own folder.
    func notesAndPhoto() throws -> (notes: URL, photo: URL) {
        let notes = try home.file("notes.txt", Data("Meet at six by the river.\n".utf8))
        let photo = try home.file("photo.png", Samples.photo)
        return (notes, photo)
    }

    /// Starts `share` with `arguments` on this desk (standard input is /dev/null, so only the
    /// display makes it a window).
    func startShare(_ arguments: [String], extra: [String: String] = [:]) throws -> RunningWindow {
        let started = try Share.start(arguments, home: home, extra: session.environment.merging(extra) { _, given in given })
        return RunningWindow(started: started, driver: AccessibilityDriver(session: session, pid: started.pid))
    }

    /// Starts our own application (sheet-window-app) with `arguments` on this desk.
    func startApp(_ arguments: [String], extra: [String: String] = [:]) throws -> RunningWindow {
        let started = try Share.start(
            arguments, home: home, extra: session.environment.merging(extra) { _, given in given },
            program: try Share.sibling("sheet-window-app"))
        return RunningWindow(started: started, driver: AccessibilityDriver(session: session, pid: started.pid))
    }

    /// Where a test saves a screenshot for the README: `SHARESHEET_SCREENSHOTS` when set.
    func saveScreenshot(_ name: String, of window: RunningWindow) async throws {
        guard let folder = ProcessInfo.processInfo.environment["SHARESHEET_SCREENSHOTS"] else { return }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try await window.driver.screenshot(to: URL(fileURLWithPath: folder).appendingPathComponent(name))
    }
}

/// A window program started by a test: its PID, its output files and the driver for it.
struct RunningWindow {
    let started: Share.Started
    let driver: AccessibilityDriver

    var pid: pid_t { started.pid }

    /// True when the control named `name` is shown but cannot be used now.
    func isDisabled(_ name: String, role: String = "push button") async throws -> Bool {
        try await driver.wait(name: name, role: role)
        let nodes = try JSONSerialization.jsonObject(with: Data(try await driver.dump().utf8)) as? [[String: Any]] ?? []
        let node = try #require(
            nodes.first { $0["name"] as? String == name && $0["role"] as? String == role }, "no \(role) named \(name)")
        let states = node["states"] as? [String] ?? []
        return !states.contains("sensitive") && !states.contains("enabled")
    }

    /// Waits for the program to end (killing it after `timeout`, which fails the test).
    func finish(timeout: Double = 60) async throws -> Share.Run {
        try await Share.finish(started, timeout: timeout)
    }
}

/// Sample content.
enum Samples {
    /// The repository's sample photo (Examples/Samples/sunset.png), so screenshots show a real
    /// thumbnail; a 4×3 PNG when the repository is not next to the tests.
    static let photo: Data = {
        (try? Data(contentsOf: Sample.url("sunset.png")))
            ?? Data(
                base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAAA3NCSVQICAjb4U/gAAAAFElEQVQImWM0TjvDAANMDEgAhQMAM5wBa9Gt9g8AAAAASUVORK5CYII="
            )!
    }()
}

/// Runs a program to its end and returns what it wrote on standard output, then standard error.
func output(of program: String, _ arguments: [String], environment: [String: String]) throws -> String {
    let ended = try Command.run(program, arguments, environment: environment)
    return ended.standardOutput + ended.standardError
}
