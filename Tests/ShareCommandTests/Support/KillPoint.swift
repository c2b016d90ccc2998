import Foundation
import LocalTestSupport
import Testing

/// Runs the built `share` and kills it with SIGKILL at a chosen moment: what a power cut, the
/// OOM killer or `kill -9` does, with no chance to clean up. Used by the kill matrix.
enum KillPoint {
    /// How a run that was to be killed ended.
    enum Outcome: Equatable, CustomStringConvertible {
        /// SIGKILL reached it while it ran.
        case killed
        /// It ended by itself before the moment came (the moment is then not tested).
        case ended(status: Int32)

        var description: String {
            switch self {
            case .killed: "killed"
            case .ended(let status): "ended by itself with \(status)"
            }
        }
    }

    /// Starts `share arguments` in `home` (or in `namespace`), asks `moment` every 2 ms whether
    /// to kill it now, and kills it with SIGKILL when it says so.
    /// - Parameters:
    ///   - moment: given the PID and the seconds since the start; true kills.
    ///   - timeout: the longest wait for the moment; past it the run is killed and the test fails.
    static func run(
        _ arguments: [String], home: TemporaryHome, extra: [String: String] = [:], namespace: String? = nil,
        timeout: Double = 600, sourceLocation: SourceLocation = #_sourceLocation, moment: (pid_t, Double) -> Bool
    ) async throws -> Outcome {
        let started = try namespace.map { try Share.start(arguments, home: home, extra: extra, namespace: $0) }
            ?? Share.start(arguments, home: home, extra: extra)
        defer {
            try? FileManager.default.removeItem(at: started.output)
            try? FileManager.default.removeItem(at: started.error)
        }
        let start = Date()
        while true {
            var status: Int32 = 0
            if waitpid(started.pid, &status, WNOHANG) == started.pid {
                return .ended(status: status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f))
            }
            let elapsed = Date().timeIntervalSince(start)
            if moment(started.pid, elapsed) || elapsed > timeout {
                if elapsed > timeout {
                    Issue.record("the moment to kill share \(arguments) did not come within \(timeout) s", sourceLocation: sourceLocation)
                }
                kill(started.pid, SIGKILL)
                _ = Spawn.waitBlocking(started.pid)
                return .killed
            }
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    /// The size of the file a process has open for writing under `folder`, found through
    /// `/proc/PID/fd` (an unnamed `O_TMPFILE` file has no other name); nil when it has none.
    static func sizeOfFileOpen(by pid: pid_t, under folder: URL) -> Int64? {
        let descriptors = "/proc/\(pid)/fd"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: descriptors) else { return nil }
        for name in names {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: descriptors + "/" + name),
                target.hasPrefix(folder.path + "/")
            else { continue }
            var info = stat()
            if stat(descriptors + "/" + name, &info) == 0, info.st_mode & S_IFMT == S_IFREG { return Int64(info.st_size) }
        }
        return nil
    }

    /// The size of a regular file, or nil.
    static func size(of url: URL) -> Int64? {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return nil }
        return Int64(info.st_size)
    }

    /// Every entry of a folder (hidden ones too), sorted; empty when it does not exist.
    static func entries(_ folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    /// Writes `size` bytes: `header`, then a repeated 1 MiB block of pseudo-random bytes (no
    /// holes, so a copy cannot skip any of it), fast enough for a gigabyte.
    static func writeLargeFile(_ url: URL, header: [UInt8], size: Int) throws {
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var block = [UInt8](repeating: 0, count: 1 << 20)
        for index in block.indices {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            block[index] = UInt8(truncatingIfNeeded: state)
        }
        try handle.write(contentsOf: header)
        var remaining = size - header.count
        while remaining > 0 {
            let count = min(block.count, remaining)
            try handle.write(contentsOf: block[0..<count])
            remaining -= count
        }
    }
}
