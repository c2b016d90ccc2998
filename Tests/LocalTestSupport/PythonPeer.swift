import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A Python program run as a test peer on 127.0.0.1 (mastodon-mock, a dropping proxy): it prints its port on its first line,
/// exits when our end of its standard input closes, and is stopped by its process id.
public final class PythonPeer: @unchecked Sendable {
    public let port: Int
    /// The first line the peer printed (its port, or another address).
    public let firstLine: String
    public let folder: URL
    private let process: Command.Running

    /// `Tests/Fixtures/social/` in this repository.
    public static let fixtures = Fixture.folder.appendingPathComponent("social")

    /// Starts `Tests/Fixtures/social/NAME.py` after `prelude.py` there (SIGTERM unblocked, an
    /// exit when standard input closes) with `arguments`; the script prints its port first.
    public init(fixture: String, arguments: [String] = [], environment: [String: String] = [:], printsPort: Bool = true) throws {
        let prelude = try String(contentsOf: Self.fixtures.appendingPathComponent("prelude.py"), encoding: .utf8)
        let script = try String(contentsOf: Self.fixtures.appendingPathComponent(fixture + ".py"), encoding: .utf8)
        folder = try TemporaryFolder.make("social-peer")
        process = try Command.start(
            "/usr/bin/env", ["python3", "-c", prelude + "\n" + script] + arguments,
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 }, in: folder, input: .pipe,
            output: folder.appendingPathComponent("stdout.log"), error: folder.appendingPathComponent("stderr.log"))
        // The first line is its port (or address); it may take a while (gnome-keyring).
        let deadline = Date().addingTimeInterval(60)
        var text = ""
        while Date() < deadline {
            text = process.standardOutput
            if text.contains("\n") || !process.isRunning { break }
            usleep(10_000)
        }
        let first = String(text.prefix { $0 != "\n" }).trimmingCharacters(in: .whitespaces)
        let port = Int(first) ?? 0
        guard printsPort ? port > 0 : !first.isEmpty else {
            let log = process.standardError
            process.kill(SIGTERM)
            process.remove()
            process.waitUntilExit()
            throw PeerError("the peer did not start: \(text.debugDescription) \(log.suffix(2000))")
        }
        self.port = port
        firstLine = first
    }

    deinit { stop() }

    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// The peer's standard error so far, for failure messages.
    public var errorLog: String {
        (try? String(contentsOf: folder.appendingPathComponent("stderr.log"), encoding: .utf8)) ?? ""
    }

    /// Stops the peer: SIGTERM to its pid, its standard input closed, SIGKILL after a grace period.
    public func stop() {
        process.kill(SIGTERM)
        process.remove()
        if !process.wait(timeout: 5) { process.kill(SIGKILL) }
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: folder)
    }
}

/// Plain blocking HTTP for the tests' own checks (reading posts back), through URLSession.
public enum TestHTTP {
    public struct Answer {
        public var status: Int
        public var body: Data
        public var json: Any? { try? JSONSerialization.jsonObject(with: body) }
    }

    public static func request(
        _ method: String, _ url: URL, headers: [String: String] = [:], body: Data? = nil
    ) async throws -> Answer {
        var request = URLRequest(url: url)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body
        let (data, response) = try await URLSession.shared.data(for: request)
        return Answer(status: (response as? HTTPURLResponse)?.statusCode ?? 0, body: data)
    }
}
