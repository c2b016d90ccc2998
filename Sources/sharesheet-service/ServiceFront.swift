import CGIO
import GVariants
import GLibErrors
import Glibc
import ShareServiceProtocol

/// The share service's front: owns `org.sharesheet.ShareSheet` from the moment the bus starts
/// it, answers `Share` at once with the request's handle, and keeps every call until the
/// service proper (`share --service`, started beside it) is ready.
///
/// Why a front: `share` names over a hundred shared libraries (GTK, curl, CUPS, GMime…), and
/// loading them takes most of the cold start; the front loads GIO only. The handover:
/// 1. the front owns the name, allowing replacement, then starts `share --service` with one
///    end of a socket pair (after, so the name can only pass from the front to it);
/// 2. `share` takes the name over (replacing the front), then connects to the front over the
///    socket pair (peer-to-peer D-Bus, `WorkerInterfaceXML`);
/// 3. the front passes on every call it took, with the caller's name and descriptors: `share`
///    serves those requests as its own (object, caller watch, `Response`), and the front relays
///    `ListActivities` replies;
/// 4. with nothing left to pass on, the front ends.
/// If `share` cannot start, every request the front answered gets `Response` 2 saying why.
///
/// Everything runs on the main thread, inside GLib's main loop.
final class ServiceFront {
    /// A call the front took and has not yet passed on.
    enum Pending {
        /// A `Share` the front answered with `path`; `parameters` is the service's
        /// `(s sender, o handle, s parent_window, aa{sv} items, a{sv} options)`.
        case share(sender: String, path: String, parameters: OpaquePointer, descriptors: UnsafeMutablePointer<GUnixFDList>?)
        /// A `ListActivities` waiting for its reply; `parameters` is `(s sender, aa{sv}, a{sv})`.
        case list(invocation: OpaquePointer, parameters: OpaquePointer, descriptors: UnsafeMutablePointer<GUnixFDList>?)
        /// A `Close` of the request at `path` by its caller.
        case close(sender: String, path: String)
    }

    private let bus: OpaquePointer
    private let node: UnsafeMutablePointer<GDBusNodeInfo>
    private let loop: OpaquePointer
    /// The peer-to-peer connection to `share --service`, once it has connected.
    private var worker: OpaquePointer?
    /// Why `share --service` will never connect.
    private var workerFailure: String?
    private var pending: [Pending] = []
    /// Calls passed on whose reply has not come yet.
    private var inFlight = 0
    private var ownedName = false
    private var lostName = false
    /// The request objects the front made: path → the caller and the registration.
    private var requests: [String: (sender: String, registration: guint)] = [:]
    private var generatedTokens = 0
    private var ending = false
    private var status: Int32 = 0

    private init(bus: OpaquePointer, node: UnsafeMutablePointer<GDBusNodeInfo>) {
        self.bus = bus
        self.node = node
        self.loop = g_main_loop_new(nil, 0)
    }

