import Foundation
import LocalTestSupport
import ShareSheet
import Testing
import UniformTypes

@testable import Sharing

@Suite struct DescriptorSpoolerTests {
    // MARK: What is copied

    /// In the kernel (`sendfile`) and through the buffer, as where the kernel cannot.
    @Test(arguments: [true, false])
    func aRegularFileIsCopiedWholeFromTheStartWhateverItsOffset(inKernel: Bool) async throws {
        let folder = try SpoolTestFolder()
        let content = SampleBytes.pdf + SpoolTestData.pattern(count: 3 * 1024 * 1024 + 123)
        let source = try folder.makeFile("source", content: content)
        let descriptor = open(source, O_RDONLY | O_CLOEXEC)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        #expect(lseek(descriptor, 1000, SEEK_SET) == 1000)

        let spooled = try await DescriptorSpooler.spool(
            SpoolJob(
                descriptor: descriptor, name: "report.pdf", mimeType: nil, limit: nil, parent: folder.spoolDirectory,
                copiesInKernel: inKernel))

        #expect(try Data(contentsOf: spooled.url) == content)
        #expect(spooled.byteCount == Int64(content.count))
        #expect(spooled.url.lastPathComponent == "report.pdf")
        #expect(spooled.type == .pdf)
        // The caller's offset is where the caller left it.
        #expect(lseek(descriptor, 0, SEEK_CUR) == 1000)
        let privateFolder = spooled.url.deletingLastPathComponent()
        #expect(privateFolder.deletingLastPathComponent().path == folder.spoolDirectory.path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: privateFolder.path) == ["report.pdf"])
        var info = stat()
        #expect(stat(privateFolder.path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o700)

        spooled.remove()
        #expect(folder.spoolContents == [])
        spooled.remove()  // twice does nothing
    }

    @Test func aPipeIsReadToItsEnd() async throws {
        let folder = try SpoolTestFolder()
        let content = SpoolTestData.pattern(count: 5 * 1024 * 1024 + 7)
        let pipe = try SpoolTestPipe()
        let feeder = pipe.feed([content])
        defer { feeder.finish() }

        let spooled = try await DescriptorSpooler.spool(
            pipe.reader, name: "data.bin", mimeType: "application/octet-stream", temporaryDirectory: folder.spoolDirectory)
        defer { spooled.remove() }

        #expect(try Data(contentsOf: spooled.url) == content)
        #expect(spooled.byteCount == Int64(content.count))
        #expect(spooled.url.lastPathComponent == "data.bin")
    }

    @Test func aPipeWrittenSlowlyInPiecesIsWaitedFor() async throws {
        let folder = try SpoolTestFolder()
        let pieces = (0..<5).map { Data("piece \($0);".utf8) }
        let pipe = try SpoolTestPipe()
        let feeder = pipe.feed(pieces, pauseMilliseconds: 60)
        defer { feeder.finish() }

        let clock = ContinuousClock()
        let start = clock.now
        let spooled = try await DescriptorSpooler.spool(
            pipe.reader, name: "notes.txt", mimeType: nil, temporaryDirectory: folder.spoolDirectory)
        defer { spooled.remove() }

        #expect(clock.now - start >= .milliseconds(240))
        #expect(try String(contentsOf: spooled.url, encoding: .utf8) == "piece 0;piece 1;piece 2;piece 3;piece 4;")
        #expect(spooled.type == .plainText)
    }

    @Test func aSocketIsReadUntilThePeerStopsWriting() async throws {
        let folder = try SpoolTestFolder()
        let ends = try SpoolTestData.socketPair()
        defer { close(ends.0) }
        try SpoolTestData.writeAll(ends.1, SampleBytes.png)
        shutdown(ends.1, Int32(SHUT_WR))
        defer { close(ends.1) }

        let spooled = try await DescriptorSpooler.spool(ends.0, name: nil, mimeType: nil, temporaryDirectory: folder.spoolDirectory)
        defer { spooled.remove() }

        #expect(try Data(contentsOf: spooled.url) == SampleBytes.png)
        #expect(spooled.url.lastPathComponent == "item.png")
    }

