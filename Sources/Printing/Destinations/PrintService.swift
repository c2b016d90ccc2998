import Foundation
import ShareSheet
import ShareSheetSystem

/// How a print job ended.
public enum PrintOutcome: Sendable, Equatable {
    /// The printer reported the job completed.
    case printed(printer: String, jobID: Int32)
    /// No printer exists: the PDFs were saved (Save as PDF), in job order.
    case saved([URL])
}

/// The per-job choices of a print dialog: printer, copies, sides, paper, pages.
public struct PrintOptions: Sendable {
    /// The printer by queue name; nil for the default (or the only) printer.
    public var printer: String?
    /// How many copies.
    public var copies: Int = 1
    /// Two-sided printing; nil takes the `PrintInfo`'s.
    public var duplex: PrintInfo.Duplex?
    /// The paper.
    public var paper: PaperSize = .a4
    /// Which pages to print; nil for all.
    public var pageRanges: PageRanges?
    /// True to save the PDF even when a printer exists (the print dialog's "Save as PDF").
    public var savesPDF = false

    /// Options with the defaults: default printer, one copy, A4, every page.
    public init(
        printer: String? = nil, copies: Int = 1, duplex: PrintInfo.Duplex? = nil, paper: PaperSize = .a4,
        pageRanges: PageRanges? = nil
    ) {
        self.printer = printer
        self.copies = copies
        self.duplex = duplex
        self.paper = paper
        self.pageRanges = pageRanges
    }

    /// The IPP `sides` keyword for `duplex`.
    static func sides(_ duplex: PrintInfo.Duplex) -> String {
        switch duplex {
        case .none: return "one-sided"
        case .longEdge: return "two-sided-long-edge"
        case .shortEdge: return "two-sided-short-edge"
        }
    }
}

/// Stops a running print job from another thread: rendering stops between pages, sending
/// between chunks, and a job already at the printer is cancelled there.
public final class PrintCancellation: Sendable {
    private let state = Locked<(cancelled: Bool, hook: (@Sendable () -> Void)?)>((false, nil))

    /// Makes a token that is not cancelled.
    public init() {}

    /// True once `cancel()` was called.
    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Cancels the job.
    public func cancel() {
        let hook = state.withLock { current -> (@Sendable () -> Void)? in
            current.cancelled = true
            defer { current.hook = nil }
            return current.hook
        }
        hook?()
    }

    /// Runs `hook` on cancellation (at once when already cancelled); replaces an earlier hook.
    func onCancel(_ hook: (@Sendable () -> Void)?) {
        let runNow = state.withLock { current -> Bool in
            if current.cancelled { return true }
            current.hook = hook
            return false
        }
        if runNow { hook?() }
    }
}

/// Prints through CUPS, or saves the PDF into the Documents folder when there is no printer:
/// the Print backend as a plain API (SPEC §3).
///
/// All work is blocking; call it off the main actor (the Print activity uses its own thread).
public struct PrintService: Sendable {
    /// The CUPS scheduler: `host:port` or a socket path; nil for `$CUPS_SERVER` or libcups's
    /// default.
    public var server: String?
    /// Where Save as PDF puts files: the XDG Documents folder by default.
    public var documentsFolder: URL
    /// How often a submitted job's state is asked for.
    public var pollInterval: Double = 0.25

    /// A service for the default scheduler and the user's Documents folder.
    public init(server: String? = nil, documentsFolder: URL? = nil) {
        self.init(host: .process, server: server, documentsFolder: documentsFolder)
    }

    /// A service for a host: its `CUPS_SERVER` (else libcups's default) and its Documents folder.
    public init(host: HostEnvironment, server: String? = nil, documentsFolder: URL? = nil) {
        self.server = server ?? host["CUPS_SERVER"].flatMap { $0.isEmpty ? nil : $0 }
        self.documentsFolder = documentsFolder ?? host.directories.userDirectory(.documents)
    }

    private var resolvedServer: String { server ?? CUPSConnection.defaultServer() }

    /// The printers the scheduler lists, default first; empty when no scheduler answers.
    public func printers() -> [Printer] {
        (try? CUPSConnection(server: resolvedServer))?.printers() ?? []
    }

