import CGIO
import Foundation
import GLibErrors
import GVariants
import ShareServiceProtocol
import ShareSheet
import Synchronization

/// One `Share` call and the wait for its `Response`, on a thread with a GLib main context of
/// its own, so the caller needs no main loop.
final class ClientCall: Sendable {
    let busAddress: String?
    let share: WireShareCall
    let descriptors: [Int32]
    let closeGrace: Duration
    /// The thread's context while it runs, as an address (for `cancel`), and whether Close is wanted.
    private let state = Mutex<(context: UInt, cancelled: Bool)>((0, false))

    init(busAddress: String?, share: WireShareCall, descriptors: [Int32], closeGrace: Duration) {
        self.busAddress = busAddress
        self.share = share
        self.descriptors = descriptors
        self.closeGrace = closeGrace
    }

    func run() async throws -> WireResponse {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try self.runHere() }) }
        }
    }

    /// Asks for the request to be closed; its Response still ends the call.
    func cancel() {
        let context = state.withLock { state -> UInt in
            state.cancelled = true
            return state.context
        }
        if context != 0 { g_main_context_wakeup(OpaquePointer(bitPattern: context)) }
    }

    private func runHere() throws -> WireResponse {
        let context = g_main_context_new()!
        g_main_context_push_thread_default(context)
        defer {
            state.withLock { $0.context = 0 }
            g_main_context_pop_thread_default(context)
            g_main_context_unref(context)
        }
        state.withLock { $0.context = UInt(bitPattern: context) }
        let connection = try connect()
        defer {
            g_dbus_connection_flush_sync(connection, nil, nil)
            g_object_unref(UnsafeMutableRawPointer(connection))
        }
        let inbox = ResponseInbox()
        let box = Unmanaged.passRetained(inbox).toOpaque()
        let subscription = g_dbus_connection_signal_subscribe(
            connection, ServiceNames.busName, ServiceNames.requestInterface, "Response", nil, nil,
            G_DBUS_SIGNAL_FLAGS_NONE, clientResponse, box, releaseInbox)
        defer { g_dbus_connection_signal_unsubscribe(connection, subscription) }

        let handle = try callShare(connection)
        var closedAt: ContinuousClock.Instant?
        while true {
            if let response = inbox.responses[handle] { return response }
            let cancelled = state.withLock { $0.cancelled }
            if cancelled, closedAt == nil {
                closedAt = .now
                g_dbus_connection_call(
                    connection, ServiceNames.busName, handle, ServiceNames.requestInterface, "Close", nil, nil,
                    G_DBUS_CALL_FLAGS_NONE, -1, nil, nil, nil)
            }
            guard let closedAt else {
                // Until a Response, or `cancel` wakes the context.
                g_main_context_iteration(context, 1)
                continue
            }
            if ContinuousClock.now - closedAt > closeGrace {
                return WireResponse(
                    response: WireResponse.dismissed, results: WireResults(completed: false, disposition: "cancelled"))
            }
            // Closed: looked at every 20 ms, to give up after the grace.
            if g_main_context_iteration(context, 0) == 0 { usleep(20_000) }
        }
    }

    private func connect() throws -> OpaquePointer {
        var error: UnsafeMutablePointer<GError>?
        let address: String
        if let busAddress {
            address = busAddress
        } else if let found = g_dbus_address_get_for_bus_sync(G_BUS_TYPE_SESSION, nil, &error) {
            address = String(cString: found)
            g_free(found)
        } else {
            let failure = GLibError(taking: &error, call: "g_dbus_address_get_for_bus_sync")
            throw ShareError(.unavailable, "no session bus: \(failure.message)")
        }
        let flags = GDBusConnectionFlags(
            G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        guard let connection = g_dbus_connection_new_for_address_sync(address, flags, nil, nil, &error) else {
            let failure = GLibError(taking: &error, call: "g_dbus_connection_new_for_address_sync")
            throw ShareError(.unavailable, "cannot connect to the session bus at \(address): \(failure.message)")
        }
        return connection
    }

    /// Sends `Share` with the files' descriptors; returns the request's path.
    private func callShare(_ connection: OpaquePointer) throws -> String {
        let fileList = g_unix_fd_list_new()!
        defer { g_object_unref(fileList) }
        var error: UnsafeMutablePointer<GError>?
        for descriptor in descriptors where g_unix_fd_list_append(fileList, descriptor, &error) < 0 {
            let failure = GLibError(taking: &error, call: "g_unix_fd_list_append")
            throw ShareError(.ioError, "cannot pass a file to the share service: \(failure.message)")
        }
        let reply = share.encode().withPointer { parameters in
            g_dbus_connection_call_with_unix_fd_list_sync(
                connection, ServiceNames.busName, ServiceNames.objectPath, ServiceNames.interface, "Share", parameters,
                Variant.type("(o)"), G_DBUS_CALL_FLAGS_NONE, -1, fileList, nil, nil, &error)
        }
        guard let reply else {
            let failure = GLibError(taking: &error, call: "g_dbus_connection_call_with_unix_fd_list_sync")
            throw ShareError(.unavailable, "the share service: \(failure.message)")
        }
        return GVariant(taking: reply).children.first?.string ?? ""
    }
}

/// The Responses that came, by request path; touched only on the call's thread.
final class ResponseInbox: @unchecked Sendable {
    var responses: [String: WireResponse] = [:]
}

private func clientResponse(
    _ connection: OpaquePointer?, _ sender: UnsafePointer<gchar>?, _ path: UnsafePointer<gchar>?,
    _ interface: UnsafePointer<gchar>?, _ member: UnsafePointer<gchar>?, _ parameters: OpaquePointer?,
    _ data: gpointer?
) {
    guard let data, let parameters, let path else { return }
    let inbox = Unmanaged<ResponseInbox>.fromOpaque(data).takeUnretainedValue()
    let response: WireResponse
    do {
        response = try WireResponse(decoding: GVariant(borrowing: parameters))
    } catch {
        response = WireResponse(
            response: WireResponse.failed,
            results: WireResults(completed: false, errorCode: "io-error", errorMessage: "the share service: \(error)"))
    }
    inbox.responses[String(cString: path)] = response
}

private func releaseInbox(_ data: gpointer?) {
    guard let data else { return }
    Unmanaged<ResponseInbox>.fromOpaque(data).release()
}