    @Test func anEmptyPipeGivesAnEmptyFile() async throws {
        let folder = try SpoolTestFolder()
        let pipe = try SpoolTestPipe()
        pipe.closeWriter()

        let spooled = try await DescriptorSpooler.spool(
            pipe.reader, name: "empty.txt", mimeType: nil, temporaryDirectory: folder.spoolDirectory)
        defer { spooled.remove() }

        #expect(spooled.byteCount == 0)
        #expect(try Data(contentsOf: spooled.url).isEmpty)
        #expect(spooled.url.lastPathComponent == "empty.txt")
    }

    // MARK: Names and types

    struct NameCase: Sendable, CustomTestStringConvertible {
        var name: String?
        var mimeType: String?
        var content: Data
        var expectedName: String
        var expectedType: UTType
        var testDescription: String { "\(name.map { "\($0.debugDescription)" } ?? "no name") + \(mimeType ?? "no type") → \(expectedName)" }
    }

    static let nameCases: [NameCase] = [
        NameCase(
            name: "../../etc/passwd", mimeType: nil, content: Data("root:x:0:0:root:/root:/bin/bash\n".utf8),
            expectedName: "passwd", expectedType: .plainText),
        // Control characters go; a line break is a space (FileNames.sendable), as everywhere.
        NameCase(name: "re\u{7}po\nrt\u{7F}.pdf", mimeType: nil, content: SampleBytes.pdf, expectedName: "repo rt.pdf", expectedType: .pdf),
        NameCase(name: nil, mimeType: "image/png", content: Data("not a picture at all".utf8), expectedName: "item.png", expectedType: .png),
        NameCase(name: nil, mimeType: nil, content: SampleBytes.png, expectedName: "item.png", expectedType: .png),
        NameCase(name: "holiday", mimeType: nil, content: SampleBytes.jpeg, expectedName: "holiday.jpg", expectedType: .jpeg),
        NameCase(name: "README", mimeType: nil, content: Data("Read me first.\n".utf8), expectedName: "README", expectedType: .plainText),
        NameCase(name: nil, mimeType: nil, content: Data("just words\n".utf8), expectedName: "item.txt", expectedType: .plainText),
        NameCase(name: "minutes", mimeType: "application/pdf", content: SampleBytes.pdf, expectedName: "minutes.pdf", expectedType: .pdf),
        // The MIME type decides the type; the sender's name stays as it was given.
        NameCase(name: "picture.jpg", mimeType: "image/png", content: SampleBytes.png, expectedName: "picture.jpg", expectedType: .png),
        // Without a MIME type a known extension decides.
        NameCase(name: "picture.png", mimeType: nil, content: Data([1, 2, 3]), expectedName: "picture.png", expectedType: .png),
        NameCase(name: "..", mimeType: nil, content: SampleBytes.png, expectedName: "item.png", expectedType: .png),
        NameCase(name: "/", mimeType: "not a mime type", content: SampleBytes.pdf, expectedName: "item.pdf", expectedType: .pdf),
        NameCase(
            name: String(repeating: "é", count: 200) + ".pdf", mimeType: nil, content: SampleBytes.pdf,
            expectedName: String(repeating: "é", count: 125) + ".pdf", expectedType: .pdf),
    ]

    @Test(arguments: nameCases) func namesAreCleanedAndGetAnExtension(_ sample: NameCase) async throws {
        let folder = try SpoolTestFolder()
        let pipe = try SpoolTestPipe()
        try SpoolTestData.writeAll(pipe.writer, sample.content)
        pipe.closeWriter()

        let spooled = try await DescriptorSpooler.spool(
            pipe.reader, name: sample.name, mimeType: sample.mimeType, temporaryDirectory: folder.spoolDirectory)
        defer { spooled.remove() }

        #expect(spooled.url.lastPathComponent == sample.expectedName)
        #expect(spooled.url.lastPathComponent.utf8.count <= 255)
        // `README` is GIO's text/x-readme, a kind of plain text.
        #expect(spooled.type.conforms(to: sample.expectedType), "\(spooled.type)")
        #expect(try Data(contentsOf: spooled.url) == sample.content)
    }

