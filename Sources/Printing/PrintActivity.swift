import Foundation
import ShareSheet
import ShareSheetSystem

/// The built-in Print activity: renders the items to PDF with Cairo and Pango and prints them
/// through CUPS, following the job until the printer completes or aborts it. With no printer
/// it saves the PDF into the Documents folder, named after the job (Save as PDF).
///
/// Its interface is the print dialog: printer, copies, sides, paper, pages and job name, each
/// settable from the command line with `--set FIELD=VALUE`.
public final class PrintActivity: BuiltInActivity {
    /// The catalog's description of Print.
    public nonisolated static var printDescriptor: BuiltInActivityDescriptor {
        BuiltInActivityDescriptor.catalog.first { $0.type == .print }!
    }

    private let givenService: PrintService?
    private var items: [Any] = []
    private let cancellation = Locked<PrintCancellation?>(nil)
    /// Signalled when the job's thread has cleaned up and ended.
    private let finished = Locked<DispatchSemaphore?>(nil)

    /// Makes the activity; `service` says where jobs go. When nil, jobs go to the scheduler and
    /// the Documents folder of the activity's `hostEnvironment`, and an empty printer field
    /// takes `[print] printer=` from its configuration.
    public init(descriptor: BuiltInActivityDescriptor = PrintActivity.printDescriptor, service: PrintService? = nil) {
        givenService = service
        super.init(descriptor: descriptor)
    }

    public override func prepare(withActivityItems activityItems: [Any]) {
        items = activityItems
    }

    private var printInfo: PrintInfo? { items.lazy.compactMap { $0 as? PrintInfo }.first }

    /// The job name: the print info's, else the first file's name, else the subject.
    private var suggestedJobName: String {
        if let info = printInfo { return info.jobName }
        for item in items {
            switch item {
            case let url as URL where url.isFileURL: return url.deletingPathExtension().lastPathComponent
            case let data as DataItem: return (data.filename as NSString).deletingPathExtension
            case let image as Image where image.fileURL != nil: return image.fileURL!.deletingPathExtension().lastPathComponent
            default: continue
            }
        }
        if let subject = context.subject, !subject.isEmpty { return subject }
        return "Print"
    }

    /// Every field, also when no printer is listed and the interface is not shown.
    public override var presetKeys: Set<String> { ["printer", "copies", "sides", "media", "pages", "job"] }

    public override var activityInterface: ActivityInterface? {
        let duplex = printInfo?.duplex ?? PrintInfo.Duplex.none
        let sides = ChoiceOptions([
            .init(id: "one-sided", title: "One-sided"),
            .init(id: "two-sided-long-edge", title: "Two-sided, long edge"),
            .init(id: "two-sided-short-edge", title: "Two-sided, short edge"),
        ])
        let service = givenService ?? PrintService(host: hostEnvironment)
        let printers = presetPrinter == nil ? service.printers() : []
        let printer = Self.printerChoice(printers, configured: configuredPrinter)
        // Without a printer the job is saved as a PDF: the print dialog's questions are then
        // details a terminal does not ask at all (`asksAdvancedFields`), and a window keeps
        // behind "more"; each is still settable with --set.
        let advanced = presetPrinter == nil && printers.isEmpty
        let chosenPrinter = presetPrinter ?? printer.defaultValue?.text
        let paper = Self.paperChoice(service.paperSizes(forPrinter: chosenPrinter == Self.saveAsPDF ? nil : chosenPrinter))
        let fields = [
            InterfaceField(
                id: "printer", label: "Printer", kind: .choice(printer.options), defaultValue: printer.defaultValue,
                help: "a CUPS queue, or Save as PDF for a file in Documents; the default printer when none is given",
                isAdvanced: advanced),
            InterfaceField(
                id: "copies", label: "Copies", kind: .integer(1...999), defaultValue: .integer(1), isAdvanced: advanced),
            InterfaceField(
                id: "sides", label: "Sides", kind: .choice(sides), defaultValue: .choice(PrintOptions.sides(duplex)),
                isAdvanced: advanced),
            InterfaceField(
                id: "media", label: "Paper", kind: .choice(paper), defaultValue: paper.current.first.map { .choice($0.id) },
                help: "a4, letter, legal, a3, a5, tabloid, or a PWG name like iso_a4_210x297mm", isAdvanced: advanced),
            InterfaceField(id: "pages", label: "Pages", kind: .text, help: "all when empty; or like 1-3,5", isAdvanced: advanced),
            InterfaceField(
                id: "job", label: "Job name", kind: .text, defaultValue: .text(suggestedJobName), isAdvanced: advanced),
        ]
        var interface = ActivityInterface(
            title: "Print", message: advanced ? "No printer is set up: the document will be saved as PDF." : nil,
            fields: fields, submitTitle: "Print",
            validate: { values in
                var problems: [String: String] = [:]
                if let media = values["media"]?.text, !media.isEmpty, PaperSize(named: media) == nil {
                    problems["media"] = "unknown paper \(media) (use " + PaperSize.aliasNames.joined(separator: ", ") + " or a PWG name)"
                }
                if let pages = values["pages"]?.text, !pages.isEmpty, PageRanges(pages) == nil {
                    problems["pages"] = "not a page list: \(pages) (like 1-3,5)"
                }
                return problems
            },
            onSubmit: { [weak self] values in self?.start(with: values) })
        interface.submitTitleForValues = { values in
            let saves = values["printer"]?.text == Self.saveAsPDF || (advanced && (values["printer"]?.isEmpty ?? true))
            return saves ? "Save PDF" : nil
        }
        let job = HandedOver((items: items, info: printInfo))
        interface.preview = { values in
            let paper = values["media"].flatMap { PaperSize(named: $0.text) } ?? .a4
            return try await Task.detached(priority: .userInitiated) {
                try PrintPreview.render(items: job.value.items, info: job.value.info, paper: paper, width: 360)
            }.value
        }
        interface.asksAdvancedFields = !advanced
        return interface
    }

