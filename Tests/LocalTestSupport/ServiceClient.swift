// Calls the share service the way an application would, through Tests/Fixtures/service-client.py
// (Python's Gio, which passes file descriptors), on a ServiceBus.
import Foundation

/// Runs `Tests/Fixtures/service-client.py` with `/usr/bin/python3` (python3-gi) on a
/// ``ServiceBus``, in the bus's environment, and decodes what it printed: one JSON object a line.
///
/// Its commands: `list`, `suggestions`, `share`, `close HANDLE`, `ping`, `pid [NAME]`, `call METHOD [ARGS]`,
/// `bench-list N` and `concurrent N`; items are `--text`, `--uri`, `--file PATH[:MIME]`,
/// `--write-only PATH`, `--pipe-held-open`, `--slow-pipe SIZE:RATE[:NAME[:MIME]]` and
/// `--item GVARIANT`. The script's header documents every option and what each command prints.
public struct ServiceClient: Sendable {
    /// The bus the client calls on.
    public let bus: ServiceBus
    /// Seconds a run may take before it is killed by its PID.
    public var timeout: Double

    /// `Tests/Fixtures/service-client.py` in this repository.
    public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/service-client.py")
    /// The interpreter that has gi (Debian's python3-gi installs it for /usr/bin/python3).
    public static let python = "/usr/bin/python3"

    /// A client for `bus` whose runs may take `timeout` seconds each.
    public init(bus: ServiceBus, timeout: Double = 60) {
        self.bus = bus
        self.timeout = timeout
    }

    /// How one run ended and what it printed.
    public struct Output: CustomStringConvertible {
        /// The command and options given to the script.
        public var arguments: [String]
        /// The exit status: 0 with a result, 3 for a D-Bus error, 4 when no Response came in time.
        public var status: Int32
        /// The signal that ended it, or 0.
        public var signal: Int32
        public var standardOutput: String
        public var standardError: String
        /// Each line of standard output, decoded.
        public var objects: [[String: Any]]

        /// The D-Bus error's name, when the call failed with one.
        public var errorName: String? { objects.last?["error"] as? String }
        /// The D-Bus error's message, when the call failed with one.
        public var errorMessage: String? { objects.last?["message"] as? String }

        public var description: String {
            "service-client \(arguments.joined(separator: " ")): exit \(status)\(signal == 0 ? "" : ", signal \(signal)")\n"
                + "--- stdout\n\(standardOutput)--- stderr\n\(standardError)"
        }
    }

    /// A run that did not give what was asked: what it printed and the end of the bus's log
    /// (the service's standard error).
    public struct Failure: Error, CustomStringConvertible {
        public var description: String

        /// A failure for `output`, with the end of `bus`'s log.
        public init(_ output: Output, bus: ServiceBus, problem: String? = nil) {
            description = (problem.map { $0 + "\n" } ?? "") + output.description
                + "--- the bus's log (the service's standard error) ends:\n\(bus.logTail(lines: 25))"
        }

        /// A failure that reads `description`, with the end of `bus`'s log.
        public init(_ description: String, bus: ServiceBus) {
            self.description = description + "\n--- the bus's log ends:\n\(bus.logTail(lines: 25))"
        }
    }

    /// A run in the background: its PID and where its output goes.
    public struct Started: Sendable {
        public var pid: pid_t
        public var arguments: [String]
        var output: URL
        var error: URL
    }