    // MARK: Errors

    /// Descriptors that cannot be open: -1, and the soft limit on open files (every open
    /// descriptor is below it). A number just closed could be reused by a test running in
    /// parallel, and the spooler would then read someone else's file.
    @Test func aDescriptorThatIsNotOpenIsNoInput() async throws {
        let folder = try SpoolTestFolder()
        var limit = rlimit()
        try #require(getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0)
        let unused = Int32(clamping: limit.rlim_cur)
        try #require(fcntl(unused, F_GETFD) == -1)

        let named = await #expect(throws: ShareError.self) {
            try await DescriptorSpooler.spool(-1, name: "report.pdf", mimeType: nil, temporaryDirectory: folder.spoolDirectory)
        }
        #expect(named?.kind == .noInput)
        #expect(named?.message == "report.pdf: not an open descriptor")

        let unnamed = await #expect(throws: ShareError.self) {
            try await DescriptorSpooler.spool(unused, name: nil, mimeType: nil, temporaryDirectory: folder.spoolDirectory)
        }
        #expect(unnamed?.kind == .noInput)
        #expect(unnamed?.message == "descriptor \(unused): not an open descriptor")
        #expect(folder.spoolContents == [])
    }

    @Test func aDescriptorOpenOnlyForWritingIsNoInput() async throws {
        let folder = try SpoolTestFolder()
        let pipe = try SpoolTestPipe()
        defer { pipe.closeWriter() }
        let fileDescriptor = open(try folder.makeFile("out", content: Data("x".utf8)), O_WRONLY | O_CLOEXEC)
        try #require(fileDescriptor >= 0)
        defer { close(fileDescriptor) }

        for descriptor in [pipe.writer, fileDescriptor] {
            let error = await #expect(throws: ShareError.self) {
                try await DescriptorSpooler.spool(descriptor, name: "out", mimeType: nil, temporaryDirectory: folder.spoolDirectory)
            }
            #expect(error?.kind == .noInput)
            #expect(error?.message == "out: not open for reading")
        }
        #expect(folder.spoolContents == [])
    }

    @Test func aDirectoryIsBadData() async throws {
        let folder = try SpoolTestFolder()
        let descriptor = open(folder.root.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        try #require(descriptor >= 0)
        defer { close(descriptor) }

        let error = await #expect(throws: ShareError.self) {
            try await DescriptorSpooler.spool(descriptor, name: "Photos", mimeType: nil, temporaryDirectory: folder.spoolDirectory)
        }
        #expect(error?.kind == .badData)
        #expect(error?.message == "Photos: is a directory")
        #expect(folder.spoolContents == [])
    }

    /// A Unix socket closed with bytes it never read resets its peer: the peer's `read` fails
    /// with ECONNRESET once it has read what was sent.
    @Test func aReadErrorIsAnIOErrorAndLeavesNothing() async throws {
        let folder = try SpoolTestFolder()
        let ends = try SpoolTestData.socketPair()
        defer { close(ends.0) }
        try SpoolTestData.writeAll(ends.0, Data("never read".utf8))
        try SpoolTestData.writeAll(ends.1, Data("some bytes first".utf8))
        close(ends.1)

        let error = await #expect(throws: ShareError.self) {
            try await DescriptorSpooler.spool(ends.0, name: "upload.bin", mimeType: nil, temporaryDirectory: folder.spoolDirectory)
        }
        #expect(error?.kind == .ioError)
        #expect(error?.message == "upload.bin: cannot read: connection reset by peer")
        #expect(folder.spoolContents == [])
    }

    @Test func aMissingTemporaryDirectoryIsAnIOError() async throws {
        let folder = try SpoolTestFolder()
        let pipe = try SpoolTestPipe()
        pipe.closeWriter()
        let missing = folder.root.appendingPathComponent("missing")

        let error = await #expect(throws: ShareError.self) {
            try await DescriptorSpooler.spool(pipe.reader, name: "a.txt", mimeType: nil, temporaryDirectory: missing)
        }
        #expect(error?.kind == .ioError)
        #expect(error?.message == "a.txt: cannot make a folder in \(missing.path): no such file or directory")
        #expect(!FileManager.default.fileExists(atPath: missing.path))
    }

    @Test func moreThanTheLimitIsBadDataAndLeavesNothing() async throws {
        let folder = try SpoolTestFolder()
        // A pipe: found out while copying. 60 000 bytes fit in the pipe, so the writer is done.
        let content = SpoolTestData.pattern(count: 60_000)
        let pipe = try SpoolTestPipe()
        try SpoolTestData.writeAll(pipe.writer, content)
        pipe.closeWriter()
        let piped = await #expect(throws: ShareError.self) {
            try await DescriptorSpooler.spool(
                pipe.reader, name: "big.bin", mimeType: nil, limit: 59_999, temporaryDirectory: folder.spoolDirectory)
        }
        #expect(piped?.kind == .badData)
        #expect(piped?.message == "big.bin: more than 59999 bytes")
        #expect(folder.spoolContents == [])

        // A regular file: refused by its size, and accepted at exactly the limit.
        let descriptor = open(try folder.makeFile("source", content: content), O_RDONLY | O_CLOEXEC)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let file = await #expect(throws: ShareError.self) {
            try await DescriptorSpooler.spool(descriptor, name: nil, mimeType: nil, limit: 1000, temporaryDirectory: folder.spoolDirectory)
        }
        #expect(file?.kind == .badData)
        #expect(file?.message == "descriptor \(descriptor): more than 1000 bytes")
        #expect(folder.spoolContents == [])
        let exact = try await DescriptorSpooler.spool(
            descriptor, name: "exact.bin", mimeType: nil, limit: 60_000, temporaryDirectory: folder.spoolDirectory)
        #expect(exact.byteCount == 60_000)
        exact.remove()
    }

    // MARK: Cancellation

    /// The sender keeps its end open and writes nothing more: the spool's thread waits in `poll`.
    /// Cancelling wakes it at once, the partial file goes, and nothing reads the pipe afterwards.
    @Test func cancellingWhileAPipeStaysOpenStopsAtOnceAndLeavesNothing() async throws {
        let folder = try SpoolTestFolder()
        let pipe = try SpoolTestPipe()
        defer { pipe.closeWriter() }
        try SpoolTestData.writeAll(pipe.writer, Data("the first half".utf8))
        let spool = Task {
            try await DescriptorSpooler.spool(pipe.reader, name: "half.txt", mimeType: nil, temporaryDirectory: folder.spoolDirectory)
        }
        // The copy is under way (a private folder with the hidden partial file, holding what was
        // sent) and has been waiting for more for 200 ms.
        try #require(await folder.waitForPartialFile(holding: 14))
        try await Task.sleep(for: .milliseconds(200))

        let clock = ContinuousClock()
        let start = clock.now
        spool.cancel()
        // Should cancelling not wake the copy, end of file does 2 s later: the test then fails
        // instead of hanging.
        DispatchQueue.global().asyncAfter(deadline: .now() + 2) { pipe.closeWriter() }
        let result = await spool.result
        let elapsed = clock.now - start

        #expect(throws: CancellationError.self) { try result.get() }
        #expect(elapsed < .milliseconds(500), "took \(elapsed)")
        #expect(folder.spoolContents == [])
        // No thread is left reading the pipe: what is written now is still there to read.
        try SpoolTestData.writeAll(pipe.writer, Data("after".utf8))
        #expect(SpoolTestData.readAvailable(pipe.reader) == Data("after".utf8))
    }

    @Test func cancellingDuringARegularFileCopyLeavesNothing() async throws {
        let folder = try SpoolTestFolder()
        // 4 GiB of holes: far more than can be copied before the cancellation lands.
        let source = try folder.makeFile("huge", content: Data("x".utf8))
        #expect(truncate(source, 4 << 30) == 0)
        let descriptor = open(source, O_RDONLY | O_CLOEXEC)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let spool = Task {
            try await DescriptorSpooler.spool(descriptor, name: "huge.bin", mimeType: nil, temporaryDirectory: folder.spoolDirectory)
        }
        // Cancelled once the copy has begun.
        try #require(await folder.waitForPartialFile())
        spool.cancel()
        let result = await spool.result

        #expect(throws: CancellationError.self) { try result.get() }
        #expect(folder.spoolContents == [])
    }

    @Test func aTaskCancelledBeforeItStartsCopiesNothing() async throws {
        let folder = try SpoolTestFolder()
        let descriptor = open(try folder.makeFile("source", content: SampleBytes.pdf), O_RDONLY | O_CLOEXEC)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let spool = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await DescriptorSpooler.spool(descriptor, name: "a.pdf", mimeType: nil, temporaryDirectory: folder.spoolDirectory)
        }
        await #expect(throws: CancellationError.self) { try await spool.value }
        #expect(folder.spoolContents == [])
    }
}

