import Foundation
import PhotoPreparation

/// Photo preparation (#27) against the tools people already use: a 12-megapixel (4000×3000)
/// JPEG with a location, fitted inside 2048×2048 at quality 85 by `PhotoPreparation.prepare`
/// (location removed), by `vipsthumbnail` and by ImageMagick's `convert`. Every one runs as a
/// child process, so process start and library loading count on each side: ours is share-bench
/// itself, started again with the hidden `--prepare-one IN FOLDER`. Rounds are interleaved;
/// one warm-up round (page cache, libvips' modules) is not counted. Peak memory is each child's
/// `VmHWM`, polled from /proc while it runs: `wait4`'s `ru_maxrss` also counts what the parent
/// had resident at the spawn.
struct PhotoPreparationBenchmark {
    let config: Config
    private let folder = benchFolder.appendingPathComponent("photo-preparation", isDirectory: true)

    private var runs: Int { config.quick ? 3 : 11 }
    /// The long edge the issue measures: what messaging apps send.
    static let longEdge = 2048
    /// The bound the issue sets: at most 1.5× one of the two tools (medians).
    static let bound = 1.5
    /// The bound on our child's peak memory.
    static let memoryBoundMiB = 256

    /// The hidden child mode: prepares IN into FOLDER with the measured options. Exit status 0,
    /// or 1 with the error on standard error.
    static func prepareOne(_ arguments: [String]) -> Int32 {
        guard arguments.count == 2 else {
            FileHandle.standardError.write(Data("share-bench: --prepare-one IN FOLDER\n".utf8))
            return 64
        }
        do {
            _ = try PhotoPreparation.prepare(
                URL(fileURLWithPath: arguments[0]), options: PhotoOptions(longEdge: longEdge, removesLocation: true),
                into: URL(fileURLWithPath: arguments[1], isDirectory: true))
            return 0
        } catch {
            FileHandle.standardError.write(Data("share-bench: \(error)\n".utf8))
            return 1
        }
    }

    func run() -> String {
        let title = "## Photo preparation: a 12-megapixel JPEG to \(Self.longEdge) pixels"
        note("photo preparation: making a 4000×3000 JPEG with a location")
        let source = folder.appendingPathComponent("IMG_0001.jpg")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try makeSource(source)
        } catch {
            return "\(title)\n\nCould not make the source photo: \(error)"
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        let ours = folder.appendingPathComponent("ours", isDirectory: true)
        let vipsOutput = folder.appendingPathComponent("vipsthumbnail.jpg")
        let convertOutput = folder.appendingPathComponent("convert.jpg")
        let oursOutput = ours.appendingPathComponent("IMG_0001.jpg")
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]

        let tools: [(name: String, path: String, arguments: [String])] = [
            ("`PhotoPreparation.prepare` (share-bench --prepare-one)", me, ["--prepare-one", source.path, ours.path]),
            ("`vipsthumbnail IN -s 2048 -o OUT.jpg[Q=85]`", "/usr/bin/vipsthumbnail",
             [source.path, "-s", "\(Self.longEdge)", "-o", vipsOutput.path + "[Q=85]"]),
            ("`/usr/bin/convert IN -resize 2048x2048 -quality 85 OUT.jpg`", "/usr/bin/convert",
             [source.path, "-resize", "\(Self.longEdge)x\(Self.longEdge)", "-quality", "85", convertOutput.path]),
        ]
        var times = Array(repeating: Samples(), count: tools.count)
        var peaks = Array(repeating: 0, count: tools.count)
        var inProcess = Samples()
        var failures: [String] = []
        for round in 0...runs {
            note(round == 0 ? "photo preparation: warm-up round" : "photo preparation: round \(round) of \(runs)")
            for (index, tool) in tools.enumerated() {
                try? FileManager.default.removeItem(at: ours)
                try? FileManager.default.createDirectory(at: ours, withIntermediateDirectories: true)
                let child = PolledChild.run(tool.path, tool.arguments)
                if child.status != 0 { failures.append("\(tool.name) exited \(child.status)") }
                if round > 0 {
                    times[index].add(child.elapsed)
                    peaks[index] = max(peaks[index], child.peakKiB)
                }
            }
            try? FileManager.default.removeItem(at: ours)
            try? FileManager.default.createDirectory(at: ours, withIntermediateDirectories: true)
            let start = benchClock.now
            do {
                _ = try PhotoPreparation.prepare(source, options: PhotoOptions(longEdge: Self.longEdge), into: ours)
            } catch {
                failures.append("in-process prepare: \(error)")
            }
            if round > 0 { inProcess.add(start.duration(to: benchClock.now)) }
        }
        let sizes = [oursOutput, vipsOutput, convertOutput].map(pixelSize)
        let stripping = checkStripping(source)

