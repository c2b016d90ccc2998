import Foundation
import PhotoLibrary

/// Save to Photos against `cp`: the same 1 GB video (pseudo-random bytes, no holes, so every
/// byte is really copied) saved with `PhotoLibrary.save(_:)` and copied with `cp`, interleaved,
/// from the page cache, into the same filesystem. Peak memory is the resident set's high-water
/// mark grown during the save (reset through /proc/self/clear_refs first), and, for whole
/// processes, `ru_maxrss` of `share --activity photos` and of `cp`.
struct PhotosBenchmark {
    let config: Config
    private let folder = benchFolder.appendingPathComponent("photos", isDirectory: true)

    private var size: Int { config.quick ? 64 << 20 : 1 << 30 }
    private var runs: Int { config.quick ? 2 : 3 }

    func run() -> String {
        note("Save to Photos: writing a \(size >> 20) MB video")
        let source = folder.appendingPathComponent("source.mp4")
        let library = PhotoLibrary(
            picturesFolder: folder.appendingPathComponent("Pictures"), videosFolder: folder.appendingPathComponent("Videos"))
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try writeVideo(to: source)
        } catch {
            return "## Save to Photos\n\nCould not write the source video: \(error)"
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("cp-copy.mp4")
        _ = runProcess("/bin/cat", [source.path], output: "/dev/null")  // into the page cache

        var copies = Samples(), syncedCopies = Samples(), saves = Samples(), shareRuns = Samples()
        var growth: [Int] = []
        var cpRSS: [Int] = [], shareRSS: [Int] = []
        let share = Bundle.main.executableURL?.deletingLastPathComponent().appendingPathComponent("share").path
        let shareExists = share.map { FileManager.default.isExecutableFile(atPath: $0) } ?? false
        var identical = true
        for round in 1...runs {
            note("Save to Photos: round \(round) of \(runs)")
            let copy = runProcess("/bin/cp", [source.path, target.path])
            copies.add(copy.elapsed)
            cpRSS.append(copy.maxRSS)
            try? FileManager.default.removeItem(at: target)

            let synced = runProcess("/bin/sh", ["-c", "cp \"$0\" \"$1\" && sync \"$1\"", source.path, target.path])
            syncedCopies.add(synced.elapsed)
            try? FileManager.default.removeItem(at: target)

            resetHighWaterMark()
            let before = residentKiB("VmRSS")
            let start = benchClock.now
            let saved = try? library.save(source)
            saves.add(start.duration(to: benchClock.now))
            growth.append(max(0, residentKiB("VmHWM") - before))
            if let saved {
                if round == 1 { identical = runProcess("/usr/bin/cmp", ["-s", source.path, saved.path]).status == 0 }
                try? FileManager.default.removeItem(at: saved)
            } else {
                identical = false
            }

            if shareExists, let share {
                let home = folder.appendingPathComponent("home").path
                let run = runProcess(share, ["--activity", "photos", source.path], environment: ["HOME": home, "PATH": "/usr/bin:/bin"], output: "/dev/null")
                shareRuns.add(run.elapsed)
                shareRSS.append(run.maxRSS)
                try? FileManager.default.removeItem(atPath: home)
            }
        }

        var table = Table("how", "time: median (min–max)", "÷ cp (medians)", "÷ cp (minimums)", "peak memory")
        func ratios(_ samples: Samples) -> [String] {
            [formatRatio(samples.median.ratio(to: copies.median)), formatRatio(samples.min.ratio(to: copies.min))]
        }
        table.add(["`cp` (baseline)", copies.summary, "1.00×", "1.00×", "\(mib(cpRSS.max() ?? 0)) (whole process)"])
        table.add(["`cp`, then `sync FILE`", syncedCopies.summary] + ratios(syncedCopies) + ["—"])
        table.add(
            ["`PhotoLibrary.save(_:)` (with fsync)", saves.summary] + ratios(saves)
                + ["+\(mib(growth.max() ?? 0)) over the resident set before"])
        if shareRuns.count > 0 {
            table.add(
                ["`share --activity photos` (whole process)", shareRuns.summary] + ratios(shareRuns)
                    + ["\(mib(shareRSS.max() ?? 0)) (whole process)"])
        }
        return """
            ## Save to Photos: a \(size >> 20) MB video against `cp`

            \(runs) interleaved rounds from the page cache into the same filesystem. The save streams with
            `copy_file_range` in 8 MiB steps into an unnamed file (`O_TMPFILE`), flushes it with `fsync`, then
            links it under its name; `cp` does not flush, so `cp` + `sync FILE` is the like-for-like line.
            "Whole process" memory is `ru_maxrss` from `wait4`, which on Linux also counts the spawning
            process's resident set at `exec`, so it is an upper bound; the in-process growth is the save's own.
            Saved copy byte-identical (`cmp`): \(identical ? "yes" : "NO").

            \(table.rendered)
            """
    }

    private func writeVideo(to url: URL) throws {
        let handle = try FileHandle(forWritingTo: {
            _ = FileManager.default.createFile(atPath: url.path, contents: nil)
            return url
        }())
        defer { try? handle.close() }
        var words = [UInt64](repeating: 0, count: (8 << 20) / 8)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var written = 0
        while written < size {
            for index in words.indices {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                words[index] = state
            }
            if written == 0 {
                // An MP4 `ftyp` box first, so the content says "video".
                let header: [UInt8] = [0, 0, 0, 0x18] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array("isomiso2".utf8)
                words.withUnsafeMutableBytes { bytes in
                    for (index, byte) in header.enumerated() { bytes[index] = byte }
                }
            }
            try words.withUnsafeBytes { try handle.write(contentsOf: Data($0)) }
            written += words.count * 8
        }
    }

    private struct ProcessRun {
        var status: Int32
        var elapsed: Duration
        var maxRSS: Int
    }

    /// Runs a program and measures it with `wait4`: wall time and its peak resident set (KiB).
    /// Started with `posix_spawn`, not `Process`, so no other thread reaps it first.
    private func runProcess(
        _ path: String, _ arguments: [String], environment: [String: String]? = nil, output: String? = nil
    ) -> ProcessRun {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if let output { posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY, 0) }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let variables = environment ?? ProcessInfo.processInfo.environment
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let start = benchClock.now
        guard posix_spawn(&pid, path, &actions, nil, argv, envp) == 0 else {
            return ProcessRun(status: -1, elapsed: .zero, maxRSS: 0)
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0, errno == EINTR {}
        return ProcessRun(status: (status >> 8) & 0xff, elapsed: start.duration(to: benchClock.now), maxRSS: usage.ru_maxrss)
    }

    private func resetHighWaterMark() {
        try? Data("5".utf8).write(to: URL(fileURLWithPath: "/proc/self/clear_refs"))
    }

    /// A line of /proc/self/status, in KiB.
    private func residentKiB(_ field: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
            return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
        }
        return 0
    }

    private func mib(_ kib: Int) -> String { significant(Double(kib) / 1024) + " MiB" }
}