/// Large copies while another thread samples the resident set: a copy that accumulated would
/// grow it by the whole size. One at a time, so each sees only its own copy.
@Suite(.serialized) struct DescriptorSpoolerMemoryTests {
    static let size = 1 << 30
    static let allowedGrowth = 64 << 20

    /// 256 MiB, four times the allowance, in the kernel and through the buffer: this machine
    /// writes a gigabyte of a sparse file's zeros in about 8 s.
    @Test(arguments: [true, false])
    func aLargeFileIsSpooledInBoundedMemory(inKernel: Bool) async throws {
        let size = 256 << 20
        let folder = try SpoolTestFolder()
        let source = try folder.makeFile("big", content: SampleBytes.png)
        #expect(truncate(source, off_t(size)) == 0)
        let descriptor = open(source, O_RDONLY | O_CLOEXEC)
        try #require(descriptor >= 0)
        defer { close(descriptor) }

        let sampler = ResidentSetSampler()
        let spooled = try await DescriptorSpooler.spool(
            SpoolJob(
                descriptor: descriptor, name: nil, mimeType: nil, limit: nil, parent: folder.spoolDirectory,
                copiesInKernel: inKernel))
        let growth = sampler.stop()
        defer { spooled.remove() }

        #expect(spooled.byteCount == Int64(size))
        #expect(spooled.url.lastPathComponent == "item.png")
        #expect(try FileManager.default.attributesOfItem(atPath: spooled.url.path)[.size] as? Int == size)
        #expect(sampler.sampleCount > 10, "the sampler must have watched the copy")
        #expect(growth < Self.allowedGrowth, "resident set grew by \(growth >> 20) MiB")
    }

