import Foundation
import Testing

/// Compares text with a snapshot recorded under `__Snapshots__/NAME.txt` beside the calling test file.
///
/// A missing snapshot is recorded and the test fails, so a new snapshot is always looked at;
/// with `SNAPSHOT_RECORD=1` every snapshot is re-recorded (and the test fails, as a reminder).
func assertSnapshot(
    _ text: String, named name: String, filePath: String = #filePath, sourceLocation: SourceLocation = #_sourceLocation
) {
    let folder = URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("__Snapshots__")
    let file = folder.appendingPathComponent(name + ".txt")
    let recording = ProcessInfo.processInfo.environment["SNAPSHOT_RECORD"] == "1"
    guard !recording, let recorded = try? String(contentsOf: file, encoding: .utf8) else {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try text.write(to: file, atomically: true, encoding: .utf8)
            Issue.record("recorded snapshot \(name) at \(file.path); check it and run again", sourceLocation: sourceLocation)
        } catch {
            Issue.record("could not record snapshot \(name): \(error)", sourceLocation: sourceLocation)
        }
        return
    }
    if recorded != text {
        Issue.record(
            "snapshot \(name) differs (re-record with SNAPSHOT_RECORD=1)\n--- expected\n\(recorded)\n--- actual\n\(text)",
            sourceLocation: sourceLocation)
    }
}