    /// Starts the script with `arguments`; wait for it with ``finish(_:)``.
    public func start(_ arguments: [String]) throws -> Started {
        let base = bus.folder.appendingPathComponent(".client-\(UUID().uuidString)")
        let output = base.appendingPathExtension("out")
        let error = base.appendingPathExtension("err")
        let outputDescriptor = open(output.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        let errorDescriptor = open(error.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { [outputDescriptor, errorDescriptor, null].forEach { close($0) } }
        let pid = try Spawn.start(
            Self.python, [Self.script.path] + arguments, environment: bus.environment, input: null,
            output: outputDescriptor, error: errorDescriptor)
        return Started(pid: pid, arguments: arguments, output: output, error: error)
    }

    /// Waits for a started run; after ``timeout`` seconds it is killed by its PID and this throws.
    /// - Throws: ``Failure`` when the run did not end in time.
    public func finish(_ started: Started) async throws -> Output {
        var ended = await Spawn.wait(started.pid, until: Date().addingTimeInterval(timeout))
        let late = ended == nil
        if late {
            kill(started.pid, SIGKILL)
            ended = Spawn.waitBlocking(started.pid)
        }
        defer {
            try? FileManager.default.removeItem(at: started.output)
            try? FileManager.default.removeItem(at: started.error)
        }
        let standardOutput = Self.text(of: started.output)
        let output = Output(
            arguments: started.arguments, status: ended!.status, signal: ended!.signal, standardOutput: standardOutput,
            standardError: Self.text(of: started.error), objects: Self.objects(in: standardOutput))
        if late { throw Failure(output, bus: bus, problem: "it did not end within \(timeout) s and was killed") }
        return output
    }

    /// What a started run printed so far (complete lines only), decoded.
    public func printed(_ started: Started) -> [[String: Any]] {
        let text = Self.text(of: started.output)
        return Self.objects(in: String(text[..<(text.lastIndex(of: "\n") ?? text.startIndex)]))
    }

    /// Waits until a started run has printed an object with `key`, and returns it.
    /// - Throws: ``Failure`` when the run ended or ``timeout`` passed first (then it is killed
    ///   and reaped).
    public func waitFor(_ key: String, in started: Started) async throws -> [String: Any] {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let found = printed(started).first(where: { $0[key] != nil }) { return found }
            if !DesktopSession.isRunning(started.pid) {
                let output = try await finish(started)
                throw Failure(output, bus: bus, problem: "it ended without printing \(key)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        kill(started.pid, SIGKILL)
        let output = try await finish(started)
        throw Failure(output, bus: bus, problem: "it printed no \(key) within \(timeout) s and was killed")
    }

    private static func text(of file: URL) -> String {
        String(decoding: (try? Data(contentsOf: file)) ?? Data(), as: UTF8.self)
    }

    private static func objects(in text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
    }

    /// Runs the script to its end, whatever its exit status.
    public func run(_ arguments: [String]) async throws -> Output {
        try await finish(start(arguments))
    }

    /// Runs the script and returns its one result.
    /// - Throws: ``Failure`` unless it exited with 0 having printed exactly one object.
    public func result(_ arguments: [String]) async throws -> [String: Any] {
        let output = try await run(arguments)
        guard output.status == 0, output.objects.count == 1 else {
            throw Failure(output, bus: bus, problem: "expected exit 0 and one result")
        }
        return output.objects[0]
    }

    /// `ListActivities` for the items given as the script's item options: the activities.
    public func listActivities(_ arguments: [String]) async throws -> [[String: Any]] {
        let result = try await result(["list"] + arguments)
        guard let activities = result["activities"] as? [[String: Any]] else {
            throw Failure("list printed no activities: \(result)", bus: bus)
        }
        return activities
    }

    /// `ListSuggestions` for the items given as the script's item options: the suggestions.
    public func listSuggestions(_ arguments: [String]) async throws -> [[String: Any]] {
        let result = try await result(["suggestions"] + arguments)
        guard let suggestions = result["suggestions"] as? [[String: Any]] else {
            throw Failure("suggestions printed no suggestions: \(result)", bus: bus)
        }
        return suggestions
    }

    /// `Share` with the script's item and share options, waiting for the Response: `handle`,
    /// `token`, `response` and `results`.
    /// - Throws: ``Failure`` for a D-Bus error or no Response in time.
    public func share(_ arguments: [String]) async throws -> [String: Any] {
        try await result(["share"] + arguments)
    }
}
