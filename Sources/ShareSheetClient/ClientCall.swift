import CGIO
import DBus
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
        let connection = try ClientBus.connect(busAddress)
        defer { connection.flush() }
        let inbox = ResponseInbox()
        // Delivered by this thread's context, which only this loop iterates.
        let subscription = connection.subscribe(
            sender: ServiceNames.busName, interface: ServiceNames.requestInterface, signal: "Response"
        ) { inbox.received($0) }
        defer { connection.unsubscribe(subscription) }

        let handle = try callShare(connection)
        var closedAt: ContinuousClock.Instant?
        while true {
            if let response = inbox.responses[handle] { return response }
            let cancelled = state.withLock { $0.cancelled }
            if cancelled, closedAt == nil {
                closedAt = .now
                connection.send(ServiceNames.busName, path: handle, interface: ServiceNames.requestInterface, method: "Close")
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

    /// Sends `Share` with the files' descriptors; returns the request's path.
    private func callShare(_ connection: DBusConnection) throws -> String {
        let fileList = try ClientBus.fileList(descriptors)
        do throws(GLibError) {
            let reply = try connection.callSync(
                ServiceNames.busName, path: ServiceNames.objectPath, interface: ServiceNames.interface, method: "Share",
                arguments: share.encode(), replyType: "(o)", descriptors: fileList)
            return reply.children.first?.string ?? ""
        } catch {
            throw ShareError(.unavailable, "the share service: \(error.message)")
        }
    }
}

/// The Responses that came, by request path; touched only on the call's thread.
final class ResponseInbox: @unchecked Sendable {
    var responses: [String: WireResponse] = [:]

    /// Reads a `Response` signal; one that cannot be read still ends its request, as a failure.
    func received(_ signal: DBusSignal) {
        let response: WireResponse
        do {
            response = try WireResponse(decoding: signal.arguments)
        } catch {
            response = WireResponse(
                response: WireResponse.failed,
                results: WireResults(completed: false, errorCode: "io-error", errorMessage: "the share service: \(error)"))
        }
        responses[signal.path] = response
    }
}