    @Test func aGigabyteThroughAPipeIsSpooledInBoundedMemory() async throws {
        let folder = try SpoolTestFolder()
        let pipe = try SpoolTestPipe()
        let feeder = pipe.feedPattern(byteCount: Self.size)
        defer { feeder.finish() }

        let sampler = ResidentSetSampler()
        let spooled = try await DescriptorSpooler.spool(pipe.reader, name: "stream", mimeType: nil, temporaryDirectory: folder.spoolDirectory)
        let growth = sampler.stop()
        defer { spooled.remove() }

        #expect(spooled.byteCount == Int64(Self.size))
        #expect(sampler.sampleCount > 10, "the sampler must have watched the copy")
        #expect(growth < Self.allowedGrowth, "resident set grew by \(growth >> 20) MiB")
        // Spot checks that the bytes arrived in order.
        let output = open(spooled.url.path, O_RDONLY | O_CLOEXEC)
        try #require(output >= 0)
        defer { close(output) }
        for offset in [0, 3, (1 << 20) + 1, (1 << 29) + 12345, (700 << 20) + 2, Self.size - 1] {
            var byte: UInt8 = 0
            #expect(pread(output, &byte, 1, off_t(offset)) == 1)
            #expect(byte == SpoolTestData.patternByte(at: offset), "byte \(offset)")
        }
    }
}