    /// Serves until the service has taken everything over; returns the exit status.
    static func run() -> Int32 {
        var error: UnsafeMutablePointer<GError>?
        guard let node = g_dbus_node_info_new_for_xml(InterfaceXML.text, &error) else {
            warn("the interface description does not parse: \(GLibError(taking: &error, call: "g_dbus_node_info_new_for_xml").message)")
            return 70
        }
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            warn("no session bus to serve on (DBUS_SESSION_BUS_ADDRESS): \(GLibError(taking: &error, call: "g_bus_get_sync").message)")
            return 69
        }
        let front = ServiceFront(bus: bus, node: node)
        // The front lives until the process ends; GLib holds it unretained.
        let data = Unmanaged.passRetained(front).toOpaque()
        guard front.serve(data) else { return 70 }
        g_bus_own_name_on_connection(
            bus, ServiceNames.busName,
            GBusNameOwnerFlags(G_BUS_NAME_OWNER_FLAGS_ALLOW_REPLACEMENT.rawValue | G_BUS_NAME_OWNER_FLAGS_DO_NOT_QUEUE.rawValue),
            frontNameAcquired, frontNameLost, data, nil)
        g_main_loop_run(front.loop)
        return front.status
    }

    // MARK: The service proper

    /// Starts `share --service` with one end of a socket pair, and waits for it on the other.
    private func startWorker() {
        let data = Unmanaged.passUnretained(self).toOpaque()
        guard let program = WorkerProgram.path() else {
            workerFailure = "cannot find the share program beside \(WorkerProgram.frontPath()) or in ../bin"
            return
        }
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            workerFailure = "cannot make a socket pair for \(program): \(String(cString: strerror(errno)))"
            return
        }
        switch WorkerProgram.spawn(program, arguments: ["--service"], passing: ends[1]) {
        case .success: break
        case .failure(let reason):
            close(ends[0])
            workerFailure = "cannot start \(program): \(reason)"
            return
        }
        var error: UnsafeMutablePointer<GError>?
        guard let socket = g_socket_new_from_fd(ends[0], &error) else {
            close(ends[0])
            workerFailure = "cannot use the socket to \(program): \(GLibError(taking: &error, call: "g_socket_new_from_fd").message)"
            return
        }
        let connection = g_socket_connection_factory_create_connection(socket)!
        g_object_unref(socket)
        let guid = g_dbus_generate_guid()
        g_dbus_connection_new(
            UnsafeMutableRawPointer(connection).assumingMemoryBound(to: GIOStream.self), guid,
            G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_SERVER, nil, nil, workerConnectionMade, data)
        g_free(guid)
        g_object_unref(connection)
        // A share that neither connects nor ends (stuck loading, say) must not leave callers
        // waiting on a front that holds the name forever.
        g_timeout_add_seconds(Self.takeOverSeconds, takeOverDeadline, data)
    }

    /// How long `share --service` has to take over before the front gives up on it.
    static let takeOverSeconds: guint = 30

    func takeOverDeadlinePassed() {
        guard worker == nil, workerFailure == nil else { return }
        workerFailure = "the share program in service mode did not take over within \(Self.takeOverSeconds) s"
        passOn()
    }

    func workerConnected(_ connection: OpaquePointer?, error: String?) {
        if let connection {
            worker = connection
        } else {
            workerFailure = "the share program in service mode ended before it could take the calls over\(error.map { " (\($0))" } ?? "")"
        }
        passOn()
    }

    // MARK: The bus

    /// Exports the service's object; false when it cannot be.
    private func serve(_ data: UnsafeMutableRawPointer) -> Bool {
        var vtable = GDBusInterfaceVTable(
            method_call: frontMethodCall, get_property: frontGetProperty, set_property: nil,
            padding: (nil, nil, nil, nil, nil, nil, nil, nil))
        var error: UnsafeMutablePointer<GError>?
        let id = g_dbus_connection_register_object(
            bus, ServiceNames.objectPath, g_dbus_node_info_lookup_interface(node, ServiceNames.interface), &vtable, data, nil,
            &error)
        if id == 0 {
            Self.warn("cannot serve \(ServiceNames.objectPath): \(GLibError(taking: &error, call: "g_dbus_connection_register_object").message)")
        }
        return id != 0
    }

    func nameAcquired() {
        ownedName = true
        startWorker()
        passOn()
    }

    func nameLost() {
        lostName = true
        // Another service had the name already: it serves, and nothing was taken here.
        guard ownedName else { return end(status: 0) }
        endWhenDone()
    }

    func handle(method: String, sender: String, path: String, parameters: OpaquePointer, invocation: OpaquePointer) {
        let descriptors = g_dbus_message_get_unix_fd_list(g_dbus_method_invocation_get_message(invocation))
        if let descriptors { g_object_ref(descriptors) }
        switch (path, method) {
        case (ServiceNames.objectPath, "Share"):
            share(sender: sender, parameters: parameters, descriptors: descriptors, invocation: invocation)
        case (ServiceNames.objectPath, "ListActivities"):
            // The caller's arguments as they came, after its name (WorkerInterfaceXML).
            let forwarded = GVariant.tuple([.string(sender)] + GVariant(borrowing: parameters).children)
            take(.list(invocation: invocation, parameters: forwarded.withPointer { g_variant_ref($0) }, descriptors: descriptors))
        case (_, "Close"):
            if let descriptors { g_object_unref(descriptors) }
            guard let request = requests[path] else {
                return g_dbus_method_invocation_return_dbus_error(
                    invocation, "org.freedesktop.DBus.Error.UnknownObject", "this request has ended")
            }
            guard request.sender == sender else {
                return g_dbus_method_invocation_return_dbus_error(
                    invocation, "org.freedesktop.DBus.Error.AccessDenied", "only the caller that made this request may close it")
            }
            g_dbus_method_invocation_return_value(invocation, nil)
            take(.close(sender: sender, path: path))
        default:
            if let descriptors { g_object_unref(descriptors) }
            g_dbus_method_invocation_return_dbus_error(invocation, "org.freedesktop.DBus.Error.UnknownMethod", "no method \(method)")
        }
    }

    /// Answers `Share` with its request's path at once; the service does the rest.
    private func share(
        sender: String, parameters: OpaquePointer, descriptors: UnsafeMutablePointer<GUnixFDList>?, invocation: OpaquePointer
    ) {
        // Only the token is read here; the service reads the rest, and says what is wrong with it.
        let options = GVariant(taking: g_variant_get_child_value(parameters, 2))
        var token: String?
        if let value = options.lookup("handle_token") {
            guard let text = value.string, value.typeString == "s", ServiceNames.isValidToken(text) else {
                if let descriptors { g_object_unref(descriptors) }
                return invalidArguments(invocation, ServiceNames.invalidTokenMessage)
            }
            token = text
        }
        if token == nil { generatedTokens += 1 }
        let path = ServiceNames.requestPath(
            sender: sender, token: token ?? ServiceNames.generatedToken(process: getpid(), number: generatedTokens))
        guard requests[path] == nil else {
            if let descriptors { g_object_unref(descriptors) }
            return invalidArguments(invocation, "handle_token \(token ?? "") is in use by another request of yours")
        }
        var vtable = GDBusInterfaceVTable(
            method_call: frontMethodCall, get_property: nil, set_property: nil, padding: (nil, nil, nil, nil, nil, nil, nil, nil))
        let registration = g_dbus_connection_register_object(
            bus, path, g_dbus_node_info_lookup_interface(node, ServiceNames.requestInterface), &vtable,
            Unmanaged.passUnretained(self).toOpaque(), nil, nil)
        guard registration != 0 else {
            if let descriptors { g_object_unref(descriptors) }
            return invalidArguments(invocation, "cannot make the request object \(path)")
        }
        requests[path] = (sender, registration)
        g_dbus_method_invocation_return_value(invocation, Variant.tuple([Variant.objectPath(path)]))
        let forwarded = GVariant.tuple([.string(sender), .objectPath(path)] + GVariant(borrowing: parameters).children)
        take(.share(sender: sender, path: path, parameters: forwarded.withPointer { g_variant_ref($0) }, descriptors: descriptors))
    }

    private func invalidArguments(_ invocation: OpaquePointer, _ message: String) {
        g_dbus_method_invocation_return_dbus_error(invocation, "org.freedesktop.DBus.Error.InvalidArgs", message)
    }

    // MARK: Passing calls on

    private func take(_ call: Pending) {
        pending.append(call)
        passOn()
    }

    /// Passes every pending call to the service, or fails them when it will never come.
    private func passOn() {
        guard worker != nil || workerFailure != nil else { return }
        let calls = pending
        pending.removeAll()
        for call in calls {
            if let worker { send(call, to: worker) } else { fail(call, workerFailure ?? "") }
        }
        endWhenDone()
    }

    private func send(_ call: Pending, to worker: OpaquePointer) {
        let method: String
        let parameters: OpaquePointer
        var descriptors: UnsafeMutablePointer<GUnixFDList>?
        switch call {
        case .share(_, _, let values, let fds): (method, parameters, descriptors) = ("Share", values, fds)
        case .list(_, let values, let fds): (method, parameters, descriptors) = ("ListActivities", values, fds)
        case .close(let sender, let path):
            method = "Close"
            parameters = g_variant_ref_sink(Variant.tuple([Variant.string(sender), Variant.objectPath(path)]))
        }
        inFlight += 1
        let context = Unmanaged.passRetained(PassedCall(front: self, call: call)).toOpaque()
        g_dbus_connection_call_with_unix_fd_list(
            worker, nil, ServiceNames.objectPath, WorkerInterfaceXML.interface, method, parameters, nil,
            G_DBUS_CALL_FLAGS_NONE, -1, descriptors, nil, callPassedOn, context)
        g_variant_unref(parameters)
        if let descriptors { g_object_unref(descriptors) }
    }

    /// The service's reply to a call passed on: relayed for `ListActivities`; for `Share`, an
    /// error means the service did not take the request, so the caller hears it from here.
    func passedOn(_ passed: PassedCall, reply: OpaquePointer?, error: GLibError?) {
        inFlight -= 1
        switch passed.call {
        case .list(let invocation, _, _):
            if let reply {
                g_dbus_method_invocation_return_value(invocation, reply)
            } else {
                relay(error, to: invocation)
            }
        case .share(let sender, let path, _, _):
            if reply == nil { respondFailed(sender: sender, path: path, error?.message ?? "unknown error") }
        case .close: break
        }
        if let reply { g_variant_unref(reply) }
        endWhenDone()
    }

    /// Ends a call that can no longer be passed on.
    private func fail(_ call: Pending, _ reason: String) {
        switch call {
        case .share(let sender, let path, let parameters, let descriptors):
            respondFailed(sender: sender, path: path, reason)
            g_variant_unref(parameters)
            if let descriptors { g_object_unref(descriptors) }
        case .list(let invocation, let parameters, let descriptors):
            g_dbus_method_invocation_return_dbus_error(invocation, "org.freedesktop.DBus.Error.Failed", reason)
            g_variant_unref(parameters)
            if let descriptors { g_object_unref(descriptors) }
        case .close: break
        }
    }

    /// `Response` 2 to the request's caller, with the reason in the fields `share --json` uses.
    private func respondFailed(sender: String, path: String, _ reason: String) {
        let response = WireResponse(
            response: WireResponse.failed,
            results: WireResults(completed: false, errorCode: "temporary-failure", errorMessage: reason))
        response.encode().withPointer {
            _ = g_dbus_connection_emit_signal(bus, sender, path, ServiceNames.requestInterface, "Response", $0, nil)
        }
        if let request = requests.removeValue(forKey: path) { g_dbus_connection_unregister_object(bus, request.registration) }
    }

    /// The service's D-Bus error, under its own name, to the caller.
    private func relay(_ error: GLibError?, to invocation: OpaquePointer) {
        g_dbus_method_invocation_return_dbus_error(
            invocation, error?.remoteName ?? "org.freedesktop.DBus.Error.Failed", error?.message ?? "unknown error")
    }

    // MARK: The end

    /// Ends once the service has the name and every call taken here has been passed on, or when
    /// there will be no service and every call has been answered.
    private func endWhenDone() {
        guard pending.isEmpty, inFlight == 0 else { return }
        if workerFailure != nil {
            Self.warn(workerFailure ?? "")
            end(status: 1)
        } else if worker != nil, lostName {
            end(status: 0)
        }
    }

    /// Sends what is queued, then ends the main loop a moment later: calls the bus routed here
    /// before the handover are dispatched before the name-lost signal, so none is left behind.
    private func end(status: Int32) {
        guard !ending else { return }
        ending = true
        self.status = status
        if ownedName, !lostName { releaseName() }
        g_dbus_connection_flush_sync(bus, nil, nil)
        g_timeout_add(50, quitLoop, Unmanaged.passUnretained(self).toOpaque())
    }

    func quit() { g_main_loop_quit(loop) }

    /// Gives the name back before ending without a service to hand it to: a call the bus routes
    /// here after the loop has ended would never be answered (the caller gets NoReply once the
    /// process leaves the bus, seen when the exit is slow, as under the thread sanitizer); with
    /// the name free, the bus starts a fresh front for it. A call routed here before the release
    /// is still dispatched before the loop ends, and answered.
    private func releaseName() {
        var error: UnsafeMutablePointer<GError>?
        let reply = g_dbus_connection_call_sync(
            bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "ReleaseName",
            Variant.tuple([Variant.string(ServiceNames.busName)]), nil, G_DBUS_CALL_FLAGS_NONE, -1, nil, &error)
        if let reply { g_variant_unref(reply) }
        if error != nil {
            Self.warn("cannot give the name back: \(GLibError(taking: &error, call: "g_dbus_connection_call_sync").message)")
        }
    }

    // MARK: Messages

    static func warn(_ message: String) {
        say("sharesheet-service: \(message)\n", to: STDERR_FILENO)
    }

}

/// Writes `text` to a descriptor whole (stdio's streams are shared mutable state to Swift 6).
func say(_ text: String, to descriptor: Int32) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else { return }
        bytes = bytes.dropFirst(written)
    }
}

/// A call passed on to the service, through GLib's user data until its reply.
final class PassedCall {
    let front: ServiceFront
    let call: ServiceFront.Pending
    init(front: ServiceFront, call: ServiceFront.Pending) {
        self.front = front
        self.call = call
    }
}