    /// The papers `printer` takes, the one it uses unless told first; the sizes a PDF is
    /// commonly saved on when the printer does not say (or there is no printer: nil).
    public func paperSizes(forPrinter printer: String?) -> [PaperSize] {
        var names: (supported: [String], preferred: String?) = ([], nil)
        if let printer, let connection = try? CUPSConnection(server: resolvedServer) {
            names = connection.media(ofPrinter: printer)
        }
        var sizes: [PaperSize] = []
        for name in [names.preferred].compactMap({ $0 }) + names.supported {
            // Custom ranges (`custom_min_…`) name no one size; envelopes and cards are not what
            // a shared document is printed on, and would bury the papers people pick.
            let special = ["custom_", "env", "number-", "index", "photo", "oe_", "om_", "roll", "_dl_", "iso_c"]
            guard let size = PaperSize(named: name), !special.contains(where: name.contains), !sizes.contains(size) else { continue }
            sizes.append(size)
        }
        return sizes.isEmpty ? PaperSize.common : sizes
    }

    /// True when the scheduler answers and lists no printer; false when it lists one or more;
    /// nil when no scheduler answers.
    public var schedulerListsNoPrinter: Bool? {
        guard let connection = try? CUPSConnection(server: resolvedServer) else { return nil }
        return connection.printers().isEmpty
    }

    /// The printer a job with `options` goes to, or nil to save the PDF instead.
    /// - Throws: `ShareError` when the named printer does not exist, or several exist and none
    ///   is the default.
    public func destination(for options: PrintOptions) throws -> String? {
        if options.savesPDF { return nil }
        let printers = printers()
        let names = printers.map(\.name)
        if let wanted = options.printer, !wanted.isEmpty {
            guard let match = printers.first(where: { $0.name.caseInsensitiveCompare(wanted) == .orderedSame }) else {
                let known = names.isEmpty ? "no printers exist" : "printers: " + names.joined(separator: ", ")
                throw ShareError(.unavailable, "printer \(wanted): no such printer (\(known))")
            }
            return match.name
        }
        if let preferred = printers.first(where: \.isDefault) ?? (printers.count == 1 ? printers.first : nil) {
            return preferred.name
        }
        guard printers.isEmpty else {
            throw ShareError(
                .usage, "print: several printers and no default (\(names.joined(separator: ", ")))",
                setting: .init(group: "print", "printer"), fix: .choosePrinter)
        }
        return nil
    }

    /// Renders the job and prints it on the destination `options` choose, or saves it.
    /// - Parameters:
    ///   - progress: receives pages rendered, then bytes sent (units are thousandths); when its
    ///     kind is `.page`, the pages alone (units are pages: "page 12 of 40").
    /// - Throws: `ShareError`; `CancellationError` when `cancellation` fired.
    public func run(
        _ job: PrintJobRenderer, options: PrintOptions, progress: Progress? = nil,
        cancellation: PrintCancellation = PrintCancellation(), steps: StepLog? = nil
    ) throws -> PrintOutcome {
        let printer = try destination(for: options)
        let pages = max(1, job.renderedPageCount)
        let inPages = progress?.kind == .page
        progress?.totalUnitCount = inPages ? Int64(pages) : 1000
        steps?.say("Print: rendering \(pages) page(s) of '\(job.jobName)' for \(printer.map { "printer \($0)" } ?? "a PDF")")
        let documents = try job.render(
            onPage: { drawn in
                progress?.completedUnitCount = inPages ? Int64(drawn) : Int64(500 * drawn / pages)
            }, isCancelled: { cancellation.isCancelled })
        defer { job.removeDocuments() }
        if cancellation.isCancelled { throw CancellationError() }
        guard let printer else {
            let saved = try save(documents, named: job.jobName, cancellation: cancellation)
            progress?.completedUnitCount = inPages ? Int64(pages) : 1000
            steps?.say("Print: no printer; saved " + saved.map(\.path).joined(separator: ", "))
            return .saved(saved)
        }
        let jobID = try submit(
            documents, to: printer, job: job, options: options, progress: inPages ? nil : progress, cancellation: cancellation,
            steps: steps)
        progress?.completedUnitCount = progress?.totalUnitCount ?? 0
        return .printed(printer: printer, jobID: jobID)
    }

    // MARK: CUPS

