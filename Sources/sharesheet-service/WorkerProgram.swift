import Glibc

/// Finding and starting `share`, the service proper.
enum WorkerProgram {
    /// The variable that tells `share --service` which descriptor reaches the front.
    static let descriptorVariable = "SHARESHEET_SERVICE_FRONT"

    /// This program's own path.
    static func frontPath() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, Int(PATH_MAX))
        guard length > 0 else { return CommandLine.arguments[0] }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `share` beside this program (the build folder), or in `../bin` (installed under
    /// `PREFIX/libexec`); nil when neither can be run.
    static func path() -> String? {
        let front = frontPath()
        guard let slash = front.lastIndex(of: "/") else { return nil }
        let folder = front[..<slash]
        return ["\(folder)/share", "\(folder)/../bin/share"].first { access($0, X_OK) == 0 }
    }

    /// Starts `program` with `descriptor` left open for it and named in its environment.
    static func spawn(_ program: String, arguments: [String], passing descriptor: Int32) -> Result<pid_t, SpawnFailure> {
        // Open across exec for this child only: the pair was made close-on-exec, and nothing
        // else is started while this runs.
        _ = fcntl(descriptor, F_SETFD, 0)
        defer { close(descriptor) }
        var environment = environ
        var entries: [UnsafeMutablePointer<CChar>?] = []
        while let entry = environment.pointee {
            if !String(cString: entry).hasPrefix(descriptorVariable + "=") { entries.append(entry) }
            environment += 1
        }
        let own = strdup("\(descriptorVariable)=\(descriptor)")
        defer { free(own) }
        entries.append(own)
        entries.append(nil)
        var argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, program, nil, nil, &argv, &entries)
        guard status == 0 else { return .failure(SpawnFailure(reason: String(cString: strerror(status)))) }
        return .success(pid)
    }

    struct SpawnFailure: Error, CustomStringConvertible {
        let reason: String
        var description: String { reason }
    }
}
