// Drives one application's window through AT-SPI and XTest by running scripts/atspi-driver,
// a separate process, so no AT-SPI client call ever runs on the application's main thread.
import Foundation

/// Finds, clicks, fills and reads one application's widgets by accessible name, presses keys in
/// its window and takes screenshots of it, as assistive technology would.
///
/// Each call runs `scripts/atspi-driver` with `/usr/bin/python3` (python3-pyatspi) in the
/// session's environment and waits for its end. Calls that look for a node wait for it first,
/// up to ``timeout`` seconds. Roles are AT-SPI role names: "push button", "label", "text",
/// "radio button", "check box", "toggle button", "progress bar".
public struct AccessibilityDriver: Sendable {
    /// The desktop the application runs on.
    public let session: DesktopSession
    /// The application's process ID (AT-SPI's `get_process_id`).
    public let pid: pid_t
    /// Seconds each call may wait for what it looks for.
    public var timeout: Double

    /// A driver for the application `pid` that runs on `session`.
    public init(session: DesktopSession, pid: pid_t, timeout: Double = 20) {
        self.session = session
        self.pid = pid
        self.timeout = timeout
    }

    /// `scripts/atspi-driver` in this repository.
    public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/atspi-driver")

    /// A driver call that failed: the command, its exit and what the driver said (for a node
    /// that was not found, the application's whole tree).
    public struct Failure: Error, CustomStringConvertible {
        public var command: [String]
        public var status: Int32
        public var standardError: String
        public var description: String {
            let said = standardError.trimmingCharacters(in: .whitespacesAndNewlines)
            return "atspi-driver \(command.joined(separator: " ")) failed (exit \(status)): "
                + (said.isEmpty ? "(it said nothing)" : said)
        }
    }

    /// Waits until a visible node named `name` (with the role `role`) is there.
    public func wait(name: String, role: String? = nil) async throws {
        try await run(["wait", "--name", name] + roleArguments(role))
    }

    /// Waits until no visible node named `name` (with the role `role`) is there, or the app ended.
    public func waitGone(name: String, role: String? = nil) async throws {
        try await run(["wait", "--name", name, "--gone"] + roleArguments(role))
    }

    /// Waits until the application shows its first window.
    public func waitForWindow() async throws {
        try await run(["wait", "--window"])
    }

    /// Does the first action ("click") of the node named `name`, once it is visible and sensitive.
    public func click(name: String, role: String? = nil) async throws {
        try await run(["click", "--name", name] + roleArguments(role))
    }

    /// Sets the contents of the editable text named `name`, as an assistive technology does.
    public func fill(name: String, text: String, role: String? = nil) async throws {
        try await run(["fill", "--name", name, "--text", text] + roleArguments(role))
    }

    /// The text of the node named `name` (through its Text interface).
    public func read(name: String, role: String? = nil) async throws -> String {
        var text = try await run(["read", "--name", name] + roleArguments(role))
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    /// The application's tree as JSON: an array with one object a line, each with role, name,
    /// description, states, depth and (for nodes with the Text interface) text.
    public func dump() async throws -> String {
        try await run(["dump"])
    }

    /// The tree as ``dump()`` gives it, each node with `extents`, `[x, y, width, height]` in its
    /// window's coordinates (null for a node without a box).
    public func dumpWithExtents() async throws -> String {
        try await run(["dump", "--extents"])
    }

    /// What the desktop knows the application by: its accessible name, its window's WM_CLASS
    /// (instance and class) and the window's size.
    public struct WindowFacts: Sendable, Decodable {
        public var application: String
        public var wmClass: [String?]
        public var size: [Int]?

        enum CodingKeys: String, CodingKey {
            case application
            case wmClass = "wm_class"
            case size
        }
    }

    /// The application's accessible name, its window's class and size.
    public func window() async throws -> WindowFacts {
        try JSONDecoder().decode(WindowFacts.self, from: Data(try await run(["window"]).utf8))
    }

    /// Resizes the application's window (as a person dragging its edge would) and waits until
    /// the application has laid it out at that size.
    public func resize(width: Int, height: Int) async throws {
        try await run(["resize", String(width), String(height)])
    }

    /// Presses keys in the application's window through XTest, after giving it the focus.
    /// - Parameter names: X keysym names (`Escape`, `Tab`, `Return`, `space`, `Right`, `a`);
    ///   a chord joins them with `+` (`Control_L+a`).
    public func key(_ names: String...) async throws {
        try await run(["key"] + names)
    }

    /// Types `text` key by key into the focused widget of the application's window.
    public func type(_ text: String) async throws {
        try await run(["type", "--", text])
    }

    /// Writes a PNG of the application's window (or of the whole screen) to `file`, atomically.
    public func screenshot(to file: URL, wholeScreen: Bool = false) async throws {
        try await run(["screenshot"] + (wholeScreen ? ["--screen"] : []) + ["--", file.path])
    }

    private func roleArguments(_ role: String?) -> [String] {
        role.map { ["--role", $0] } ?? []
    }

    /// Runs the driver with `arguments` (the command first) and returns its standard output.
    @discardableResult
    private func run(_ arguments: [String]) async throws -> String {
        let command = [arguments[0], "--pid", String(pid), "--timeout", String(timeout)] + arguments.dropFirst()
        let id = UUID().uuidString
        let output = session.folder.appendingPathComponent(".atspi-driver-\(id).out")
        let error = session.folder.appendingPathComponent(".atspi-driver-\(id).err")
        defer {
            unlink(output.path)
            unlink(error.path)
        }
        let outputDescriptor = open(output.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        let errorDescriptor = open(error.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        let started: pid_t
        do {
            defer { [outputDescriptor, errorDescriptor, null].forEach { close($0) } }
            started = try Spawn.start(
                "/usr/bin/python3", [Self.script.path] + command, environment: session.environment, input: null,
                output: outputDescriptor, error: errorDescriptor)
        }
        // The driver gives up by itself a little after its timeout; this is the backstop.
        var ended = await Spawn.wait(started, until: Date().addingTimeInterval(timeout + 15))
        if ended == nil {
            kill(started, SIGKILL)
            ended = Spawn.waitBlocking(started)
        }
        let said = (try? String(contentsOf: error, encoding: .utf8)) ?? ""
        guard let ended, ended.status == 0 else {
            throw Failure(
                command: command, status: ended?.status ?? -1,
                standardError: ended?.signal == SIGKILL && said.isEmpty ? "killed: no end within \(timeout + 15) s" : said)
        }
        return String(decoding: (try? Data(contentsOf: output)) ?? Data(), as: UTF8.self)
    }
}
