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
    private let process: Process
    private let input: Pipe

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
        let script = folder.appendingPathComponent("peer.py")
        try Self.script.write(to: script, atomically: true, encoding: .utf8)
        var arguments = [script.path, folder.path]
        if let tls = options.tls { arguments += ["--tls", tls.certificate.path, tls.key.path] }
        if let login = options.login { arguments += ["--login", login.user, login.password] }
        if options.hangInData { arguments += ["--hang"] }
        if options.stallInData { arguments += ["--stall"] }
        process = Process()
        if let namespace {
            // ip netns exec replaces itself with python: the PID stays the server's.
            process.executableURL = URL(fileURLWithPath: "/usr/sbin/ip")
            process.arguments = ["netns", "exec", namespace, Self.python] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: Self.python)
            process.arguments = arguments
        }
        input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        _ = FileManager.default.createFile(atPath: folder.appendingPathComponent("stderr.log").path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: folder.appendingPathComponent("stderr.log"))
        try process.run()
        // The first line is the port it listens on.
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5)) else {
            try? input.fileHandleForWriting.close()
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let log = (try? String(contentsOf: folder.appendingPathComponent("stderr.log"), encoding: .utf8)) ?? ""
            throw PeerError("the SMTP peer did not start: \(text) \(log)")
        }
        self.port = port
    }

    /// Stops the server: closing stdin ends it; SIGKILL by PID after a grace period.
    public func stop() {
        try? input.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
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

    private static let script = #"""
    import asyncio, json, os, signal, ssl, sys
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
    from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword

    folder = sys.argv[1]
    args = sys.argv[2:]
    tls = login = None
    hang = stall = False
    while args:
        if args[0] == '--tls':
            tls = (args[1], args[2]); args = args[3:]
        elif args[0] == '--login':
            login = (args[1].encode(), args[2].encode()); args = args[3:]
        elif args[0] == '--hang':
            hang = True; args = args[1:]
        elif args[0] == '--stall':
            stall = True; args = args[1:]
        else:
            sys.exit('unknown argument ' + args[0])

    count = 0
    class Handler:
        async def handle_DATA(self, server, session, envelope):
            global count
            if hang:
                open(os.path.join(folder, 'data-started'), 'w').close()
                await asyncio.sleep(3600)
            count += 1
            path = os.path.join(folder, str(count))
            with open(path + '.json.tmp', 'w') as f:
                json.dump({'from': envelope.mail_from, 'to': envelope.rcpt_tos}, f)
            with open(path + '.eml.tmp', 'wb') as f:
                f.write(envelope.original_content)
            os.rename(path + '.json.tmp', path + '.json')
            os.rename(path + '.eml.tmp', path + '.eml')
            return '250 Message accepted'

    def authenticator(server, session, envelope, mechanism, auth_data):
        ok = isinstance(auth_data, LoginPassword) and (auth_data.login, auth_data.password) == login
        return AuthResult(success=ok, handled=False)

    class StallingSMTP(SMTP):
        async def smtp_DATA(self, arg):
            await self.push('354 End data with <CR><LF>.<CR><LF>')
            self.transport.pause_reading()
            open(os.path.join(folder, 'data-started'), 'w').close()
            await asyncio.sleep(3600)

    def factory():
        # A 50 MB attachment is about 68 MB as base64: well above aiosmtpd's 32 MiB default.
        kwargs = dict(hostname='localhost', decode_data=False, data_size_limit=256 * 1024 * 1024)
        if tls:
            context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            context.load_cert_chain(tls[0], tls[1])
            kwargs.update(tls_context=context, require_starttls=True)
        if login:
            kwargs.update(authenticator=authenticator, auth_required=True, auth_require_tls=bool(tls))
        return (StallingSMTP if stall else SMTP)(Handler(), **kwargs)

    async def main():
        loop = asyncio.get_running_loop()
        server = await loop.create_server(factory, '127.0.0.1', 0)
        print('PORT', server.sockets[0].getsockname()[1], flush=True)
        done = loop.create_future()
        def readable():
            if not os.read(0, 4096) and not done.done():
                done.set_result(None)
        loop.add_reader(0, readable)
        await done
        server.close()
    asyncio.run(main())
    """#
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

    private static let script = #"""
    import hashlib, json, sys
    from email import policy
    from email.parser import BytesParser
    from email.utils import getaddresses
    with open(sys.argv[1], 'rb') as f:
        message = BytesParser(policy=policy.default).parse(f)
    def names(field):
        return [f'{n} <{a}>' if n else a for n, a in getaddresses([str(v) for v in message.get_all(field, [])])]
    parts = []
    defects = [type(d).__name__ for d in message.defects]
    for part in message.walk():
        defects += [type(d).__name__ for d in part.defects]
        if part.is_multipart():
            continue
        payload = part.get_payload(decode=True) or b''
        text = None
        if part.get_content_maintype() == 'text':
            text = part.get_content()
        parts.append({'contentType': part.get_content_type(), 'filename': part.get_filename(),
                      'disposition': part.get_content_disposition(),
                      'sha256': hashlib.sha256(payload).hexdigest(), 'size': len(payload), 'text': text})
    headers = {}
    for key, value in message.items():
        headers.setdefault(key.lower(), []).append(str(value))
    print(json.dumps({'headers': headers, 'subject': str(message['subject'] or ''), 'from': names('from'),
                      'to': names('to'), 'cc': names('cc'), 'defects': defects,
                      'contentType': message.get_content_type(), 'parts': parts}))
    """#

    /// Parses `message` with Python's `email` package.
    /// - Throws: ``PeerError`` when Python cannot read it.
    public static func parse(_ message: URL) throws -> Parsed {
        let script = message.deletingLastPathComponent().appendingPathComponent("parse-\(UUID().uuidString.prefix(6)).py")
        try Self.script.write(to: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: script) }
        let output = try Command.run(SMTPPeer.python, [script.path, message.path])
        guard output.status == 0 else { throw PeerError("python email parse failed: \(output.standardError)") }
        return try JSONDecoder().decode(Parsed.self, from: Data(output.standardOutput.utf8))
    }
}
