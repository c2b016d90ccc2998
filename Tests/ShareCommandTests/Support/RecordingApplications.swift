import Foundation
import LocalTestSupport
import Testing

/// Desktop entries in a test home's data folder whose Exec runs a recorder that notes which
/// application was started with which file, in `records/ID` of the test's folder.
enum RecordingApplications {
    /// Adds application `id` for `mimeType` and refreshes the cache GIO finds applications by
    /// type through (as a package installation would). `argument` is the Exec field code: `%f`
    /// for a file, `%u` for a link (a browser).
    static func add(_ id: String, name: String, mimeType: String, in folder: URL, argument: String = "%f") async throws {
        let applications = folder.appendingPathComponent("home/data/applications")
        let records = folder.appendingPathComponent("records")
        try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: records, withIntermediateDirectories: true)
        let recorder = folder.appendingPathComponent("recorder")
        try Data("#!/bin/sh\nprintf '%s' \"$2\" > \(records.path)/\"$1\"\n".utf8).write(to: recorder)
        chmod(recorder.path, 0o755)
        let entry = """
            [Desktop Entry]
            Type=Application
            Name=\(name)
            Exec=\(recorder.path) \(id) \(argument)
            MimeType=\(mimeType);

            """
        try Data(entry.utf8).write(to: applications.appendingPathComponent(id + ".desktop"))
        let update = try await ShareBinary.run(
            [applications.path], in: folder, program: "/usr/bin/update-desktop-database")
        #expect(update.status == 0, "\(update)")
    }

    /// The ids of the applications started so far, waiting up to two seconds for the first.
    static func started(in folder: URL) async throws -> [String] {
        let records = folder.appendingPathComponent("records")
        for _ in 0..<200 {
            let opened = (try? FileManager.default.contentsOfDirectory(atPath: records.path)) ?? []
            if !opened.isEmpty { return opened.sorted() }
            try await Task.sleep(for: .milliseconds(10))
        }
        return []
    }
}
