import Foundation
import OpenIn
import ShareSheet
import Sharing

/// `share open [--app ID] URL|FILE...`: opens links and files with the desktop's applications,
/// the way `Workspace.open(_:)` does (maps links through the `geo:` handler or a web map).
enum OpenCommand: ShareSubcommand {
    static let spec = CommandSpec(
        name: "open", summary: "open with the desktop's application for it",
        about: "Links go to the desktop's handler for their scheme (maps: to a geo: handler or a web map); "
            + "files to the default application for their type.",
        options: [.value("--app", "ID", "open with this application (a desktop-file id)")],
        operands: "URL|FILE...", operandKind: .file, examples: ["share open https://swift.org", "share open --app org.gnome.Evince report.pdf"])

    static func run(_ arguments: [String], context: CommandContext) async throws -> Termination {
        let parsed = try options(arguments)
        let applicationID = parsed.value("--app")
        let operands = parsed.operands
        guard !operands.isEmpty else { throw ShareError(.usage, "share open: give a URL or a file to open") }
        let urls = try operands.map { try url(for: $0, currentDirectory: context.currentDirectory) }
        let workspace = Workspace.shared
        let outcome: Result<[String], WorkspaceError> = await Task.detached {
            do {
                if let applicationID {
                    try workspace.open(urls, withApplicationID: applicationID)
                    return .success([])
                }
                var notes: [String] = []
                for url in urls {
                    let opened = try workspace.open(url)
                    if let note = opened.note { notes.append("\(opened.url.absoluteString): \(note)") }
                }
                return .success(notes)
            } catch let error as WorkspaceError {
                return .failure(error)
            } catch {
                return .failure(WorkspaceError(.launchFailed, "\(error)"))
            }
        }.value
        switch outcome {
        case .success(let notes):
            for note in notes { context.standardError.write("share open: \(note)\n") }
            return .success
        case .failure(let error):
            throw ShareError(error.kind.shareErrorKind, "open: " + error.message)
        }
    }

    /// A link as given, or a path (or `file:` URL) made absolute.
    static func url(for operand: String, currentDirectory: String) throws -> URL {
        let path = operand.hasPrefix("/") ? operand : (currentDirectory as NSString).appendingPathComponent(operand)
        if let scheme = ItemResolver.scheme(of: operand), !FileManager.default.fileExists(atPath: path) {
            guard let url = URL(string: operand), url.scheme != nil else {
                throw ShareError(.badData, "open: \(operand): not a valid URL")
            }
            if scheme == "file" {
                guard url.host == nil || url.host == "" || url.host == "localhost" else {
                    throw ShareError(.badData, "open: \(operand): not a local file URL")
                }
                return try fileURL(url.path, label: operand)
            }
            return url
        }
        return try fileURL(path, label: operand)
    }

    private static func fileURL(_ path: String, label: String) throws -> URL {
        guard FileManager.default.fileExists(atPath: path) else {
            throw ShareError(.noInput, "open: \(label): no such file")
        }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw ShareError(.noInput, "open: \(label): permission denied")
        }
        return URL(fileURLWithPath: path).standardizedFileURL
    }
}
