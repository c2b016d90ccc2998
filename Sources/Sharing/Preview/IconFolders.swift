import Foundation

/// Where ShareSheet's own icons (`sharesheet-airdrop-symbolic` and the rest) live, for a window
/// to add to its icon theme's search path.
public enum IconFolders {
    /// This process's executable, as the kernel names it (`/proc/self/exe`, links resolved).
    public static var currentExecutable: URL {
        let link = "/proc/self/exe"
        let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: link)) ?? link
        return URL(fileURLWithPath: target)
    }

    /// The existing folders that hold a `hicolor` theme with our icons, first found first:
    /// - installed: `<prefix>/share/icons` beside `<prefix>/bin/<executable>`;
    /// - in a build folder: the `Resources/icons` of the first folder above the executable that
    ///   has `Resources/icons/hicolor` (the source tree of `.build/debug/share`).
    /// - Parameter executable: the running program; this process's by default.
    public static func searchPaths(executable: URL = IconFolders.currentExecutable) -> [String] {
        var paths: [String] = []
        let programFolder = executable.deletingLastPathComponent().standardizedFileURL
        let installed = programFolder.deletingLastPathComponent().appendingPathComponent("share/icons").path
        if isFolder(installed) { paths.append(installed) }

        var folder = programFolder
        while true {
            let icons = folder.appendingPathComponent("Resources/icons")
            if isFolder(icons.appendingPathComponent("hicolor").path) {
                if !paths.contains(icons.path) { paths.append(icons.path) }
                break
            }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { break }
            folder = parent
        }
        return paths
    }

    private static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