        var table = Table("how (child process)", "time: median (min–max)", "ours ÷ this (medians)", "peak memory (VmHWM)")
        for (index, tool) in tools.enumerated() {
            let ratio = index == 0 ? "—" : formatRatio(times[0].median.ratio(to: times[index].median))
            table.add(tool.name, times[index].summary, ratio, mib(peaks[index]))
        }
        let toVips = times[0].median.ratio(to: times[1].median)
        let toConvert = times[0].median.ratio(to: times[2].median)
        let withinTime = min(toVips, toConvert) <= Self.bound
        let withinMemory = peaks[0] <= Self.memoryBoundMiB * 1024
        return """
            \(title)

            \(runs) interleaved rounds after a warm-up, each tool a child process (start-up included), the
            source from the page cache. Ours removes the location too (Exif GPS, serial numbers).
            Output sizes: ours \(sizes[0]), vipsthumbnail \(sizes[1]), convert \(sizes[2]).
            In this process, without process start: `prepare` \(inProcess.summary).
            Ours ÷ vipsthumbnail \(formatRatio(toVips)), ours ÷ convert \(formatRatio(toConvert)): \
            \(withinTime ? "within" : "OUTSIDE") the bound of \(significant(Self.bound))× one of them.
            Our child's peak memory \(mib(peaks[0])): \(withinMemory ? "within" : "OUTSIDE") the bound of \(Self.memoryBoundMiB) MiB.
            Original size, location removed: \(stripping).\(failures.isEmpty ? "" : "\nFAILURES: " + failures.joined(separator: "; "))

            \(table.rendered)
            """
    }

    /// A 4000×3000 photo: a gradient under Gaussian noise (ImageMagick), with a location and a
    /// body serial number set by the exiv2 command, as a phone leaves them.
    private func makeSource(_ url: URL) throws {
        let made = PolledChild.run(
            "/usr/bin/convert",
            ["-size", "4000x3000", "gradient:#3060a0-#e0c080", "-attenuate", "0.3", "+noise", "Gaussian", "-quality", "92", url.path])
        guard made.status == 0 else { throw PhotoBenchError("convert exited \(made.status)") }
        let tagged = PolledChild.run(
            "/usr/bin/exiv2",
            ["-M", "set Exif.GPSInfo.GPSLatitudeRef N", "-M", "set Exif.GPSInfo.GPSLatitude 48/1 51/1 2400/100",
             "-M", "set Exif.GPSInfo.GPSLongitudeRef E", "-M", "set Exif.GPSInfo.GPSLongitude 2/1 21/1 0/1",
             "-M", "set Exif.Photo.BodySerialNumber 012345678", url.path])
        guard tagged.status == 0 else { throw PhotoBenchError("exiv2 exited \(tagged.status)") }
    }

    /// Prepares the source at its original size with the location removed, and says whether the
    /// image data stayed as it was (`wasReencoded` false, the JPEG scan data byte-identical).
    private func checkStripping(_ source: URL) -> String {
        let out = folder.appendingPathComponent("stripped", isDirectory: true)
        try? FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let start = benchClock.now
        guard let prepared = try? PhotoPreparation.prepare(source, options: PhotoOptions(), into: out) else {
            return "FAILED"
        }
        let elapsed = start.duration(to: benchClock.now)
        let identical = scanData(prepared.url) != nil && scanData(prepared.url) == scanData(source)
        return "\(elapsed.formatted) in this process, re-encoded: \(prepared.wasReencoded ? "YES" : "no"), "
            + "scan data byte-identical: \(identical ? "yes" : "NO")"
    }

    /// A JPEG's bytes from its first SOS marker, found by walking the segments, to the end.
    private func scanData(_ url: URL) -> Data? {
        guard let bytes = try? Data(contentsOf: url) else { return nil }
        var offset = 2
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
            if bytes[offset + 1] == 0xDA { return bytes.subdata(in: offset..<bytes.count) }
            offset += 2 + (Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3]))
        }
        return nil
    }

    /// "2048×1536", read by vipsheader as a receiver would.
    private func pixelSize(_ url: URL) -> String {
        let output = folder.appendingPathComponent("size.txt")
        let width = PolledChild.run("/usr/bin/vipsheader", ["-f", "width", url.path], output: output.path)
        let widthText = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        let height = PolledChild.run("/usr/bin/vipsheader", ["-f", "height", url.path], output: output.path)
        let heightText = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        guard width.status == 0, height.status == 0 else { return "unreadable" }
        return widthText.trimmingCharacters(in: .whitespacesAndNewlines) + "×" + heightText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func mib(_ kib: Int) -> String { significant(Double(kib) / 1024) + " MiB" }
}

/// A failure making the photo measurement's input.
struct PhotoBenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A child process timed and watched: started with `posix_spawn`, its `VmHWM` read from
/// /proc every millisecond until it exits, then reaped by its PID.
struct PolledChild {
    var status: Int32
    var elapsed: Duration
    /// The highest `VmHWM` seen, in KiB (the last reading before exit: a peak in the final
    /// millisecond may be missed).
    var peakKiB: Int

    static func run(_ path: String, _ arguments: [String], output: String = "/dev/null") -> PolledChild {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let start = benchClock.now
        guard posix_spawn(&pid, path, &actions, nil, argv, envp) == 0 else {
            return PolledChild(status: -1, elapsed: .zero, peakKiB: 0)
        }
        var peak = 0
        var status: Int32 = 0
        while true {
            peak = max(peak, highWaterMark(of: pid))
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid || (reaped < 0 && errno != EINTR) { break }
            usleep(1000)
        }
        return PolledChild(status: (status >> 8) & 0xff, elapsed: start.duration(to: benchClock.now), peakKiB: peak)
    }

    /// `VmHWM` of /proc/PID/status in KiB; 0 once the process is a zombie (no memory left).
    private static func highWaterMark(of pid: pid_t) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
        }
        return 0
    }
}
