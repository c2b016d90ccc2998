import Foundation

/// A real HTTP server on 127.0.0.1 (Python's `http.server`), started by a test and stopped by
/// its process id. It serves one file for every GET and logs each request line to a file, so a
/// test can count what reached the network.
///
/// Paths under `/slow/` are held until `release()` is called (or 30 seconds pass), to catch a
/// download in flight; paths under `/missing/` answer 404; `/moved/P` redirects to `/P`.
public final class LoopbackHTTPServer: @unchecked Sendable {
    /// The server's address, `http://127.0.0.1:PORT`.
    public let baseURL: URL
    private let process: Process
    private let input = Pipe()
    private let folder: URL
    private let logURL: URL
    private let releaseURL: URL

    private static let script = #"""
        import http.server, os, signal, sys, threading, time
        log_path, release_path, body_path = sys.argv[1], sys.argv[2], sys.argv[3]

        # Children of the test runner inherit the signal mask of the thread that spawned them,
        # which blocks SIGTERM on libdispatch's threads: unblock it, or `stop()` could not end us.
        signal.pthread_sigmask(signal.SIG_SETMASK, [])

        # Exit when the test process closes our standard input (or dies), so no server outlives it.
        def exit_with_parent():
            sys.stdin.buffer.read()
            os._exit(0)
        threading.Thread(target=exit_with_parent, daemon=True).start()

        def log(line):
            with open(log_path, "a") as log_file:
                log_file.write(line + "\n")

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                log("GET " + self.path)
                if self.path.startswith("/missing/"):
                    self.send_error(404)
                    return
                if self.path.startswith("/moved/"):
                    self.send_response(302)
                    self.send_header("Location", self.path[len("/moved"):])
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                if self.path.startswith("/slow/"):
                    deadline = time.time() + 30
                    while not os.path.exists(release_path) and time.time() < deadline:
                        time.sleep(0.01)
                with open(body_path, "rb") as body_file:
                    body = body_file.read()
                try:
                    self.send_response(200)
                    self.send_header("Content-Type", "image/png")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                    log("SENT " + self.path)
                except OSError:
                    log("BROKEN " + self.path)

            def log_message(self, *arguments):
                pass

        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """#

    /// Starts a server that answers every GET with `body`.
    public init(serving body: Data) throws {
        folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("seed-http-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        logURL = folder.appendingPathComponent("requests.log")
        releaseURL = folder.appendingPathComponent("release")
        let bodyURL = folder.appendingPathComponent("body")
        try body.write(to: bodyURL)
        try Data().write(to: logURL)

        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", Self.script, logURL.path, releaseURL.path, bodyURL.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()

        // The first line the server prints is the port the kernel gave it.
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let port = Int(text), port > 0 else {
            process.terminate()
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
            throw ServerError(message: "the test HTTP server did not start (printed \(text.debugDescription))")
        }
        baseURL = URL(string: "http://127.0.0.1:\(port)")!
    }

    deinit { stop() }

    /// The server could not start.
    public struct ServerError: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// The address of `path` on this server.
    public func url(_ path: String) -> URL { baseURL.appendingPathComponent(path) }

    /// The log, one line per event: "GET /path" when a request arrived, "SENT /path" when its
    /// answer was written.
    public var log: [String] {
        let text = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    /// The paths of the requests that reached the server, in order.
    public var requests: [String] { log.filter { $0.hasPrefix("GET ") }.map { String($0.dropFirst(4)) } }

    /// The paths whose answer was written completely.
    public var answered: [String] { log.filter { $0.hasPrefix("SENT ") }.map { String($0.dropFirst(5)) } }

    /// Lets held `/slow/` requests be answered.
    public func release() {
        try? Data().write(to: releaseURL)
    }

    /// Stops the server (SIGTERM to its process id, and its standard input closed) and removes
    /// its files.
    public func stop() {
        if process.isRunning {
            process.terminate()
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: folder)
    }
}
