import Foundation
import ShareSheet
import ShareSheetSystem
import UniformTypes

extension BuiltInActivityDescriptor {
    /// Open In: hands a file, image, typed data or link to another application (seed 003).
    public static let openIn = BuiltInActivityDescriptor(
        type: .openIn, title: "Open In…", name: "open-in", category: .action, acceptance: .openIn)
}

extension ItemAcceptance {
    /// Open In: files, images, typed data, web and other scheme links.
    public static let openIn = ItemAcceptance("files, images, typed data, web and other links") { kind in
        switch kind {
        case .fileURL(let type): return !type.conforms(to: .folder)
        case .image, .webURL, .schemeURL: return true
        case .data(_, let declared): return declared
        default: return false
        }
    }
}

/// "Open In…": offers the desktop's applications for the first item it can open, the default
/// first, then the recommended and the fallback ones, and starts the one picked.
///
/// The question is skipped when only one application fits, when the person already chose a
/// default for the type, or when the caller names one (`presetValues["app"]`, the CLI's `--app`).
/// "Always use for this type" makes the pick the desktop default, which `xdg-open` follows too. Typed
/// data and in-memory images are written to a named file first, under
/// `$XDG_CACHE_HOME/sharesheet/open-in/`.
public final class OpenInActivity: BuiltInActivity {
    /// The interface field holding the chosen application's desktop-file id.
    public static let applicationField = "app"
    /// The interface toggle that makes the choice the desktop default.
    public static let rememberField = "remember"

    private let workspace: Workspace
    private let givenTemporaryFolder: URL?
    private var target: Target?
    private var candidates: [Application] = []
    private var chosenDefault: Application?
    private let work = Locked<Task<Void, Never>?>(nil)

    /// Makes the activity over a workspace (the desktop's by default).
    /// - Parameter temporaryFolder: where typed data is written before it is opened; defaults
    ///   to `$XDG_CACHE_HOME/sharesheet/open-in` of the activity's `hostEnvironment`.
    public init(
        descriptor: BuiltInActivityDescriptor = .openIn, workspace: Workspace = .shared, temporaryFolder: URL? = nil
    ) {
        self.workspace = workspace
        givenTemporaryFolder = temporaryFolder
        super.init(descriptor: descriptor)
    }

    /// Where typed data is written before it is opened.
    private var temporaryFolder: URL {
        givenTemporaryFolder
            ?? hostEnvironment.directories.cacheHome.appendingPathComponent("sharesheet/open-in", isDirectory: true)
    }

    /// The item to open: a URL (file or link) or bytes to write to a named file first.
    enum Target {
        case url(URL, contentType: String, note: String?)
        case data(Data, filename: String, contentType: String)
        case unopenable(description: String, reason: String)

        var contentType: String? {
            switch self {
            case .url(_, let type, _), .data(_, _, let type): return type
            case .unopenable: return nil
            }
        }
    }

    // MARK: Offering

    public override func canPerform(withActivityItems activityItems: [Any]) -> Bool {
        guard let (target, applications) = lookUp(activityItems) else { return false }
        if case .unopenable = target { return false }
        return !applications.isEmpty
    }

    public override func unavailableReason(forActivityItems activityItems: [Any]) -> String? {
        guard let (target, applications) = lookUp(activityItems) else {
            return super.unavailableReason(forActivityItems: activityItems)
        }
        if case .unopenable(let description, let reason) = target { return "\(description): \(reason)" }
        if applications.isEmpty { return "no application on this desktop opens \(target.contentType ?? "it")" }
        return nil
    }

    public override func explanation(forActivityItems activityItems: [Any]) -> [ExplanationLine] {
        guard let (target, applications) = lookUp(activityItems) else { return [] }
        var lines: [ExplanationLine] = []
        switch target {
        case .url(let url, let type, let note):
            let opened = "opens: \(url.isFileURL ? url.path : url.absoluteString) as \(type)"
            lines.append(ExplanationLine(opened + (note.map { " (\($0))" } ?? "")))
        case .data(_, let filename, let type):
            lines.append("opens: \(filename) as \(type) (written to a named temporary file first)")
        case .unopenable(let description, let reason):
            return ["opens: nothing: \(description): \(reason)"]
        }
        guard let type = target.contentType else { return lines }
        if applications.isEmpty {
            lines.append("candidates: none: no desktop entry on this desktop lists \(type)")
            return lines
        }
        lines.append("candidates (default first, then recommended, then fallback):")
        let chosen = workspace.chosenDefault(forContentType: type)
        for (index, application) in applications.enumerated() {
            let why: String
            switch application.role {
            case .default:
                if chosen != nil {
                    why = "default: chosen for \(type) in mimeapps.list"
                } else if workspace.isRegistered(application, forContentType: type) {
                    why = "default: the first application registered for \(type); no default was chosen"
                } else {
                    why = "default: the first application registered for a broader type \(type) belongs to"
                }
            case .recommended: why = "recommended: its desktop entry lists \(type)"
            case .fallback: why = "fallback: its desktop entry lists a broader type \(type) belongs to"
            case .chosen: why = "chosen by id"
            }
            let icon = application.iconName.map { ", icon \($0)" } ?? ""
            lines.append("  \(index + 1). \(application.name) (\(application.id)\(icon)): \(why)")
        }
        if applications.count == 1 {
            lines.append("question: skipped, only one application fits")
        } else if let chosen {
            lines.append("question: skipped, \(chosen.name) was chosen as the default")
        } else {
            lines.append("question: asked, \(applications.count) applications fit, unless one is given ahead")
        }
        return lines
    }

