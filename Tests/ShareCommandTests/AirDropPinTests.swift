import Foundation
import LocalTestSupport
import Testing

/// AirDrop on a terminal asks for the PIN only when the receiver asks for one: a LocalSend
/// receiver with a PIN (localsendd, in a network namespace of its own) answers 401, the command
/// asks without echo, and the share goes again with what was typed.
@Suite("AirDrop on a terminal: the PIN when the receiver asks", .serialized)
final class AirDropPinTests {
    let fixture: CommandFolder
    var folder: URL { fixture.url }

    init() throws {
        fixture = try CommandFolder([:])
    }

    /// A receiver that wants PIN 4321, and `share ARGUMENTS note.txt` in our namespace on a
    /// tmux terminal; `body` drives it. Everything is stopped afterwards.
    private func withSender(
        _ arguments: (NetworkPair, LocalSendPeer) -> String, _ body: (TmuxTerminal, LocalSendPeer) async throws -> Void
    ) async throws {
        let pair = try NetworkPair()
        defer { pair.remove() }
        let peer = try LocalSendPeer(namespace: pair.theirs, home: folder.appendingPathComponent("peer"), pin: "4321")
        defer { peer.stop() }
        try Data("see you at 6\n".utf8).write(to: folder.appendingPathComponent("note.txt"))

        let binary = try #require(Share.url)
        let environment = TemporaryHome.environment(home: folder.appendingPathComponent("us"))
            .merging(["TERM": "xterm-256color", "NO_COLOR": "1"]) { $1 }
        let assignments = environment.sorted { $0.key < $1.key }.map { ShareBinary.shellQuoted("\($0.key)=\($0.value)") }
        let command =
            "cd \(ShareBinary.shellQuoted(folder.path)) && /usr/sbin/ip netns exec \(pair.ours) /usr/bin/env -i "
            + assignments.joined(separator: " ")
            + " \(ShareBinary.shellQuoted(binary.path)) \(arguments(pair, peer)) note.txt; echo \"EXIT=$?\"; sleep 60"
        let terminal = TmuxTerminal()
        defer { terminal.stop() }
        try terminal.start(command)
        try await body(terminal, peer)
    }

    @Test func aWrongPinIsAskedAgainAndTheRightOneSends() async throws {
        try await withSender({ _, peer in "--activity airdrop --to \(peer.fingerprint)" }) { terminal, peer in
            #expect(try await terminal.waitFor("asks for a PIN"))
            #expect(try await terminal.waitFor("PIN (Enter to give up):"))
            try terminal.type("0000")
            #expect(try await terminal.waitFor("did not accept the PIN"))
            try terminal.type("4321")
            #expect(try await terminal.waitFor("EXIT=0"))
            let screen = try terminal.screen()
            #expect(!screen.contains("0000") && !screen.contains("4321"), "a PIN is not echoed:\n\(screen)")
            #expect(!screen.contains("--set pin"), "on a terminal the PIN is asked, not explained:\n\(screen)")
            #expect(peer.receivedFiles() == ["note.txt"], "\(peer.process.output)")
        }
    }

    @Test func thePinIsAskedFromTheSheetToo() async throws {
        try await withSender({ pair, _ in "--terminal --set to=\(pair.theirAddress)" }) { terminal, peer in
            #expect(try await terminal.waitFor("AirDrop"))
            try terminal.send(literally: "airdrop")
            try terminal.press("Enter")
            // Not asked ahead: the PIN stays behind "More fields" until the receiver asks for it.
            #expect(try await terminal.waitFor("More fields (PIN)? [y/N]:"))
            try terminal.type("")
            #expect(try await terminal.waitFor("asks for a PIN"))
            try terminal.type("4321")
            #expect(try await terminal.waitFor("EXIT=0"))
            let screen = try terminal.screen()
            #expect(!screen.contains("4321"), "a PIN is not echoed:\n\(screen)")
            #expect(peer.receivedFiles() == ["note.txt"], "\(peer.process.output)\n\(screen)")
        }
    }
}
