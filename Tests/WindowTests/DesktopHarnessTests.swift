// The harness the window tests stand on, checked against a tiny GTK 4 window of our own
// (Tests/Fixtures/probe-window.py): a private desktop comes up and goes away completely, and
// the driver finds, clicks, fills, reads, types, presses keys and takes screenshots.
import Foundation
import LocalTestSupport
import Testing

@Suite("DesktopHarness", .serialized)
struct DesktopHarnessTests {
    @Test("the driver finds the Copy button, and clicking it reaches the app")
    func clickReachesTheApp() async throws {
        try await withProbe { _, driver, probe in
            try await step("wait for Copy") { try await driver.wait(name: "Copy", role: "push button") }
            try await step("click Copy") { try await driver.click(name: "Copy", role: "push button") }
            #expect(await probe.waitForLine("clicked Copy"), "the probe printed: \(probe.output)")
        }
    }

    @Test("fill sets the Subject entry's text in the app, and read returns it")
    func fillReachesTheApp() async throws {
        try await withProbe { _, driver, probe in
            try await step("fill Subject") { try await driver.fill(name: "Subject", text: "Hello from AT-SPI") }
            #expect(await probe.waitForLine("Subject: Hello from AT-SPI"), "the probe printed: \(probe.output)")
            #expect(try await driver.read(name: "Subject", role: "text") == "Hello from AT-SPI")
        }
    }

    @Test("Tab moves the focus to the entry and typed text (with characters the keymap lacks) arrives")
    func typedTextArrives() async throws {
        try await withProbe { _, driver, probe in
            try await step("wait for the window") { try await driver.waitForWindow() }
            try await step("key Tab") { try await driver.key("Tab") }
            try await step("type") { try await driver.type("typed é€") }
            #expect(await probe.waitForLine("Subject: typed é€"), "the probe printed: \(probe.output)")
            try await step("select all, delete") { try await driver.key("Control_L+a", "BackSpace") }
            #expect(try await driver.read(name: "Subject") == "")
        }
    }

    @Test("Escape, pressed through XTest, closes the window and the process exits with 0")
    func escapeEndsTheProcess() async throws {
        try await withProbe { _, driver, probe in
            try await step("wait for the window") { try await driver.waitForWindow() }
            try await step("key Escape") { try await driver.key("Escape") }
            let ended = await Spawn.wait(probe.pid, until: Date().addingTimeInterval(10))
            probe.reaped = ended != nil
            #expect(ended?.status == 0 && ended?.signal == 0, "ended: \(String(describing: ended)); \(probe.errors)")
            try await step("wait until Copy is gone") { try await driver.waitGone(name: "Copy") }
        }
    }

    @Test("screenshot writes a PNG of the window, and of the whole screen")
    func screenshotWritesPNG() async throws {
        try await withProbe { session, driver, _ in
            let window = session.folder.appendingPathComponent("window.png")
            let screen = session.folder.appendingPathComponent("screen.png")
            try await step("wait for the window") { try await driver.waitForWindow() }
            try await step("screenshot of the window") { try await driver.screenshot(to: window) }
            try await step("screenshot of the screen") { try await driver.screenshot(to: screen, wholeScreen: true) }
            let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            let windowBytes = try [UInt8](Data(contentsOf: window))
            let screenBytes = try [UInt8](Data(contentsOf: screen))
            #expect(Array(windowBytes.prefix(8)) == signature)
            #expect(Array(screenBytes.prefix(8)) == signature)
            // IHDR's width and height follow the signature and the chunk's length and type.
            let size = { (bytes: [UInt8]) in
                (bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }, bytes[20..<24].reduce(0) { $0 << 8 | Int($1) })
            }
            #expect(size(screenBytes) == (1280, 800))
            let (width, height) = size(windowBytes)
            #expect(width > 0 && width < 1280 && height > 0 && height < 800, "window image \(width)x\(height)")
            let left = try FileManager.default.contentsOfDirectory(atPath: session.folder.path).filter { $0.contains(".tmp-") }
            #expect(left.isEmpty, "temporary files left: \(left)")
        }
    }

    @Test("a node that is not there fails with the app's tree in the error")
    func missingNodeShowsTheTree() async throws {
        try await withProbe { _, driver, _ in
            var impatient = driver
            impatient.timeout = 1
            let error = await #expect(throws: AccessibilityDriver.Failure.self) {
                try await impatient.click(name: "Paste", role: "push button")
            }
            #expect(error?.standardError.contains("push button 'Paste' was not found") == true, "\(String(describing: error))")
            #expect(error?.standardError.contains("push button 'Copy'") == true, "\(String(describing: error))")
        }
    }

    @Test("after stop() nothing the session started is alive, and Xvfb removed its socket")
    func stopLeavesNothing() async throws {
        let home = try TemporaryHome(prefix: "desktop-harness")
        defer { home.remove() }
        let session = try step("start the session") { try DesktopSession.start(in: home.root) }
        defer { session.stop() }
        let started = session.processIDs
        let names = started.map { pid in
            ((try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? "?")
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        // Xvfb, the session bus, the launcher, the accessibility bus, the registry, the watchdog.
        #expect(
            Set(names) == ["Xvfb", "dbus-daemon", "at-spi-bus-laun", "at-spi2-registr", "sh"] && started.count == 6,
            "the session's processes: \(zip(started, names).map { "\($0) \($1)" })")
        // With -displayfd Xvfb writes no lock file; its socket is the trace it leaves when killed.
        let socket = "/tmp/.X11-unix/X\(session.display.dropFirst())"
        #expect(FileManager.default.fileExists(atPath: socket))
        step("stop the session") { session.stop() }
        let alive = started.filter(DesktopSession.isRunning)
        #expect(alive.isEmpty, "still running: \(alive)")
        #expect(session.processIDs.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: socket), "\(socket) is left")
    }

    @Test("a peer that fails to start is named with the end of its log, and the peers before it are stopped")
    func failingPeerSaysWhy() throws {
        let home = try TemporaryHome(prefix: "desktop-harness")
        defer { home.remove() }
        // A directory where the session bus wants its socket: dbus-daemon cannot bind and exits.
        try FileManager.default.createDirectory(
            at: home.root.appendingPathComponent("session-bus"), withIntermediateDirectories: true)
        let serversBefore = childServers()
        let error = #expect(throws: DesktopSession.StartFailure.self) { try DesktopSession.start(in: home.root) }
        #expect(error?.peer == "dbus-daemon")
        let description = error?.description ?? ""
        #expect(description.contains("dbus-daemon did not start: it exited (status 1"), "\(description)")
        #expect(description.contains("Failed to bind socket"), "\(description)")
        #expect(childServers() == serversBefore, "an Xvfb of this process is left")
    }
}