    private func submit(
        _ documents: [PrintDocument], to printer: String, job: PrintJobRenderer, options: PrintOptions,
        progress: Progress?, cancellation: PrintCancellation, steps: StepLog?
    ) throws -> Int32 {
        let server = resolvedServer
        steps?.say("Print: connecting to CUPS at \(server) for printer \(printer)")
        let connection: CUPSConnection
        do {
            connection = try CUPSConnection(server: server)
        } catch let failure as PrintFailure {
            throw ShareError(.temporaryFailure, "printer \(printer): \(failure.reason)")
        }
        if let status = connection.status(ofPrinter: printer), !status.isAcceptingJobs {
            throw ShareError(.unavailable, "printer \(printer): not accepting jobs: \(Self.reason(status))")
        }
        var ippOptions: [(String, String)] = [("copies", String(max(1, options.copies)))]
        ippOptions.append(("sides", PrintOptions.sides(options.duplex ?? job.info.duplex)))
        ippOptions.append(("media", options.paper.name))
        if let ranges = options.pageRanges { ippOptions.append(("page-ranges", ranges.description)) }
        switch job.info.outputType {
        case .grayscale, .photoGrayscale: ippOptions.append(("print-color-mode", "monochrome"))
        default: break
        }
        if job.info.outputType == .photo || job.info.outputType == .photoGrayscale {
            ippOptions.append(("print-quality", "5"))
        }
        let jobID: Int32
        do {
            jobID = try connection.createJob(printer: printer, title: job.jobName, options: ippOptions)
        } catch let failure as PrintFailure {
            if connection.lastErrorIsNotAcceptingJobs, let status = connection.status(ofPrinter: printer) {
                throw ShareError(.unavailable, "printer \(printer): not accepting jobs: \(Self.reason(status))")
            }
            throw ShareError(.unavailable, "printer \(printer): \(failure.reason)")
        }
        cancellation.onCancel {
            // A second connection: the first may be busy sending.
            (try? CUPSConnection(server: server))?.cancelJob(jobID, printer: printer)
        }
        defer { cancellation.onCancel(nil) }
        let total = max(1, documents.reduce(Int64(0)) { $0 + Self.size(of: $1.url) })
        var before: Int64 = 0
        do {
            for (index, document) in documents.enumerated() {
                try connection.sendDocument(
                    document.url, name: document.name, printer: printer, job: jobID, last: index == documents.count - 1,
                    onBytes: { sent in
                        progress?.completedUnitCount = 500 + 500 * (before + sent) / total
                    }, isCancelled: { cancellation.isCancelled })
                before += Self.size(of: document.url)
            }
        } catch is CancellationError {
            throw CancellationError()
        } catch let failure as PrintFailure {
            connection.cancelJob(jobID, printer: printer)
            throw ShareError(.ioError, "printer \(printer): job \(jobID): \(failure.reason)")
        }
        steps?.say("Print: job \(jobID) sent to \(printer) (\(documents.count) document(s), \(total) bytes); waiting for it to complete")
        try track(jobID, on: printer, connection: connection, cancellation: cancellation)
        steps?.say("Print: job \(printer)-\(jobID) completed")
        return jobID
    }

    /// Follows job `id` until it completes (returns) or is aborted or cancelled (throws).
    private func track(_ id: Int32, on printer: String, connection: CUPSConnection, cancellation: PrintCancellation) throws {
        var misses = 0
        while true {
            if cancellation.isCancelled { throw CancellationError() }
            if let status = connection.status(ofJob: id, printer: printer) {
                misses = 0
                if status.isCompleted { return }
                if status.isFinal {
                    let verb = status.state == 8 ? "aborted" : "cancelled at the printer"
                    let detail = status.message.isEmpty ? status.reasons.joined(separator: ", ") : status.message
                    throw ShareError(.ioError, "printer \(printer): job \(id) \(verb)" + (detail.isEmpty ? "" : ": \(detail)"))
                }
                if status.reasons.contains("printer-stopped"), let printerStatus = connection.status(ofPrinter: printer) {
                    throw ShareError(
                        .temporaryFailure,
                        "printer \(printer): stopped, job \(id) is waiting: \(Self.reason(printerStatus))")
                }
            } else {
                misses += 1
                if misses >= 20 { throw ShareError(.temporaryFailure, "printer \(printer): job \(id): the scheduler stopped answering") }
            }
            Thread.sleep(forTimeInterval: pollInterval)
        }
    }

