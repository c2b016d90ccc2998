import Foundation
import LocalTestSupport
import Testing

/// Small real files for the tests.
enum Fixtures {
    /// A 4×3 PNG made with gdk-pixbuf.
    static let png = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAAA3NCSVQICAjb4U/gAAAAFElEQVQImWM0TjvDAANMDEgAhQMAM5wBa9Gt9g8AAAAASUVORK5CYII=")!

    /// A 4×3 JPEG made with gdk-pixbuf.
    static let jpeg = Data(base64Encoded: "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAMCAgMCAgMDAwMEAwMEBQgFBQQEBQoHBwYIDAoMDAsKCwsNDhIQDQ4RDgsLEBYQERMUFRUVDA8XGBYUGBIUFRT/2wBDAQMEBAUEBQkFBQkUDQsNFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBT/wAARCAADAAQDASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwDy+iiiv6gPyQ//2Q==")!
}


/// A private X server (Xvfb) on a display number it picks itself, stopped by its PID.
final class VirtualDisplay {
    let pid: pid_t
    /// `:N`.
    let display: String

    /// Xvfb did not start: its exit and the last lines it wrote.
    struct StartFailure: Error, CustomStringConvertible {
        var description: String
    }

    init() throws {
        // -displayfd 1: Xvfb picks a free display number and prints it when it accepts clients.
        let pipe = try Self.pipe()
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        defer { close(null) }
        // What Xvfb says goes to a log, so a failure to start can say why.
        let logPath = NSTemporaryDirectory() + "xvfb-\(UUID().uuidString).log"
        let log = open(logPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        defer {
            close(log)
            unlink(logPath)
        }
        pid = try Spawn.start(
            "/usr/bin/Xvfb", ["-displayfd", "1", "-nolisten", "tcp", "-screen", "0", "640x480x24"],
            environment: ["PATH": "/usr/bin:/bin"], input: null, output: pipe.write, error: log >= 0 ? log : null)
        close(pipe.write)
        var text = ""
        var byte: UInt8 = 0
        while read(pipe.read, &byte, 1) == 1, byte != UInt8(ascii: "\n") { text.append(Character(UnicodeScalar(byte))) }
        close(pipe.read)
        guard !text.isEmpty, Int(text) != nil else {
            kill(pid, SIGKILL)
            let ended = Spawn.waitBlocking(pid)
            let said = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            let tail = said.split(separator: "\n").suffix(15).joined(separator: "\n")
            throw StartFailure(
                description: "Xvfb did not start (exit \(ended.status), signal \(ended.signal)); it said:\n"
                    + (tail.isEmpty ? "(nothing)" : tail))
        }
        display = ":" + text
    }

    private static func pipe() throws -> (read: Int32, write: Int32) {
        var descriptors: [Int32] = [0, 0]
        guard Glibc.pipe(&descriptors) == 0 else { throw POSIXError(.EMFILE) }
        for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        return (descriptors[0], descriptors[1])
    }

    /// The clipboard owners serving this display, by PID (from /proc).
    func ownerProcesses() -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(pid_t.init).filter { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            let words = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return words.first?.hasSuffix("sharesheet-clipboard-owner") == true && words.dropFirst() == ["--display", display]
        }
    }

    /// The xclip processes (the owners xclip forks) running on this display, by PID.
    func xclipProcesses() -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(pid_t.init).filter { pid in
            guard let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"),
                String(decoding: command.split(separator: 0).first ?? [], as: UTF8.self).hasSuffix("xclip"),
                let environment = FileManager.default.contents(atPath: "/proc/\(pid)/environ")
            else { return false }
            return environment.split(separator: 0).contains { Array($0) == Array("DISPLAY=\(display)".utf8) }
        }
    }

    /// Stops the owners, then the server (SIGTERM, so it removes its lock), each by its PID.
    func stop() {
        for pid in ownerProcesses() + xclipProcesses() { kill(pid, SIGKILL) }
        kill(pid, SIGTERM)
        _ = Spawn.waitBlocking(pid)
    }
}

/// Runs `xclip -o -selection clipboard -t TARGET` on `display` and returns what it printed.
func xclipOutput(_ target: String, display: String) throws -> (status: Int32, data: Data) {
    let ended = try Command.run(
        "/usr/bin/xclip", ["-o", "-selection", "clipboard", "-t", target], environment: ["DISPLAY": display, "PATH": "/usr/bin:/bin"])
    return (ended.status, ended.output)
}

extension TemporaryHome {
    /// A home for this test target's runs.
    init() throws { try self.init(prefix: "pasteboard") }
}