    // MARK: Running

    public override func prepare(withActivityItems activityItems: [Any]) {
        guard let (target, applications) = lookUp(activityItems) else { return }
        self.target = target
        candidates = applications
        chosenDefault = target.contentType.flatMap { workspace.chosenDefault(forContentType: $0) }
    }

    /// The application named by the caller (`--app`), if any.
    private var presetApplicationID: String? {
        guard let value = context.presetValues[Self.applicationField], !value.isEmpty else { return nil }
        return value.text
    }

    private var presetRemember: Bool {
        guard let value = context.presetValues[Self.rememberField] else { return false }
        if case .bool(let flag) = value { return flag }
        return ["y", "yes", "true", "on", "1"].contains(value.text.lowercased())
    }

    /// Which application, and whether to make it the default for `contentType`.
    private static func fields(applications: ChoiceOptions, contentType: String?) -> [InterfaceField] {
        [
            InterfaceField(id: applicationField, label: "Application", kind: .choice(applications), isRequired: true),
            InterfaceField(
                id: rememberField, label: "Always use for this type", kind: .toggle, defaultValue: .bool(false),
                help: "make it the desktop's default for \(typeName(contentType))"),
        ]
    }

    /// The type in words ("PDF document"), as Files names it; the type itself when the desktop
    /// has no words for it.
    private static func typeName(_ contentType: String?) -> String {
        guard let contentType else { return "this type" }
        return UTType(mimeType: contentType)?.localizedDescription ?? contentType
    }

    public override var declaredFields: [InterfaceField] { Self.fields(applications: ChoiceOptions([]), contentType: nil) }

    public override var route: ActivityRoute? {
        ActivityRoute("opens the items with an application of this desktop registered for their type")
    }

    /// The application and "remember my choice", read also when `--app` leaves nothing to ask.
    public override var presetKeys: Set<String> { [Self.applicationField, Self.rememberField] }

    public override var activityInterface: ActivityInterface? {
        guard presetApplicationID == nil, candidates.count > 1, chosenDefault == nil else { return nil }
        let options = candidates.map { application in
            ChoiceOptions.Option(
                id: application.id, title: application.name, detail: application.role.description,
                iconName: application.iconName)
        }
        let name = target.map(Self.displayName) ?? "the item"
        return ActivityInterface(
            title: "Open In…", message: "Open \(name) with:",
            fields: Self.fields(applications: ChoiceOptions(options), contentType: target?.contentType),
            submitTitle: "Open"
        ) { [weak self] values in
            guard let self else { return }
            let id = values[Self.applicationField]?.text ?? ""
            var remember = false
            if case .bool(let flag)? = values[Self.rememberField] { remember = flag }
            self.start(applicationID: id, remember: remember)
        }
    }

    public override func perform() {
        if let id = presetApplicationID {
            start(applicationID: id, remember: presetRemember)
        } else if let application = chosenDefault ?? (candidates.count == 1 ? candidates.first : nil) {
            start(applicationID: application.id, remember: presetRemember)
        } else if let target, case .unopenable(let description, let reason) = target {
            activityDidFail(ShareError(.badData, "Open In: \(description): \(reason)"))
        } else {
            activityDidFail(ShareError(.unavailable, "Open In: no application was chosen"))
        }
    }

    public override func cancel() {
        work.withLock { $0?.cancel() }
    }

    private func start(applicationID id: String, remember: Bool) {
        guard let target else {
            activityDidFail(ShareError(.unavailable, "Open In: there is nothing it can open"))
            return
        }
        let application =
            candidates.first { $0.id == id || $0.id == id + ".desktop" } ?? workspace.application(withID: id)
        guard let application else {
            activityDidFail(ShareError(.unavailable, "Open In: \(id): no such application is installed"))
            return
        }
        let workspace = self.workspace
        let folder = temporaryFolder
        let task = Task.detached { [weak self] in
            let outcome = Self.run(target, with: application, remember: remember, workspace: workspace, folder: folder)
            switch outcome {
            case .success(let url):
                await MainActor.run {
                    self?.returnedItems = [url]
                    self?.disposition = .handedOff
                    self?.location = application.id
                }
                self?.activityDidFinish(true)
            case .failure(let error):
                self?.activityDidFail(error)
            }
        }
        work.withLock { $0 = task }
    }