/// This process's Xvfb children that are running.
private func childServers() -> Set<pid_t> {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return Set(
        entries.compactMap(pid_t.init).filter { pid in
            guard DesktopSession.isRunning(pid),
                let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return stat.contains("(Xvfb)") && fields.count > 1 && pid_t(fields[1]) == getpid()
        })
}

// MARK: - The probe window and the session around it

/// The probe window, started with the session's environment; what it prints goes to files.
private final class Probe: @unchecked Sendable {
    let pid: pid_t
    let outputFile: URL
    let errorFile: URL
    /// Set once a test has waited for the probe's exit itself.
    var reaped = false

    static let script = Fixture.url("probe-window.py")

    init(session: DesktopSession) throws {
        outputFile = session.folder.appendingPathComponent("probe.out")
        errorFile = session.folder.appendingPathComponent("probe.err")
        let output = open(outputFile.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        let error = open(errorFile.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { [output, error, null].forEach { close($0) } }
        pid = try Spawn.start(
            "/usr/bin/python3", [Self.script.path], environment: session.environment, input: null, output: output,
            error: error)
    }

    var output: String { (try? String(contentsOf: outputFile, encoding: .utf8)) ?? "" }
    var errors: String { (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "" }

    /// Waits up to 10 s for the probe to print `line`.
    func waitForLine(_ line: String) async -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if output.split(separator: "\n").contains(Substring(line)) { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    /// Ends the probe (SIGTERM, then SIGKILL after 5 s) unless a test already reaped it.
    func stop() {
        guard !reaped else { return }
        reaped = true
        kill(pid, SIGTERM)
        let deadline = Date().addingTimeInterval(5)
        var status: Int32 = 0
        while Date() < deadline {
            if waitpid(pid, &status, WNOHANG) == pid { return }
            usleep(10_000)
        }
        kill(pid, SIGKILL)
        _ = Spawn.waitBlocking(pid)
    }
}

/// Starts a session in a temporary folder and the probe on it, runs `body`, then stops the
/// probe, the session and removes the folder, whatever `body` did.
private func withProbe(_ body: (DesktopSession, AccessibilityDriver, Probe) async throws -> Void) async throws {
    let home = try TemporaryHome(prefix: "desktop-harness")
    defer { home.remove() }
    let session = try step("start the session") { try DesktopSession.start(in: home.root) }
    defer { session.stop() }
    let probe = try Probe(session: session)
    defer { probe.stop() }
    try await body(session, AccessibilityDriver(session: session, pid: probe.pid), probe)
}

/// Runs one step and prints how long it took (for reading, not for asserting).
private func step<T>(_ name: String, _ body: () throws -> T) rethrows -> T {
    let start = ContinuousClock.now
    defer { print("DesktopHarness: \(name): \(ContinuousClock.now - start)") }
    return try body()
}

/// Runs one asynchronous step and prints how long it took.
private func step<T>(_ name: String, _ body: () async throws -> T) async rethrows -> T {
    let start = ContinuousClock.now
    defer { print("DesktopHarness: \(name): \(ContinuousClock.now - start)") }
    return try await body()
}