    public override var route: ActivityRoute? {
        PrintRoute.route(service: givenService ?? PrintService(host: hostEnvironment), host: hostEnvironment)
    }

    /// The print dialog's fields; before `prepare` the job name is the default one.
    public override var declaredFields: [InterfaceField] { activityInterface?.fields ?? [] }

    /// The choice that saves a PDF instead of printing ("Save as PDF").
    static let saveAsPDF = "save-as-pdf"

    /// The printer named with `--set printer=`, when one was: the scheduler is then not asked
    /// for its list (the name is checked when the job starts, as before).
    private var presetPrinter: String? {
        guard let named = context.presetValues["printer"]?.text, !named.isEmpty else { return nil }
        return named
    }

    /// `[print] printer=` of the configuration, when set.
    private var configuredPrinter: String? {
        (try? hostEnvironment.loadConfiguration())?.string("printer", in: "print").flatMap {
            let name = $0.trimmingCharacters(in: .whitespaces)
            return name.isEmpty ? nil : name
        }
    }

    /// The printers the scheduler lists, then Save as PDF ("Save as PDF" alone, first, when
    /// there is none), and the one chosen unless the person picks another: the configured
    /// printer, else the default, else the only one; none when several exist and none is the
    /// default, so the job says to choose. A queue typed by name (`--set printer=`) becomes an
    /// option too, and is checked when the job starts.
    static func printerChoice(_ printers: [Printer], configured: String?) -> (options: ChoiceOptions, defaultValue: InterfaceValue?) {
        var listed = printers.map { printer in
            ChoiceOptions.Option(
                id: printer.name, title: printer.info ?? printer.name,
                detail: printer.isDefault ? "Default printer" : (printer.info == nil ? nil : printer.name),
                iconName: "printer", kind: "Printer")
        }
        listed.append(.init(id: saveAsPDF, title: "Save as PDF", detail: "A file in Documents", iconName: "x-office-document"))
        let options = ChoiceOptions(listed)
        options.optionForTypedText = { name in .init(id: name, title: name, iconName: "printer", kind: "Printer") }
        let chosen =
            printers.first { $0.name.caseInsensitiveCompare(configured ?? "") == .orderedSame }
            ?? printers.first(where: \.isDefault) ?? (printers.count == 1 ? printers.first : nil)
        if let chosen { return (options, .choice(chosen.name)) }
        return (options, printers.isEmpty ? .choice(saveAsPDF) : nil)
    }