    /// Writes typed data, remembers the choice when asked, and launches; off the main actor.
    private nonisolated static func run(
        _ target: Target, with application: Application, remember: Bool, workspace: Workspace, folder: URL
    ) -> Result<URL, ShareError> {
        let url: URL
        let contentType: String
        var written: URL?
        switch target {
        case .url(let targetURL, let type, _):
            url = targetURL
            contentType = type
        case .data(let data, let filename, let type):
            let file = folder.appendingPathComponent(UUID().uuidString, isDirectory: true)
                .appendingPathComponent(filename)
            do {
                try AtomicFile.write(data, to: file, permissions: 0o600)
            } catch {
                return .failure(ShareError(.ioError, "Open In: \(filename): cannot write a temporary file: \(error)"))
            }
            url = file
            contentType = type
            written = file
        case .unopenable(let description, let reason):
            return .failure(ShareError(.badData, "Open In: \(description): \(reason)"))
        }
        func discardWritten() {
            if let written {
                try? FileManager.default.removeItem(at: written.deletingLastPathComponent())
            }
        }
        if Task.isCancelled {
            discardWritten()
            return .failure(ShareError(.cancelled, "Open In: cancelled"))
        }
        do {
            if remember { try workspace.setDefault(application, forContentType: contentType) }
            try workspace.open([url], with: application)
        } catch let error as WorkspaceError {
            discardWritten()
            return .failure(ShareError(error.kind.shareErrorKind, "Open In: " + error.message))
        } catch {
            discardWritten()
            return .failure(ShareError(.unavailable, "Open In: \(application.name): \(error)"))
        }
        return .success(url)
    }

    // MARK: Items

    /// The first item Open In can use, and its applications.
    private func lookUp(_ items: [Any]) -> (Target, [Application])? {
        guard let item = items.first(where: descriptor.acceptance.accepts(item:)) else { return nil }
        let target = Self.target(for: item, workspace: workspace)
        switch target {
        case .url(let url, let type, _):
            if !url.isFileURL, let route = try? workspace.route(url) {
                return (.url(route.url, contentType: route.contentType, note: route.note), route.applications)
            }
            return (target, workspace.applications(forContentType: type))
        case .data(_, _, let type):
            return (target, workspace.applications(forContentType: type))
        case .unopenable:
            return (target, [])
        }
    }

    static func target(for item: Any, workspace: Workspace) -> Target {
        switch item {
        case let url as URL:
            return .url(url, contentType: workspace.contentType(for: url), note: nil)
        case let dataItem as DataItem:
            let type = dataItem.type.preferredMIMEType ?? Workspace.mimeType(ofData: dataItem.data, filename: dataItem.filename)
            return .data(dataItem.data, filename: safeFilename(dataItem.filename, type: dataItem.type), contentType: type)
        case let image as Image:
            if let fileURL = image.fileURL {
                return .url(fileURL, contentType: workspace.contentType(for: fileURL), note: nil)
            }
            guard let data = image.encodedData else {
                return .unopenable(description: "image", reason: "it has no encoded data")
            }
            let type = image.type.preferredMIMEType ?? Workspace.mimeType(ofData: data, filename: "image")
            return .data(data, filename: "image." + (image.type.preferredFilenameExtension ?? "img"), contentType: type)
        default:
            return .unopenable(description: String(describing: Swift.type(of: item)), reason: "Open In cannot open it")
        }
    }

    /// The last path component of `name`, never empty, `.` or `..`; an extension from `type`
    /// when it has none.
    static func safeFilename(_ name: String, type: UTType) -> String {
        var base = (name as NSString).lastPathComponent.replacingOccurrences(of: "\0", with: "")
        if base.isEmpty || base == "." || base == ".." || base == "/" { base = "data" }
        if (base as NSString).pathExtension.isEmpty, let ext = type.preferredFilenameExtension { base += "." + ext }
        return base
    }

    private static func displayName(_ target: Target) -> String {
        switch target {
        case .url(let url, _, _): return url.isFileURL ? url.lastPathComponent : url.absoluteString
        case .data(_, let filename, _): return filename
        case .unopenable(let description, _): return description
        }
    }
}

extension WorkspaceError.Kind {
    /// The `ShareError` kind (and so the exit status) of a workspace failure.
    public var shareErrorKind: ShareError.Kind {
        switch self {
        case .noHandler, .launchFailed, .noSuchApplication: return .unavailable
        case .missingFile: return .noInput
        case .configurationFailed: return .ioError
        }
    }
}
