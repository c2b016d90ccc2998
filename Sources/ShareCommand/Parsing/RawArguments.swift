import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The command's arguments as the kernel handed them over.
///
/// `CommandLine.arguments` decodes each argument as UTF-8 and replaces what is not, so a file
/// named in Latin-1 (`caf\xE9.txt`, from an old archive or a FAT stick) came out as a name that
/// does not exist. Foundation cannot hold such a path either (`URL` and `String` are UTF-8), so
/// an argument that is not UTF-8 but names an existing file is handed on as the path of a
/// symbolic link, with a readable name, to the file's raw path: every activity, and every program
/// an activity starts, reaches the file through it.
public enum RawArguments {
    /// The arguments of this process, without the program's name.
    public static func ofThisProcess() -> [String] {
        withLabels().arguments
    }

    /// The arguments of this process, without the program's name, and how to show each link
    /// made for a name that is not UTF-8: as typed, its bad bytes as U+FFFD, never as the
    /// link's own path (pass them to `ShareCommand.main`).
    public static func withLabels() -> (arguments: [String], labels: [String: String]) {
        let argv = CommandLine.unsafeArgv
        var aliases: ArgumentNameAliases?
        var labels: [String: String] = [:]
        let arguments = (1..<Int(CommandLine.argc)).map { index in
            guard let argument = argv[index] else { return "" }
            if let text = String(validatingCString: argument) { return text }
            var info = stat()
            guard lstat(argument, &info) == 0 else { return String(cString: argument) }
            if aliases == nil { aliases = ArgumentNameAliases.forThisProcess() }
            guard let alias = aliases?.alias(for: argument, index: index) else { return String(cString: argument) }
            labels[alias] = String(cString: argument)
            return alias
        }
        return (arguments, labels)
    }
}

/// The links made for this run's non-UTF-8 file names, in
/// `$XDG_RUNTIME_DIR/sharesheet/argument-names/PID/`.
///
/// They outlive the run: an application that Open In started may read its file after `share`
/// has ended, and a copied file is pasted by its path. A later run removes the folders of
/// processes that are gone once they are a day old; a link holds no data, so nothing is lost.
struct ArgumentNameAliases {
    let folder: String

    static func forThisProcess() -> ArgumentNameAliases? {
        let environment = ProcessInfo.processInfo.environment
        let base =
            environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp")
        let parent = base + "/sharesheet/argument-names"
        guard (try? FileManager.default.createDirectory(
            atPath: parent, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])) != nil
        else { return nil }
        removeFoldersOfEndedRuns(in: parent)
        let folder = parent + "/\(getpid())"
        try? FileManager.default.removeItem(atPath: folder)
        guard mkdir(folder, 0o700) == 0 else { return nil }
        return ArgumentNameAliases(folder: folder)
    }

    /// A link named like the file (its bytes that are not UTF-8 shown as U+FFFD) to its raw path.
    func alias(for path: UnsafePointer<CChar>, index: Int) -> String? {
        var target = Array(UnsafeBufferPointer(start: path, count: strlen(path)))
        if target.first != CChar(UInt8(ascii: "/")) {
            guard let directory = getcwd(nil, 0) else { return nil }
            defer { free(directory) }
            target = Array(UnsafeBufferPointer(start: directory, count: strlen(directory))) + [CChar(UInt8(ascii: "/"))] + target
        }
        let name = String(cString: path).split(separator: "/").last.map(String.init) ?? "item"
        // One folder per argument, so two names that read alike do not collide.
        let holder = folder + "/\(index)"
        guard mkdir(holder, 0o700) == 0 else { return nil }
        let link = holder + "/" + name
        target.append(0)
        guard symlink(target, link) == 0 else { return nil }
        return link
    }

    private static func removeFoldersOfEndedRuns(in parent: String) {
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? [] {
            guard let pid = pid_t(entry), pid > 0 else { continue }
            var info = stat()
            let path = parent + "/" + entry
            guard stat(path, &info) == 0, time(nil) - info.st_mtim.tv_sec > 86_400 else { continue }
            if kill(pid, 0) != 0, errno == ESRCH {
                try? FileManager.default.removeItem(atPath: path)
            }
        }
    }
}
