// An application's slow provider under the window: progress while it works, and Escape that
// cancels it without leaving anything behind.
import Foundation
import LocalTestSupport
import Testing

@Suite("Providers under the window", .serialized)
struct ProviderWindowTests {
    @Test("a 2-second provider shows a progress bar; Escape dismisses, cancels it, leaves nothing behind, exit 130")
    func escapeCancelsTheProvider() async throws {
        try await WindowDesk.with { desk in
            let temporary = desk.home.root.appendingPathComponent("tmp", isDirectory: true)
            try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
            let window = try desk.startApp(["--slow-provider", "2"], extra: ["TMPDIR": temporary.path])
            try await window.driver.click(name: "Copy", role: "push button")
            try await window.driver.wait(name: "Preparing slow-report.txt", role: "progress bar")
            try await window.driver.key("Escape")
            let run = try await window.finish(timeout: 20)
            #expect(run.status == 130, "app: \(run.standardError)")
            let result = try JSONSerialization.jsonObject(with: run.output) as? [String: Any]
            #expect(result?["disposition"] as? String == "cancelled", "result: \(run.standardOutput)")
            let left = FileManager.default.enumerator(atPath: temporary.path)?.allObjects as? [String] ?? []
            #expect(left.isEmpty, "left behind in TMPDIR: \(left)")
        }
    }

    @Test("the window is up with its rows before the provider runs, and the provider's work arrives when it is picked")
    func providerRunsOnlyAfterThePick() async throws {
        try await WindowDesk.with { desk in
            let temporary = desk.home.root.appendingPathComponent("tmp", isDirectory: true)
            try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
            let window = try desk.startApp(["--slow-provider", "1"], extra: ["TMPDIR": temporary.path])
            try await window.driver.wait(name: "Copy", role: "push button")
            let before = FileManager.default.enumerator(atPath: temporary.path)?.allObjects as? [String] ?? []
            #expect(!before.contains { $0.hasSuffix("slow-report.txt") }, "the provider ran before the pick: \(before)")
            try await window.driver.click(name: "Copy", role: "push button")
            let run = try await window.finish(timeout: 20)
            #expect(run.status == 0, "app: \(run.standardError)")
            // About one run in fifteen read "target STRING not available" right after the app
            // ended (issue #28 follows the cause on the owner's side): read again for up to 2 s,
            // and keep what the clipboard offered at first, so a failure says more.
            var clipboard = ""
            var offeredAtFirst = ""
            for attempt in 0..<20 {
                clipboard = try output(of: "/usr/bin/xclip", ["-o", "-selection", "clipboard"], environment: desk.environment)
                if clipboard.contains("slow-report.txt") || clipboard.contains("line 10 of the slow report") { break }
                if attempt == 0 {
                    offeredAtFirst = try output(
                        of: "/usr/bin/xclip", ["-o", "-selection", "clipboard", "-t", "TARGETS"], environment: desk.environment)
                }
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(
                clipboard.contains("slow-report.txt") || clipboard.contains("line 10 of the slow report"),
                "clipboard: \(clipboard); offered at first: \(offeredAtFirst)")
        }
    }
}
