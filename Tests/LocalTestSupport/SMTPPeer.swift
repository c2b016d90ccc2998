// The SMTP server the Mail tests and the window tests send to, and Python's email parser reading
// what it received.
import Foundation
import Testing

/// A real SMTP server (aiosmtpd, Debian's python3-aiosmtpd) on a free loopback port, started by
/// the test and stopped by its PID. Every message it accepts is saved as `N.eml` with its
/// envelope in `N.json`. Used by the Mail tests and the window tests.
public final class SMTPPeer: Sendable {
    /// What the server demands.
    public struct Options: Sendable {
        /// Offer STARTTLS with this certificate and key, and refuse mail before it.
        public var tls: (certificate: URL, key: URL)?
        /// Require AUTH with this user and password (after STARTTLS when `tls` is set).
        public var login: (user: String, password: String)?
        /// Accept DATA but never answer it (to kill a sender mid-send).
        public var hangInData: Bool
        /// Answer DATA with 354, then stop reading: the sender is stuck mid-upload.
        public var stallInData: Bool

        /// Options for a server; by default plain SMTP without login that answers everything.
        public init(
            tls: (certificate: URL, key: URL)? = nil, login: (user: String, password: String)? = nil,
            hangInData: Bool = false, stallInData: Bool = false
        ) {
            self.tls = tls
            self.login = login
            self.hangInData = hangInData
            self.stallInData = stallInData
        }
    }

    /// The sender and recipients a message was delivered with (MAIL FROM and RCPT TO).
    public struct Envelope: Decodable, Sendable {
        public var from: String
        public var recipients: [String]

        private enum CodingKeys: String, CodingKey {
            case from
            case recipients = "to"
        }
    }

    /// The interpreter that has aiosmtpd (Debian's package installs it for /usr/bin/python3).
    public static let python = "/usr/bin/python3"

    /// The port it listens on, on 127.0.0.1 (of `namespace` when it was started in one).
    public let port: Int
    /// Its own folder, inside the folder it was started in: the received messages and its log.
    public let folder: URL
    private let process: Command.Running

    /// Starts a server in a new folder inside `parent` and returns once it listens.
    /// - Parameters:
    ///   - options: what the server demands.
    ///   - parent: an existing folder of the test's own.
    ///   - namespace: a network namespace (``NetworkPair/ours``) to listen in, on its loopback;
    ///     nil for the test machine's own.
    /// - Throws: ``PeerError`` with its log when it does not start.
    public init(options: Options = Options(), in parent: URL, namespace: String? = nil) throws {
        folder = parent.appendingPathComponent("smtp-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var arguments = [Fixture.path("smtp-peer.py"), folder.path]
        if let tls = options.tls { arguments += ["--tls", tls.certificate.path, tls.key.path] }
        if let login = options.login { arguments += ["--login", login.user, login.password] }
        if options.hangInData { arguments += ["--hang"] }
        if options.stallInData { arguments += ["--stall"] }
        // ip netns exec replaces itself with python: the PID stays the server's.
        let command = namespace.map { ["/usr/sbin/ip", "netns", "exec", $0, Self.python] } ?? [Self.python]
        process = try Command.start(
            command[0], command.dropFirst() + arguments, input: .pipe, output: folder.appendingPathComponent("stdout.log"),
            error: folder.appendingPathComponent("stderr.log"))
        // The first line is the port it listens on.
        let deadline = Date().addingTimeInterval(30)
        var text = ""
        while Date() < deadline {
            text = process.standardOutput
            if text.contains("\n") || !process.isRunning { break }
            usleep(10_000)
        }
        text = String(text.prefix { $0 != "\n" })
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5)) else {
            process.kill(SIGKILL)
            process.waitUntilExit()
            process.remove()
            throw PeerError("the SMTP peer did not start: \(text) \(process.standardError)")
        }
        self.port = port
    }

    /// Stops the server: closing stdin ends it; SIGKILL by PID after a grace period.
    public func stop() {
        process.remove()
        if !process.wait(timeout: 5) { process.kill(SIGKILL) }
        process.waitUntilExit()
    }

    deinit { if process.isRunning { stop() } }

    /// The messages received so far, in order: each one's `.eml` file, the bytes after DATA.
    public var received: [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".eml") }.sorted { Int($0.dropLast(4))! < Int($1.dropLast(4))! }
            .map { folder.appendingPathComponent($0) }
    }

    /// The envelope of a received message (one of ``received``).
    public func envelope(of message: URL) throws -> Envelope {
        let data = try Data(contentsOf: message.deletingPathExtension().appendingPathExtension("json"))
        return try JSONDecoder().decode(Envelope.self, from: data)
    }

    /// True once the server has started receiving a DATA section (hang and stall modes).
    public var dataStarted: Bool { FileManager.default.fileExists(atPath: folder.appendingPathComponent("data-started").path) }
}

/// Python's `email` package, an independent parser, reading a received message (an ``SMTPPeer``'s
/// `.eml` or a file in the outbox). Used by the Mail tests and the window tests.
public enum PythonEmail {
    /// What Python's parser makes of a message.
    public struct Parsed: Decodable, Sendable {
        /// A leaf part: its type, name, disposition and decoded content.
        public struct Part: Decodable, Sendable {
            public var contentType: String
            public var filename: String?
            public var disposition: String?
            /// SHA-256 of the decoded payload, in hex.
            public var sha256: String
            public var size: Int
            /// The decoded text of a `text/*` part.
            public var text: String?
        }
        /// Every header by its lower-cased name, in order.
        public var headers: [String: [String]]
        public var subject: String
        public var from: [String]
        public var to: [String]
        public var cc: [String]
        /// The names of the defects the parser found; empty for a well-formed message.
        public var defects: [String]
        public var contentType: String
        public var parts: [Part]
    }

    /// Parses `message` with Python's `email` package.
    /// - Throws: ``PeerError`` when Python cannot read it.
    public static func parse(_ message: URL) throws -> Parsed {
        let output = try Command.run(SMTPPeer.python, [Fixture.path("parse-email.py"), message.path])
        guard output.status == 0 else { throw PeerError("python email parse failed: \(output.standardError)") }
        return try JSONDecoder().decode(Parsed.self, from: Data(output.standardOutput.utf8))
    }
}
