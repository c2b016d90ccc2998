import CGIO
import DBus
import Foundation
import GLibErrors
import GVariants
import ShareServiceProtocol
import ShareSheet

/// One `ListSuggestions` call, made on a thread of its own with its own GLib main context, so
/// the caller needs no main loop and the wait blocks no task.
enum ClientListing {
    /// The suggestions for `call`'s items.
    /// - Throws: `ShareError`: `.unavailable` when no service can be reached, `.badData` for
    ///   items or options the service refused (its message says which), `.ioError` for a reply
    ///   that is not a listing.
    static func suggestions(busAddress: String?, call: WireItemsCall, descriptors: [Int32]) async throws -> [WireSuggestion] {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try suggestionsHere(busAddress: busAddress, call: call, descriptors: descriptors) })
            }
        }
    }

    private static func suggestionsHere(busAddress: String?, call: WireItemsCall, descriptors: [Int32]) throws -> [WireSuggestion] {
        let context = g_main_context_new()!
        g_main_context_push_thread_default(context)
        defer {
            g_main_context_pop_thread_default(context)
            g_main_context_unref(context)
        }
        let connection = try ClientBus.connect(busAddress)
        let fileList = try ClientBus.fileList(descriptors)
        let reply: GVariant
        do throws(GLibError) {
            reply = try connection.callSync(
                ServiceNames.busName, path: ServiceNames.objectPath, interface: ServiceNames.interface,
                method: "ListSuggestions", arguments: call.encode(), replyType: "(aa{sv})", descriptors: fileList)
        } catch {
            // The service refuses items or options it cannot take with InvalidArgs, in one line.
            let refused = error.remoteName == "org.freedesktop.DBus.Error.InvalidArgs"
            throw ShareError(refused ? .badData : .unavailable, "the share service: \(error.message)")
        }
        do {
            return try WireSuggestionListing.decode(reply)
        } catch let malformed as WireError {
            throw ShareError(.ioError, "the share service: \(malformed.message)")
        }
    }
}
