import Foundation
import LocalTestSupport

/// The folder an end-to-end suite runs `share` in (``ShareBinary`` puts the runs' HOME and XDG
/// folders under its `home/`), holding the files the commands name.
/// A suite makes one in its `init` and keeps it: the folder goes with the suite's instance.
final class CommandFolder: Sendable {
    /// What `notes.txt` holds in most suites.
    static let notes = Data("quarterly numbers\n".utf8)
    /// The eight bytes a PNG starts with: enough for `share` to take a file for an image.
    static let pngSignature = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])

    /// The folder, `share-cli-tests-UUID` under the temporary directory.
    let url: URL

    /// Makes the folder with `files` (name → contents) in it; `notes.txt` unless told otherwise.
    init(_ files: [String: Data] = ["notes.txt": notes]) throws {
        url = try TemporaryFolder.make("share-cli-tests")
        for (name, contents) in files { try contents.write(to: url.appendingPathComponent(name)) }
    }

    deinit { TemporaryFolder(existing: url).remove() }
}