    private static func reason(_ status: PrinterStatus) -> String {
        if !status.message.isEmpty { return status.message }
        let reasons = status.reasons.filter { $0 != "none" }
        return reasons.isEmpty ? "no reason given" : reasons.joined(separator: ", ")
    }

    private static func size(of url: URL) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.int64Value ?? 0
    }

    // MARK: Save as PDF

    /// Saves each document under the job's name in the Documents folder, never replacing a
    /// file: written to a temporary file in the same folder, then linked to the first free name.
    private func save(_ documents: [PrintDocument], named jobName: String, cancellation: PrintCancellation) throws -> [URL] {
        let folder = documentsFolder
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw ShareError(.ioError, "\(folder.path): cannot create the folder")
        }
        AtomicFile.removeAbandonedTemporaries(in: folder)
        var saved: [URL] = []
        do {
            for document in documents {
                if cancellation.isCancelled { throw CancellationError() }
                saved.append(try Self.saveUnique(copying: document.url, name: Self.fileName(for: jobName), in: folder))
            }
        } catch {
            for url in saved { try? FileManager.default.removeItem(at: url) }
            if error is CancellationError || error is ShareError { throw error }
            throw ShareError(.ioError, "\(folder.path): cannot save: \(error)")
        }
        return saved
    }

    /// A file name for a job: slashes and control characters replaced, `.pdf` added.
    static func fileName(for jobName: String) -> String {
        var name = String(jobName.map { $0 == "/" || $0.isNewline || ($0.asciiValue.map { $0 < 0x20 } ?? false) ? "-" : $0 })
            .trimmingCharacters(in: .whitespaces)
        while name.hasPrefix(".") { name.removeFirst() }
        if name.isEmpty { name = "Print" }
        if name.count > 200 { name = String(name.prefix(200)) }
        return name.lowercased().hasSuffix(".pdf") ? name : name + ".pdf"
    }

    /// Copies `source` into `folder` under `name` (or `name 2.pdf`…), a block at a time, so a
    /// document of any size is never held whole.
    static func saveUnique(copying source: URL, name: String, in folder: URL) throws -> URL {
        // AtomicFile's pattern (.NAME.PID.UUID.tmp), so a copy killed midway goes at the next save.
        let temporary = folder.appendingPathComponent(".sharesheet-print.\(getpid()).\(UUID().uuidString).tmp")
        try copy(source, to: temporary)
        defer { unlink(temporary.path) }
        let base = (name as NSString).deletingPathExtension
        for number in 1...10_000 {
            let candidate = folder.appendingPathComponent(number == 1 ? name : "\(base) \(number).pdf")
            if link(temporary.path, candidate.path) == 0 { return candidate }
            guard errno == EEXIST else {
                throw ShareError(.ioError, "\(candidate.path): cannot save: \(String(cString: strerror(errno)))")
            }
        }
        throw ShareError(.ioError, "\(folder.path): no free name for \(name)")
    }

    /// Writes a copy of `source` at `destination` (a new file), flushed to disk.
    private static func copy(_ source: URL, to destination: URL) throws {
        let input = open(source.path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw ShareError(.ioError, "\(source.lastPathComponent): cannot be read") }
        defer { close(input) }
        let output = open(destination.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard output >= 0 else {
            throw ShareError(.ioError, "\(destination.deletingLastPathComponent().path): cannot save: \(String(cString: strerror(errno)))")
        }
        var failure: String?
        let block = UnsafeMutableRawPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { block.deallocate() }
        copying: while true {
            let count = read(input, block, 1 << 20)
            if count < 0 {
                if errno == EINTR { continue }
                failure = String(cString: strerror(errno))
                break
            }
            if count == 0 { break }
            var written = 0
            while written < count {
                let step = write(output, block + written, count - written)
                if step < 0 {
                    if errno == EINTR { continue }
                    failure = String(cString: strerror(errno))
                    break copying
                }
                written += step
            }
        }
        if failure == nil, fsync(output) != 0 { failure = String(cString: strerror(errno)) }
        close(output)
        if let failure {
            unlink(destination.path)
            throw ShareError(.ioError, "\(destination.deletingLastPathComponent().path): cannot save: \(failure)")
        }
    }
}
