import Foundation
import ShareServiceProtocol
import ShareSheet
import Sharing

/// Shares through the share service on the session bus (SPEC §8), for applications: the items
/// and options go over the wire format, files as descriptors, and the `Response` comes back as
/// the same `ShareResult` the library and `share --json` give.
///
/// ```swift
/// let result = try await ShareClient().share([.text("hello")], WireOptions(activity: "copy", interactive: false))
/// ```
///
/// The client needs no GLib main loop of its own: each share runs its bus connection on a
/// thread of its own. Cancelling the task closes the request, which dismisses the sheet.
public struct ShareClient: Sendable {
    /// An item to share.
    public enum Item: Sendable, Equatable {
        /// Text.
        case text(String)
        /// A link with any scheme but `file:` (a file is sent with `file`).
        case url(URL)
        /// A file, opened here and sent as a descriptor, so the service needs no access to its path.
        /// - Parameters:
        ///   - name: the name the sheet shows; the file's own name when nil.
        ///   - mimeType: its type; the service guesses from the name when nil.
        case file(URL, name: String? = nil, mimeType: String? = nil)
    }

    /// The bus to use; the session bus when nil.
    public var busAddress: String?
    /// How long a cancelled share waits for the `Response` its Close brings.
    public var closeGrace: Duration = .seconds(5)

    /// A client of the session bus's share service (or the bus at `busAddress`).
    public init(busAddress: String? = nil) {
        self.busAddress = busAddress
    }

    /// Shares `items` with `options` and waits until the share ends.
    /// - Parameters:
    ///   - items: at least one.
    ///   - options: as `Share` takes them; `handle_token` is made here when not given.
    /// - Returns: the share's result; a refused call or a failed share is a result with an error,
    ///   as in the library.
    /// - Throws: `ShareError` `.noInput` for a file that cannot be opened, `.unavailable` when
    ///   there is no bus or no service to reach.
    public func share(_ items: [Item], _ options: WireOptions = WireOptions()) async throws -> ShareResult {
        var options = options
        if options.handleToken == nil {
            options.handleToken = "client_\(getpid())_\(UInt32.random(in: 0...UInt32.max))"
        }
        var wireItems: [WireItem] = []
        var descriptors: [Int32] = []
        defer { for descriptor in descriptors { close(descriptor) } }
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
                    throw ShareError(.noInput, "\(url.path): \(String(cString: strerror(errno)))")
                }
                descriptors.append(descriptor)
                wireItems.append(.file(descriptor: Int32(descriptors.count - 1), name: name, mimeType: mimeType))
            }
        }
        let call = ClientCall(
            busAddress: busAddress, share: WireShareCall(items: wireItems, options: options), descriptors: descriptors,
            closeGrace: closeGrace)
        let response = try await withTaskCancellationHandler {
            try await call.run()
        } onCancel: {
            call.cancel()
        }
        return ShareResult(response)
    }
}