/// Spooling throughput for BENCHMARKS.md, only when SHARESHEET_SPOOL_BENCHMARK is set:
/// `SHARESHEET_SPOOL_BENCHMARK=1 .build/debug/ShareSheetPackageTests.xctest --testing-library
/// swift-testing --filter spoolingThroughput` prints a Markdown table.
@Suite(.serialized) struct DescriptorSpoolerBenchmark {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["SHARESHEET_SPOOL_BENCHMARK"] != nil))
    func spoolingThroughput() async throws {
        let folder = try SpoolTestFolder()
        print(try await SpoolBenchmark.run(in: folder.root))
    }
}

// MARK: - Benchmark (Foundation and the public API only, so a release program can reuse it)

/// A 1 GiB file of pseudo-random bytes, spooled from the page cache and through a pipe fed by
/// `cat`, in interleaved rounds with coreutils doing the same copy; each time includes starting
/// the processes involved. Memory is the spooling process's resident-set growth, sampled every
/// millisecond during the spool.
enum SpoolBenchmark {
    static func run(in folder: URL, size: Int = 1 << 30, rounds: Int = 5) async throws -> String {
        let source = folder.appendingPathComponent("source").path
        let output = folder.appendingPathComponent("out").path
        let spoolFolder = folder.appendingPathComponent("spool", isDirectory: true)
        try FileManager.default.createDirectory(at: spoolFolder, withIntermediateDirectories: true)
        try makeSource(source, size: size)
        try shell("cat '\(source)' > /dev/null")  // into the page cache

        var times: [String: [Double]] = [:]
        var growth: [String: [Int]] = [:]
        let fileWay = "`DescriptorSpooler.spool`, regular file (sendfile, 1 MiB steps)"
        let pipeWay = "`DescriptorSpooler.spool`, pipe from `cat` (poll + read/write, 256 KiB buffer)"
        let order = [
            fileWay, "`cp FILE OUT` (copy_file_range)", "`cat FILE > OUT` (read/write, 128 KiB)",
            pipeWay, "`cat FILE \\| cat > OUT` (read/write)",
        ]
        for _ in 0..<rounds {
            // A regular file.
            let descriptor = open(source, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw POSIXError(.EBADF) }
            var sampler = ResidentSetSampler()
            var start = Date()
            let spooledFile = try await DescriptorSpooler.spool(descriptor, name: "file.bin", mimeType: nil, temporaryDirectory: spoolFolder)
            times[fileWay, default: []].append(Date().timeIntervalSince(start))
            growth[fileWay, default: []].append(sampler.stop())
            close(descriptor)
            guard spooledFile.byteCount == size else { throw POSIXError(.EIO) }
            spooledFile.remove()

            times[order[1], default: []].append(try shell("cp '\(source)' '\(output)'"))
            unlink(output)
            times[order[2], default: []].append(try shell("cat '\(source)' > '\(output)'"))
            unlink(output)

            // A pipe fed by `cat`.
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else { throw POSIXError(.EMFILE) }
            // Close-on-exec: only `cat` gets the writing end, as its standard output.
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            let null = open("/dev/null", O_RDWR | O_CLOEXEC)
            sampler = ResidentSetSampler()
            start = Date()
            let feeder = try Spawn.start(
                "/bin/cat", [source], environment: ProcessInfo.processInfo.environment, input: null, output: ends[1], error: null)
            close(null)
            close(ends[1])
            let spooledPipe = try await DescriptorSpooler.spool(ends[0], name: "pipe.bin", mimeType: nil, temporaryDirectory: spoolFolder)
            times[pipeWay, default: []].append(Date().timeIntervalSince(start))
            growth[pipeWay, default: []].append(sampler.stop())
            _ = Spawn.waitBlocking(feeder)
            close(ends[0])
            guard spooledPipe.byteCount == size else { throw POSIXError(.EIO) }
            spooledPipe.remove()

            times[order[4], default: []].append(try shell("cat '\(source)' | cat > '\(output)'"))
            unlink(output)
        }
        unlink(source)

        var table = "| how | time: median (min–max) | throughput (median) | resident-set growth (max) |\n"
        table += "|---|---|---|---|\n"
        for way in order {
            let sorted = times[way, default: []].sorted()
            let median = sorted[sorted.count / 2]
            let memory = growth[way].map { String(format: "+%.1f MiB", Double($0.max() ?? 0) / 1_048_576) } ?? "—"
            table += "| \(way) | \(format(median)) (\(format(sorted.first!))–\(format(sorted.last!))) | "
            table += String(format: "%.2f GB/s", Double(size) / median / 1e9) + " | \(memory) |\n"
        }
        return table
    }

