import Foundation
import ShareSheet
import ShareSheetSystem

/// Copy (`.copyToPasteboard`): puts text, links, images, colors and dictionaries on the general
/// pasteboard, each in every representation other programs ask for.
public final class CopyActivity: BuiltInActivity {
    private let pasteboard: Pasteboard?
    private var items: [PasteboardItem] = []
    private var preparationError: (any Error)?
    private var work: Task<Void, Never>?

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
            items = try activityItems.map(PasteboardItem.init)
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
                try pasteboard.setItems(items)
                await self?.finishCopied(location: file?.path, fallback: fallback)
            } catch {
                self?.activityDidFail(error)
            }
        }
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
