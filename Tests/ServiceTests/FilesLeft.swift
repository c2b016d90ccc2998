import Foundation

/// The files anywhere under `folder` (folders left empty do not count), relative to it, once
/// there are none, or after 3 s: a request's spool and private copies may go a moment after its
/// Response.
func filesLeft(under folder: URL) async throws -> [String] {
    var left: [String] = []
    let deadline = Date().addingTimeInterval(3)
    repeat {
        let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isDirectoryKey])
        left = (walker?.allObjects as? [URL] ?? []).filter {
            (try? $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) != true
        }.map { $0.path.replacingOccurrences(of: folder.path + "/", with: "") }.sorted()
        if left.isEmpty { break }
        try await Task.sleep(for: .milliseconds(50))
    } while Date() < deadline
    return left
}