    private static func format(_ seconds: Double) -> String {
        seconds < 1 ? String(format: "%.0f ms", seconds * 1000) : String(format: "%.2f s", seconds)
    }

    /// `size` bytes from a xorshift generator, written 1 MiB at a time.
    private static func makeSource(_ path: String, size: Int) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXError(.EACCES) }
        defer { close(descriptor) }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var chunk = [UInt64](repeating: 0, count: (1 << 20) / 8)
        for _ in 0..<(size >> 20) {
            for index in chunk.indices {
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                chunk[index] = state
            }
            let written = chunk.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written == 1 << 20 else { throw POSIXError(.EIO) }
        }
    }

    /// Runs `/bin/sh -c command` and returns how long it took.
    @discardableResult
    private static func shell(_ command: String) throws -> Double {
        let start = Date()
        let result = try Command.run("/bin/sh", ["-c", command], timeout: 600)
        guard result.status == 0 else { throw POSIXError(.EIO) }
        return Date().timeIntervalSince(start)
    }
}

// MARK: - Support

/// A folder of its own per test, with a `spool` folder inside for the spooler; removed at the end.
final class SpoolTestFolder: Sendable {
    let root: URL
    var spoolDirectory: URL { root.appendingPathComponent("spool", isDirectory: true) }

    init() throws {
        let folder = try TemporaryFolder("spooler-test")
        root = folder.url
        try folder.folder("spool")
    }

