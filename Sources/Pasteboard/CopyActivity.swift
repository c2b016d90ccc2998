import Foundation
import ShareSheet
import ShareSheetSystem

/// Copy (`.copyToPasteboard`): puts text, links, images, colors and dictionaries on the general
/// pasteboard, each in every representation other programs ask for.
///
/// A file made for this share only (`ShareScopedFiles`: a descriptor the share service
/// received) goes when the share ends, long before anyone pastes: Copy keeps a private copy of
/// it (`ClipboardFiles`, under `$XDG_CACHE_HOME/sharesheet/clipboard`) and puts that on the
/// clipboard instead, for as long as the clipboard holds it.
public final class CopyActivity: BuiltInActivity {
    private let pasteboard: Pasteboard?
    private var items: [Pending] = []
    private var preparationError: (any Error)?
    private var work: Task<Void, Never>?

    /// An item as prepared: ready, or a share's own file still to be kept.
    private enum Pending: Sendable {
        case ready(PasteboardItem)
        case scopedFile(URL)
    }

    /// Makes the activity; it copies to `pasteboard`, or when nil to the clipboard of the
    /// activity's `hostEnvironment` (its Wayland or X11 display, else the pasteboard file in its
    /// data folder).
    public init(
        descriptor: BuiltInActivityDescriptor = BuiltInActivityDescriptor.catalog.first { $0.type == .copyToPasteboard }!,
        pasteboard: Pasteboard? = nil
    ) {
        self.pasteboard = pasteboard
        super.init(descriptor: descriptor)
    }

    public override func prepare(withActivityItems activityItems: [Any]) {
        do {
            items = try activityItems.map { item in
                if let url = item as? URL, ShareScopedFiles.contains(url) { return .scopedFile(url) }
                return .ready(try PasteboardItem(item))
            }
        } catch {
            preparationError = error
        }
    }

    /// The clipboard it would copy to: the session's, else the pasteboard file.
    public override var route: ActivityRoute? {
        let backend = pasteboard?.backend ?? Pasteboard.automaticBackend(environment: hostEnvironment.variables)
        return ActivityRoute("copies to the \(backend.name)", isFallback: backend is FilePasteboard)
    }

    public override func perform() {
        if let preparationError { return activityDidFail(preparationError) }
        let items = self.items
        let host = hostEnvironment
        let automatic = self.pasteboard == nil
        let pasteboard = self.pasteboard ?? Pasteboard(backend: Pasteboard.automaticBackend(environment: host.variables))
        let keptRoot = ClipboardFiles.root(cacheHome: host.directories.cacheHome)
        // Copied to a file, there is one place; without a display that file is a fallback.
        let file = (pasteboard.backend as? FilePasteboard)?.file
        let fallback = file.flatMap { file in
            automatic
                ? ActivityFallback(
                    message: "There is no display here, so the copy went to ShareSheet's own pasteboard file: \(file.path)",
                    hint: "copies reach the desktop clipboard where WAYLAND_DISPLAY or DISPLAY is set", fix: .readPasteboard,
                    path: file.path)
                : nil
        }
        work = Task.detached { [weak self] in
            do {
                try Task.checkCancellation()
                try Self.copy(items, to: pasteboard, keepingUnder: keptRoot)
                await self?.finishCopied(location: file?.path, fallback: fallback)
            } catch {
                self?.activityDidFail(error)
            }
        }
    }

    /// Keeps private copies of the share's own files, puts everything on `pasteboard`, then
    /// removes the copies earlier contents named whose owner is gone.
    private nonisolated static func copy(_ pending: [Pending], to pasteboard: Pasteboard, keepingUnder root: URL) throws {
        var files: ClipboardFiles?
        var items: [PasteboardItem] = []
        do {
            for item in pending {
                switch item {
                case .ready(let ready): items.append(ready)
                case .scopedFile(let url):
                    let kept = try files ?? ClipboardFiles(root: root)
                    files = kept
                    items.append(try PasteboardItem(url: try kept.keep(url)))
                }
            }
            try Task.checkCancellation()
        } catch {
            files?.discard()
            throw error
        }
        if let files { try pasteboard.setItems(items, keeping: files) } else { try pasteboard.setItems(items) }
        ClipboardFiles.removeAbandoned(under: root, keeping: files?.folder)
    }

    private func finishCopied(location: String?, fallback: ActivityFallback?) {
        disposition = .copied
        self.location = location
        self.fallback = fallback
        activityDidFinish(true)
    }

    public override func cancel() {
        work?.cancel()
    }
}
