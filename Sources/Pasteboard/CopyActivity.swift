import Foundation
import ShareSheet

/// Copy (`.copyToPasteboard`): puts text, links, images, colors and dictionaries on the general
/// pasteboard, each in every representation other programs ask for.
public final class CopyActivity: BuiltInActivity {
    private let pasteboard: Pasteboard?
    private var items: [PasteboardItem] = []
    private var preparationError: (any Error)?
    private var work: Task<Void, Never>?

    /// Makes the activity; it copies to `pasteboard`, or to `Pasteboard.general` when nil.
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

    public override func perform() {
        if let preparationError { return activityDidFail(preparationError) }
        let items = self.items
        let pasteboard = self.pasteboard ?? Pasteboard.general
        work = Task.detached { [weak self] in
            do {
                try Task.checkCancellation()
                try pasteboard.setItems(items)
                self?.activityDidFinish(true)
            } catch {
                self?.activityDidFail(error)
            }
        }
    }

    public override func cancel() {
        work?.cancel()
    }
}