    /// What the spooler left in its temporary directory.
    var spoolContents: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: spoolDirectory.path)) ?? ["(unreadable)"]
    }

    /// Waits up to 10 s for the spooler's hidden file to hold `byteCount` bytes (nil: any).
    func waitForPartialFile(holding byteCount: Int? = nil) async -> Bool {
        for _ in 0..<1000 {
            if let folder = spoolContents.first {
                let path = spoolDirectory.appendingPathComponent(folder).appendingPathComponent(DescriptorSpooler.partialName).path
                if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int,
                    size == byteCount ?? size, size > 0
                { return true }
            }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    /// Writes a file next to the spool folder and returns its path.
    func makeFile(_ name: String, content: Data) throws -> String {
        let url = root.appendingPathComponent(name)
        try content.write(to: url)
        return url.path
    }

    deinit { TemporaryFolder(existing: root).remove() }
}

/// A pipe whose ends are closed when it goes.
final class SpoolTestPipe: Sendable {
    let reader: Int32
    let writer: Int32
    private let writerOpen = Locked(true)

    init() throws {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        reader = ends[0]
        writer = ends[1]
    }

    func closeWriter() {
        writerOpen.withLock { isOpen in
            if isOpen { close(writer) }
            isOpen = false
        }
    }

    /// Writes the pieces on a thread of its own, pausing between them, then closes the writer.
    func feed(_ pieces: [Data], pauseMilliseconds: UInt32 = 0) -> SpoolTestFeeder {
        SpoolTestFeeder(pipe: self) { writer in
            for (index, piece) in pieces.enumerated() {
                if index > 0 { usleep(pauseMilliseconds * 1000) }
                try? SpoolTestData.writeAll(writer, piece)
            }
        }
    }

    /// Writes `byteCount` bytes of `SpoolTestData.patternByte` in 1 MiB writes from one buffer.
    func feedPattern(byteCount: Int) -> SpoolTestFeeder {
        SpoolTestFeeder(pipe: self) { writer in
            let chunk = SpoolTestData.chunk
            var buffer = (0..<chunk).map(SpoolTestData.patternByte(at:))
            var offset = 0
            while offset < byteCount {
                let count = min(chunk, byteCount - offset)
                for index in 0..<8 { buffer[index] = SpoolTestData.patternByte(at: offset + index) }
                let written = buffer.withUnsafeBytes { bytes in
                    (try? SpoolTestData.writeAll(writer, UnsafeRawBufferPointer(rebasing: bytes[0..<count]))) != nil
                }
                guard written else { return }
                offset += count
            }
        }
    }

    deinit {
        closeWriter()
        close(reader)
    }
}

/// A thread writing into a pipe; `finish()` drains what nobody read (so the writer never
/// blocks, and never meets a closed reader) and waits for the thread.
final class SpoolTestFeeder: Sendable {
    private let pipe: SpoolTestPipe
    private let done = DispatchSemaphore(value: 0)

    init(pipe: SpoolTestPipe, write: @escaping @Sendable (Int32) -> Void) {
        self.pipe = pipe
        let done = self.done
        Thread.detachNewThread {
            write(pipe.writer)
            pipe.closeWriter()
            done.signal()
        }
    }

    func finish() {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while buffer.withUnsafeMutableBytes({ read(pipe.reader, $0.baseAddress, $0.count) }) > 0 {}
        done.wait()
    }
}

/// Samples `VmRSS` from /proc/self/status every millisecond on its own thread, from creation
/// until `stop()`, which returns the largest growth over the first sample.
final class ResidentSetSampler: Sendable {
    private struct State {
        var baseline = 0
        var peak = 0
        var samples = 0
        var stopped = false
    }

    private let state = Locked(State())
    private let finished = DispatchSemaphore(value: 0)

    init() {
        let baseline = Self.residentBytes()
        state.withLock {
            $0.baseline = baseline
            $0.peak = baseline
        }
        let state = self.state
        let finished = self.finished
        Thread.detachNewThread {
            while !state.withLock({ $0.stopped }) {
                let now = Self.residentBytes()
                state.withLock {
                    $0.peak = max($0.peak, now)
                    $0.samples += 1
                }
                usleep(1000)
            }
            finished.signal()
        }
    }

    var sampleCount: Int { state.withLock { $0.samples } }

    func stop() -> Int {
        state.withLock { $0.stopped = true }
        finished.wait()
        let last = Self.residentBytes()
        return state.withLock { max($0.peak, last) - $0.baseline }
    }

    /// `VmRSS` in bytes.
    static func residentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kilobytes * 1024
    }
}

enum SpoolTestData {
    static let chunk = 1 << 20

    /// A byte that depends on where it is, so that misplaced chunks show: each mebibyte starts
    /// with its number (8 bytes, little-endian), the rest follows the offset within it.
    static func patternByte(at offset: Int) -> UInt8 {
        let index = offset & (chunk - 1)
        if index < 8 { return UInt8(truncatingIfNeeded: (offset >> 20) >> (8 * index)) }
        return UInt8(truncatingIfNeeded: index &* 7 &+ index >> 8)
    }

    static func pattern(count: Int) -> Data {
        var data = Data(count: count)
        data.withUnsafeMutableBytes { (bytes: UnsafeMutableRawBufferPointer) in
            for offset in 0..<count { bytes[offset] = patternByte(at: offset) }
        }
        return data
    }

    static func writeAll(_ descriptor: Int32, _ data: Data) throws {
        try data.withUnsafeBytes { try writeAll(descriptor, $0) }
    }

    static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws {
        var written = 0
        while written < bytes.count {
            let count = write(descriptor, bytes.baseAddress! + written, bytes.count - written)
            if count < 0 {
                if errno == EINTR { continue }
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            written += count
        }
    }

    /// What can be read within a second without waiting for more.
    static func readAvailable(_ descriptor: Int32) -> Data {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 1000) == 1 else { return Data() }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        return count > 0 ? Data(buffer[0..<count]) : Data()
    }

    static func socketPair() throws -> (Int32, Int32) {
        var ends: [Int32] = [-1, -1]
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, type, 0, &ends) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return (ends[0], ends[1])
    }
}
