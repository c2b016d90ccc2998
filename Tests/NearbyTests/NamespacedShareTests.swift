import Foundation
import LocalTestSupport
import Testing

/// The way the window tests start `share` in our namespace: by its own PID, with the environment
/// they give it, meeting a peer on that namespace's loopback.
@Suite("share started by its PID inside a network namespace", .serialized)
struct NamespacedShareTests {
    @Test("the PID is share's own, in our namespace, with the extra environment; it mails the peer on that namespace's loopback")
    func shareByPID() async throws {
        let home = try TemporaryHome(prefix: "nearby-namespaced")
        defer { home.remove() }
        let pair = try NetworkPair()
        defer { pair.remove() }
        let binary = try #require(Share.url, "the share executable was not found next to the test bundle")
        func mail(_ port: Int, _ subject: String) throws -> Share.Started {
            try Share.start(
                ["--activity", "mail", "--set", "smtp=smtp://127.0.0.1:\(port)", "--set", "starttls=off", "--to", "bo@example.com",
                 "--subject", subject, "--text", "hi"],
                home: home, extra: ["SHARESHEET_TEST_MARK": "namespaced"], namespace: pair.ours)
        }

        // A peer that never answers DATA holds share while we look at it by its PID.
        let hanging = try SMTPPeer(options: .init(hangInData: true), in: home.root, namespace: pair.ours)
        defer { hanging.stop() }
        let held = try mail(hanging.port, "held")
        let deadline = Date().addingTimeInterval(30)
        while !hanging.dataStarted, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(hanging.dataStarted)
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(held.pid)/exe")
        #expect(URL(fileURLWithPath: executable).resolvingSymlinksInPath() == binary.resolvingSymlinksInPath())
        let environment = try String(decoding: Data(contentsOf: URL(fileURLWithPath: "/proc/\(held.pid)/environ")), as: UTF8.self)
        #expect(environment.split(separator: "\0").contains("SHARESHEET_TEST_MARK=namespaced"))
        #expect(try Self.inode("/proc/\(held.pid)/ns/net") == Self.inode("/run/netns/\(pair.ours)"))
        kill(held.pid, SIGKILL)
        let killed = try await Share.finish(held)
        #expect(killed.signal == SIGKILL, "\(killed.standardError)")

        let peer = try SMTPPeer(in: home.root, namespace: pair.ours)
        defer { peer.stop() }
        let sent = try await Share.finish(mail(peer.port, "sent"))
        #expect(sent.status == 0, "\(sent.standardError)")
        let received = try #require(peer.received.first)
        #expect(try peer.envelope(of: received).recipients == ["bo@example.com"])
        #expect(try PythonEmail.parse(received).subject == "sent")
    }

    /// The inode `stat` (which follows /proc's namespace links) reports: equal for a process's
    /// network namespace and the one `ip netns` named.
    static func inode(_ path: String) throws -> UInt64 {
        var status = stat()
        guard stat(path, &status) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .ENOENT) }
        return UInt64(status.st_ino)
    }
}
