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
/// The suggestions the sheet would show (`listSuggestions(items:options:)`) are shared with
/// by id, skipping the sheet: `WireOptions(suggestion: suggestions[0].id)`.
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
        let wire = try ClientItems(items)
        defer { withExtendedLifetime(wire) {} }
        let call = ClientCall(
            busAddress: busAddress, share: WireShareCall(items: wire.items, options: options), descriptors: wire.descriptors,
            closeGrace: closeGrace)
        let response = try await withTaskCancellationHandler {
            try await call.run()
        } onCancel: {
            call.cancel()
        }
        return ShareResult(response)
    }

    /// The people, devices and applications the share sheet suggests for `items`, best first
    /// (`ListSuggestions`); nothing is shown. Pass one's `id` as the `suggestion` option of
    /// ``share(_:_:)`` to share with it without the sheet.
    /// - Parameters:
    ///   - items: at least one, as for ``share(_:_:)``: the suggestions depend on their kinds.
    ///   - options: `excluded-activities` and `custom-actions` count; the rest is ignored.
    /// - Returns: the suggestions, each with its activity's name and the presets it applies;
    ///   `ActivitySuggestion(_:)` makes the library's from one.
    /// - Throws: `ShareError` `.noInput` for a file that cannot be opened, `.unavailable` when
    ///   there is no bus or no service to reach, `.badData` for items the service refused.
    public func listSuggestions(items: [Item], options: WireOptions = WireOptions()) async throws -> [WireSuggestion] {
        let wire = try ClientItems(items)
        defer { withExtendedLifetime(wire) {} }
        return try await ClientListing.suggestions(
            busAddress: busAddress, call: WireItemsCall(items: wire.items, options: options), descriptors: wire.descriptors)
    }
}