    /// The papers the printer takes, by their names; a paper typed by name or alias
    /// (`--set media=letter`) becomes an option too.
    static func paperChoice(_ sizes: [PaperSize]) -> ChoiceOptions {
        let options = ChoiceOptions(sizes.map { .init(id: $0.name, title: $0.title) })
        options.optionForTypedText = { name in
            PaperSize(named: name).map { .init(id: name, title: $0.title) }
        }
        return options
    }

    /// Prints with the values of the interface.
    private func start(with values: InterfaceValues) {
        var options = PrintOptions()
        let host = hostEnvironment
        let service = givenService ?? PrintService(host: host)
        if let printer = values["printer"]?.text, printer == Self.saveAsPDF {
            options.savesPDF = true
        } else if let printer = values["printer"]?.text, !printer.isEmpty {
            options.printer = printer
        } else {
            do {
                options.printer = try host.loadConfiguration().string("printer", in: "print").flatMap {
                    $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0
                }
            } catch {
                return activityDidFail(error)
            }
        }
        let configurationFile = host.configurationFileDisplayPath
        if case .integer(let copies)? = values["copies"] { options.copies = copies }
        switch values["sides"]?.text {
        case "two-sided-long-edge": options.duplex = .longEdge
        case "two-sided-short-edge": options.duplex = .shortEdge
        case "one-sided": options.duplex = PrintInfo.Duplex.none
        default: break
        }
        if let media = values["media"]?.text, let paper = PaperSize(named: media) { options.paper = paper }
        if let pages = values["pages"]?.text, !pages.isEmpty { options.pageRanges = PageRanges(pages) }
        let info = printInfo ?? PrintInfo()
        if let job = values["job"]?.text, !job.isEmpty { info.jobName = job } else { info.jobName = suggestedJobName }

        progress.kind = .page  // counted in pages rendered: the command shows "page 12 of 40"
        let steps = host.steps
        let token = PrintCancellation()
        cancellation.withLock { $0 = token }
        let ended = DispatchSemaphore(value: 0)
        finished.withLock { $0 = ended }
        let work = HandedOver((items: items, info: info, options: options, service: service, progress: progress))
        let thread = Thread { [weak self] in
            defer { ended.signal() }
            let job = work.value
            do {
                // Save as PDF keeps only the chosen pages; a printer gets them as page-ranges.
                let saving = try job.service.destination(for: job.options) == nil
                let renderer = try PrintJobRenderer(
                    items: job.items, info: job.info, paper: job.options.paper,
                    pageSelection: saving ? job.options.pageRanges : nil, isCancelled: { token.isCancelled })
                let outcome = try job.service.run(
                    renderer, options: job.options, progress: job.progress, cancellation: token, steps: steps)
                Task { @MainActor in
                    self?.finish(outcome, configurationFile: configurationFile)
                }
            } catch is CancellationError {
                self?.activityDidFinish(false)
            } catch let error as ShareError {
                self?.activityDidFail(error)
            } catch {
                self?.activityDidFail(ShareError(.ioError, "print: \(error)"))
            }
        }
        thread.name = "print job"
        thread.start()
    }

    /// Says where the job went, then finishes.
    private func finish(_ outcome: PrintOutcome, configurationFile: String) {
        switch outcome {
        case .printed(let printer, let id):
            returnedItems = ["\(printer)-\(id)"]
            disposition = .printed
            location = "\(printer)-\(id)"
        case .saved(let urls):
            returnedItems = urls
            disposition = .saved
            location = urls.first?.path
            let saved = urls.map(\.path).joined(separator: ", ")
            fallback = ActivityFallback(
                message: "No printer is set up, so the document was saved as PDF: \(saved)",
                setting: .init(group: "print", "printer"), fix: .addPrinter, path: configurationFile)
        }
        activityDidFinish(true)
    }

    /// Stops the job: rendering stops at the next page, a job at the printer is cancelled
    /// there, and the call waits (a few seconds at most) until the temporary files are gone, so
    /// a command that exits right after leaves nothing behind.
    public override func cancel() {
        cancellation.withLock { $0 }?.cancel()
        _ = finished.withLock { $0 }?.wait(timeout: .now() + 5)
    }
}
