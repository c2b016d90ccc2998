import Foundation
import ShareSheet

/// Edits a long text field (a mail's body) in the person's editor: `$VISUAL`, else `$EDITOR`.
///
/// The text goes into a private temporary file (mode 0600, in `TMPDIR`), the editor runs on the
/// terminal through `/bin/sh` (so `EDITOR="code --wait"` works), and the file is read back and
/// removed whatever happens. The wait is on another thread, so the main actor keeps running.
public struct ExternalEditor: Sendable {
    /// The command as the environment gives it, run by the shell with the file as its argument.
    public let command: String
    /// Where the temporary file goes.
    public let temporaryFolder: String

    /// The editor `environment` names (`VISUAL`, then `EDITOR`); nil when neither is set.
    public init?(environment: [String: String]) {
        guard let command = [environment["VISUAL"], environment["EDITOR"]].compactMap({ $0 })
            .first(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty })
        else { return nil }
        self.command = command
        temporaryFolder = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    }

    /// Lets the person edit `text`; the edited text, or a `ShareError` saying why not.
    public func edit(_ text: String) async -> Result<String, ShareError> {
        let command = command
        let folder = temporaryFolder
        return await withCheckedContinuation { continuation in
            let thread = Thread {
                continuation.resume(returning: Self.run(command, text: text, folder: folder))
            }
            thread.name = "ShareSheetTerminal editor"
            thread.start()
        }
    }

    /// Runs on the editor thread.
    private static func run(_ command: String, text: String, folder: String) -> Result<String, ShareError> {
        var template = Array((folder + "/share-message-XXXXXX.txt").utf8CString)
        // mkstemps creates the file with mode 0600, readable by its owner alone.
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 4) }
        guard descriptor >= 0 else {
            return .failure(ShareError(.ioError, "cannot make a file for the editor in \(folder): \(String(cString: strerror(errno)))"))
        }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { unlink(path) }
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0, errno == EINTR { continue }
            if written <= 0 { break }
            offset += written
        }
        close(descriptor)
        guard offset == bytes.count else { return .failure(ShareError(.ioError, "cannot write the file for the editor: \(path)")) }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // "$@" keeps the path one word whatever it holds; the command itself is the person's.
        process.arguments = ["-c", command + " \"$@\"", "sh", path]
        do {
            try process.run()
        } catch {
            return .failure(ShareError(.unavailable, "cannot start the editor '\(command)': \(error)"))
        }
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            return .failure(ShareError(.unavailable, "the editor '\(command)' ended with status \(process.terminationStatus)"))
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(ShareError(.ioError, "the editor left no file at \(path)"))
        }
        var edited = String(decoding: data, as: UTF8.self)
        // Editors end the last line; the body does not need it.
        while edited.hasSuffix("\n") { edited.removeLast() }
        return .success(edited)
    }
}
