import Foundation
import LocalTestSupport
import Testing

/// A terminal of the test's own: a tmux server on its own socket running one shell command in
/// a window of a given size. Keys go in the way a person types them (`send-keys`), the screen is
/// read back with `capture-pane`. `stop()` ends only this server.
final class TmuxTerminal {
    let socket = "share-tests-\(UUID().uuidString.prefix(8))"

    /// Runs tmux on this terminal's server and returns what it printed.
    @discardableResult
    func tmux(_ arguments: [String]) throws -> String { try Self.run(["-L", socket] + arguments) }

    /// Runs tmux and returns what it printed, by PID and through a file (`Command.run`): the
    /// server that `new-session` starts keeps the client's descriptors.
    @discardableResult
    static func run(_ arguments: [String]) throws -> String {
        try Command.run("/usr/bin/tmux", arguments).standardOutput
    }

    /// Starts `command` (shell words) in a `width`×`height` window. bash, because Ctrl-C on a
    /// line reaches the whole foreground group: bash outlives it when `share` handles it (as an
    /// interactive shell would), where dash would end with it.
    func start(_ command: String, width: Int = 120, height: Int = 50) throws {
        try tmux(["new-session", "-d", "-s", "t", "-x", String(width), "-y", String(height), "/bin/bash", "-c", command])
    }

    /// Ends the server and removes its socket.
    func stop() {
        _ = try? tmux(["kill-server"])
        unlink("/tmp/tmux-\(getuid())/\(socket)")
    }

    /// The screen and its scrollback.
    func screen() throws -> String { try tmux(["capture-pane", "-p", "-t", "t", "-S", "-100"]) }

    /// Types `text` literally, then Enter.
    func type(_ text: String) throws {
        if !text.isEmpty { try tmux(["send-keys", "-t", "t", "-l", text]) }
        try tmux(["send-keys", "-t", "t", "Enter"])
    }

    /// Presses keys by tmux's names (`Down`, `Enter`, `C-c`, `Escape`).
    func press(_ keys: String...) throws {
        try tmux(["send-keys", "-t", "t"] + keys)
    }

    /// Sends bytes as they are (`-l`), for escape sequences typed by hand.
    func send(literally text: String) throws {
        try tmux(["send-keys", "-t", "t", "-l", text])
    }

    /// Waits until the screen shows `text`; records the screen when it never does.
    func waitFor(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> Bool {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if try screen().contains(text) { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("the screen never showed \(text.debugDescription):\n\(try screen())", sourceLocation: sourceLocation)
        return false
    }

    /// The shell command that runs `share ARGUMENTS` in `folder` with exactly `environment`, then
    /// prints EXIT=status and whether the terminal's settings are what they were before.
    static func shareCommand(_ arguments: String, in folder: URL, environment: [String: String]) throws -> String {
        let binary = try #require(Share.url)
        let assignments = environment.sorted { $0.key < $1.key }.map { ShareBinary.shellQuoted("\($0.key)=\($0.value)") }
        return "cd \(ShareBinary.shellQuoted(folder.path)) && before=$(stty -g) && env -i \(assignments.joined(separator: " ")) "
            + "\(ShareBinary.shellQuoted(binary.path)) \(arguments); echo \"EXIT=$?\"; "
            + "if [ \"$(stty -g)\" = \"$before\" ]; then echo TTY=restored; else echo TTY=changed; fi; sleep 60"
    }
}
