import Foundation
import LocalTestSupport
import Testing

/// A private Wayland compositor: sway with its headless backend, stopped by its PID.
///
/// sway refuses to run as root, so under root it runs as `nobody` (through `setpriv`) with a
/// runtime folder that user owns; root's clients still reach its socket. The clipboard servers
/// `wl-copy` forks end when the compositor does.
final class HeadlessSway {
    let pid: pid_t
    /// The folder holding the runtime folder, the configuration and the log.
    let folder: URL
    /// `XDG_RUNTIME_DIR` for clients.
    let runtimeFolder: URL
    /// `WAYLAND_DISPLAY` for clients (`wayland-1`, say).
    let display: String

    /// sway did not start: its exit and the last lines it wrote.
    struct StartFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// What a client of this compositor needs in its environment.
    var environment: [String: String] {
        ["WAYLAND_DISPLAY": display, "XDG_RUNTIME_DIR": runtimeFolder.path, "PATH": "/usr/bin:/bin"]
    }

    init() throws {
        folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("sway-\(UUID().uuidString)")
        runtimeFolder = folder.appendingPathComponent("runtime")
        let manager = FileManager.default
        try manager.createDirectory(at: runtimeFolder, withIntermediateDirectories: true)
        chmod(folder.path, 0o755)
        chmod(runtimeFolder.path, 0o700)
        let configuration = folder.appendingPathComponent("config")
        try Data("# no bars, no outputs configured: the headless backend makes one\n".utf8).write(to: configuration)
        chmod(configuration.path, 0o644)

        var program = "/usr/bin/sway"
        var arguments = ["-c", configuration.path]
        if geteuid() == 0 {
            chown(runtimeFolder.path, 65534, 65534)
            arguments = ["--reuid=nobody", "--regid=nogroup", "--clear-groups", program] + arguments
            program = "/usr/bin/setpriv"
        }
        let logPath = folder.appendingPathComponent("sway.log").path
        let log = open(logPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        defer {
            close(log)
            close(null)
        }
        pid = try Spawn.start(
            program, arguments,
            environment: [
                "PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": runtimeFolder.path, "WLR_BACKENDS": "headless",
                "WLR_LIBINPUT_NO_DEVICES": "1", "WLR_RENDERER": "pixman", "HOME": folder.path,
            ],
            directory: folder.path, input: null, output: log, error: log)

        // The socket appears once sway accepts clients.
        let deadline = Date().addingTimeInterval(20)
        var found: String?
        while found == nil, Date() < deadline {
            found = (try? manager.contentsOfDirectory(atPath: runtimeFolder.path))?
                .first { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }
            if found == nil {
                var status: Int32 = 0
                if waitpid(pid, &status, WNOHANG) == pid {
                    throw Self.failure("exited (status \(status))", logPath: logPath, folder: folder)
                }
                usleep(20_000)
            }
        }
        guard let found else {
            kill(pid, SIGKILL)
            _ = Spawn.waitBlocking(pid)
            throw Self.failure("made no Wayland socket in 20 s", logPath: logPath, folder: folder)
        }
        display = found
    }

    private static func failure(_ what: String, logPath: String, folder: URL) -> StartFailure {
        let said = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        let tail = said.split(separator: "\n").suffix(15).joined(separator: "\n")
        try? FileManager.default.removeItem(at: folder)
        return StartFailure(description: "sway \(what); it said:\n" + (tail.isEmpty ? "(nothing)" : tail))
    }

    func stop() {
        kill(pid, SIGTERM)
        _ = Spawn.waitBlocking(pid)
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs wl-paste or wl-copy as a client of this compositor (by PID, through files: the
    /// server wl-copy forks keeps its descriptors).
    func run(_ program: String, _ arguments: [String], input: Data? = nil) throws -> (status: Int32, output: Data) {
        let ended = try Command.run(
            "/usr/bin/" + program, arguments, environment: environment, input: input.map { .data($0) } ?? .null)
        return (ended.status, ended.output)
    }
}
