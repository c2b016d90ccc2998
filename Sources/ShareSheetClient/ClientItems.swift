import Foundation
import ShareServiceProtocol
import ShareSheet

/// A client's items in the wire format: files opened here, read-only, and sent as descriptors.
final class ClientItems {
    /// The items, files as indexes into `descriptors`.
    let items: [WireItem]
    /// The descriptors opened for the files, in order; closed when this goes away.
    let descriptors: [Int32]

    /// Opens each file of `items`.
    /// - Throws: `ShareError(.noInput)` naming a file that cannot be opened (those opened before
    ///   it are closed).
    init(_ items: [ShareClient.Item]) throws {
        var wireItems: [WireItem] = []
        var descriptors: [Int32] = []
        for item in items {
            switch item {
            case .text(let text): wireItems.append(.text(text))
            case .url(let url) where !url.isFileURL: wireItems.append(.uri(url.absoluteString))
            case .url(let url), .file(let url, _, _):
                var name = url.lastPathComponent
                var mimeType: String?
                if case .file(_, let given, let type) = item {
                    name = given ?? name
                    mimeType = type
                }
                let descriptor = open(url.path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
                guard descriptor >= 0 else {
                    let reason = String(cString: strerror(errno))
                    for opened in descriptors { close(opened) }
                    throw ShareError(.noInput, "\(url.path): \(reason)")
                }
                descriptors.append(descriptor)
                wireItems.append(.file(descriptor: Int32(descriptors.count - 1), name: name, mimeType: mimeType))
            }
        }
        self.items = wireItems
        self.descriptors = descriptors
    }

    deinit {
        for descriptor in descriptors { close(descriptor) }
    }
}
