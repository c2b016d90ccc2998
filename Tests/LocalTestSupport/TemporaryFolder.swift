// The one way the test targets make a folder of their own: every suite that needs a scratch
// folder, a temporary home or a spool builds it on this, so names, creation and removal are the
// same everywhere (and a leaked folder says which target left it: its name starts with PREFIX).
import Foundation

/// A folder of its own under the temporary directory, named `PREFIX-UUID`, for one test or one
/// suite. A value, not an owner: it is removed by `remove()`, never behind the caller's back, so
/// passing `.url` on is safe.
public struct TemporaryFolder: Sendable {
    /// The folder.
    public let url: URL

    /// Creates `PREFIX-UUID` under the temporary directory.
    public init(_ prefix: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A folder made elsewhere, to remove it the same way.
    public init(existing url: URL) { self.url = url }

    /// The folder's path.
    public var path: String { url.path }

    /// `relative` inside the folder (not created).
    public func file(_ relative: String) -> URL { url.appendingPathComponent(relative) }

    /// A subfolder, created with its parents.
    @discardableResult
    public func folder(_ relative: String) throws -> URL {
        let folder = url.appendingPathComponent(relative, isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Writes `data` to `relative` inside the folder (its parent folders created) and returns it.
    @discardableResult
    public func write(_ relative: String, _ data: Data) throws -> URL {
        let file = url.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
        return file
    }

    /// Removes the folder and everything in it; tried twice, in case a program the test started
    /// wrote a file while it was being emptied.
    public func remove() {
        if (try? FileManager.default.removeItem(at: url)) == nil { try? FileManager.default.removeItem(at: url) }
    }

    /// A folder under the temporary directory, for callers that keep only its URL and remove it
    /// themselves.
    public static func make(_ prefix: String) throws -> URL { try TemporaryFolder(prefix).url }
}
