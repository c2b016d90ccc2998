// Open In's page in the window (SPEC §7, "Open In: applications with icons and 'always use'"):
// two applications registered in the test's home for PDF, picked with the keys a person uses;
// "Always use for this type" makes the pick the desktop's default in mimeapps.list, which
// `xdg-open` and `gio open` follow too.
import Foundation
import LocalTestSupport
import Testing

@Suite("Open In's page in the window", .serialized)
struct ApplicationChooserWindowTests {
    /// Adds application `id` for PDF to the home, as a package would: its desktop entry runs a
    /// script that writes the file it was given to `records/ID`; returns the records folder.
    @discardableResult
    private func addApplication(_ id: String, name: String, desk: WindowDesk) throws -> URL {
        let applications = desk.home.dataHome.appendingPathComponent("applications", isDirectory: true)
        let records = desk.home.root.appendingPathComponent("records", isDirectory: true)
        try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: records, withIntermediateDirectories: true)
        let recorder = desk.home.root.appendingPathComponent("recorder")
        try Data("#!/bin/sh\nprintf '%s' \"$2\" > \(records.path)/\"$1\"\n".utf8).write(to: recorder)
        chmod(recorder.path, 0o755)
        let entry = "[Desktop Entry]\nType=Application\nName=\(name)\nIcon=x-office-document\nExec=\(recorder.path) \(id) %f\nMimeType=application/pdf;\n"
        try Data(entry.utf8).write(to: applications.appendingPathComponent(id + ".desktop"))
        let updated = try Command.run("/usr/bin/update-desktop-database", [applications.path], environment: desk.environment)
        #expect(updated.status == 0, "\(updated)")
        return records
    }

    /// The ids of the applications started so far, waiting up to five seconds for the first.
    private func started(_ records: URL) async throws -> [String] {
        for _ in 0..<500 {
            let opened = (try? FileManager.default.contentsOfDirectory(atPath: records.path)) ?? []
            if !opened.isEmpty { return opened.sorted() }
            try await Task.sleep(for: .milliseconds(10))
        }
        return []
    }

    /// The name of the focused control.
    private func focused(_ window: RunningWindow) async throws -> String? {
        let nodes = try JSONSerialization.jsonObject(with: Data(try await window.driver.dump().utf8)) as? [[String: Any]] ?? []
        return nodes.first { ($0["states"] as? [String])?.contains("focused") == true && $0["role"] as? String != "frame" }?["name"]
            as? String
    }

    @Test("the applications are rows with icons; Always use for this type, then Enter on Example Viewer, opens with it and makes it the default")
    func alwaysUseMakesTheDefault() async throws {
        try await WindowDesk.with { desk in
            try addApplication("org.example.Reader", name: "Example Reader", desk: desk)
            let records = try addApplication("org.example.Viewer", name: "Example Viewer", desk: desk)
            let report = try desk.home.file("report.pdf", Data("%PDF-1.4\n".utf8))
            let window = try desk.startShare([report.path])
            try await window.driver.click(name: "Open In…", role: "push button")
            try await window.driver.wait(name: "Always use for this type", role: "check box")
            try await window.driver.wait(name: "Example Reader", role: "push button")
            try await window.driver.wait(name: "Example Viewer", role: "push button")
            try await window.driver.wait(name: "Make it the desktop's default for PDF document.", role: "label")
            let names = (try JSONSerialization.jsonObject(with: Data(try await window.driver.dump().utf8)) as? [[String: Any]] ?? [])
                .compactMap { $0["name"] as? String }
            // (An application's own name may hold anything: ImageMagick's says "color depth=q16".)
            for name in names {
                #expect(!name.contains("--") && !name.contains("application/pdf") && !name.contains("[open"), "plain words: \(name)")
            }
            try await desk.saveScreenshot("open-in-page.png", of: window)

            // The focus starts on the first application (the default, Enter opens with it);
            // "Always" is just before the list.
            #expect(try await focused(window) != nil)
            try await window.driver.key("Shift_L+Tab")
            #expect(try await focused(window) == "Always use for this type")
            try await window.driver.key("space")
            try await window.driver.key("Tab")
            // Down through the list to Example Viewer (the desktop may list its own PDF viewers too).
            for _ in 0..<6 where try await focused(window) != "Example Viewer" {
                try await window.driver.key("Down")
            }
            #expect(try await focused(window) == "Example Viewer")
            try await window.driver.key("Return")
            let run = try await window.finish()
            #expect(run.status == 0, "share: \(run.standardError)")
            #expect(try await started(records) == ["org.example.Viewer"])
            let mimeapps = try String(
                contentsOf: desk.home.configHome.appendingPathComponent("mimeapps.list"), encoding: .utf8)
            #expect(mimeapps.contains("application/pdf=org.example.Viewer.desktop"), "\(mimeapps)")
        }
    }
}
