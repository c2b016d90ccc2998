import CGIO
import GVariants
import Foundation
import GLibErrors
import ShareServiceProtocol
import ShareSheet
import Sharing

/// The share service (SPEC §8): `org.sharesheet.ShareSheet` on the session bus, serving
/// `ListActivities` and `Share` from any application until it has been idle a while.
///
/// Everything runs on the main actor inside `GLibMainLoop`: GDBus delivers method calls from
/// GLib's default main context on the main thread. Descriptors are read only by providers,
/// after the pick and off the main thread, so a slow or stuck caller never holds up the others.
///
/// Started by the front (`sharesheet-service`, what D-Bus activation runs), it takes the name
/// over from the front, then serves the calls the front took meanwhile as its own: they arrive
/// over the socket the front gave it (`WorkerInterfaceXML`) with their callers' names.
@MainActor
public final class ShareServer {
    public nonisolated static let busName = ServiceNames.busName
    public nonisolated static let objectPath = ServiceNames.objectPath

    private let host: ShareHost
    private let idleTime: Duration
    private let warn: (String) -> Void
    /// The socket to the front that started this service, until its calls are taken over.
    private var frontDescriptor: Int32?
    /// The connection to the front, kept while the front passes its calls on.
    private var front: OpaquePointer?
    private var node: UnsafeMutablePointer<GDBusNodeInfo>?
    private var ownerID: guint = 0
    private var connection: OpaquePointer?
    private var requests: [String: ServiceRequest] = [:]
    private var idleTimer: Task<Void, Never>?
    private var lastUse = ContinuousClock.now
    private var generatedTokens = 0
    private var ending: CheckedContinuation<Int32, Never>?
    private var status: Int32 = 0

    /// Makes the service.
    /// - Parameters:
    ///   - idleTime: how long it waits without requests before it exits.
    ///   - front: the descriptor of the socket to the front that started this service; the
    ///     service then replaces the front as the name's owner and serves what it took.
    ///   - warn: says a line on standard error (the service has no one else to tell).
    public init(host: ShareHost, idleTime: Duration = .seconds(30), front: Int32? = nil, warn: @escaping (String) -> Void) {
        self.host = host
        self.idleTime = idleTime
        self.frontDescriptor = front
        self.warn = warn
    }

    /// Serves until idle; returns the exit status (0, or 69 when the name cannot be had).
    public func run() async -> Int32 {
        var error: UnsafeMutablePointer<GError>?
        node = g_dbus_node_info_new_for_xml(InterfaceXML.text, &error)
        if error != nil {
            warn("the interface description does not parse: \(GLibError(taking: &error, call: "g_dbus_node_info_new_for_xml").message)")
            return 70
        }
        let box = Unmanaged.passRetained(ServerBox(self)).toOpaque()
        // The front lets its name be replaced; nobody may replace this service.
        let flags = frontDescriptor == nil
            ? G_BUS_NAME_OWNER_FLAGS_DO_NOT_QUEUE
            : GBusNameOwnerFlags(G_BUS_NAME_OWNER_FLAGS_REPLACE.rawValue | G_BUS_NAME_OWNER_FLAGS_DO_NOT_QUEUE.rawValue)
        ownerID = g_bus_own_name(G_BUS_TYPE_SESSION, Self.busName, flags, busAcquired, nameAcquired, nameLost, box, releaseServerBox)
        return await withCheckedContinuation { ending = $0 }
    }

    // MARK: The bus

    fileprivate func acquired(_ connection: OpaquePointer) {
        self.connection = connection
        var vtable = GDBusInterfaceVTable(
            method_call: serverMethodCall, get_property: serverGetProperty, set_property: nil,
            padding: (nil, nil, nil, nil, nil, nil, nil, nil))
        var error: UnsafeMutablePointer<GError>?
        let box = Unmanaged.passRetained(ServerBox(self)).toOpaque()
        let id = g_dbus_connection_register_object(
            connection, Self.objectPath, interface(ServiceNames.interface), &vtable, box, releaseServerBox, &error)
        if id == 0 {
            warn("cannot serve \(Self.objectPath): \(GLibError(taking: &error, call: "g_dbus_connection_register_object").message)")
            end(status: 70)
        }
    }

    fileprivate func nameAcquiredNow() {
        restartIdleTimer()
        if let descriptor = frontDescriptor {
            frontDescriptor = nil
            takeOver(from: descriptor)
        }
    }

    /// Connects to the front over its socket, now that the name is this service's, and serves
    /// the calls it passes on. The front ends once it has passed them all.
    private func takeOver(from descriptor: Int32) {
        var error: UnsafeMutablePointer<GError>?
        defer { if let error { g_error_free(error) } }
        guard let socket = g_socket_new_from_fd(descriptor, &error) else {
            close(descriptor)
            return warn("cannot use the front's socket: \(GLibError(taking: &error, call: "g_socket_new_from_fd").message)")
        }
        let stream = g_socket_connection_factory_create_connection(socket)!
        g_object_unref(socket)
        defer { g_object_unref(stream) }
        // Messages wait until the object is there: the front sends as soon as its side of the
        // handshake is done, and a call that came before would be dropped unanswered (GDBus
        // cannot even send the error while this side is still initializing).
        let flags = GDBusConnectionFlags(
            G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue | G_DBUS_CONNECTION_FLAGS_DELAY_MESSAGE_PROCESSING.rawValue)
        guard
            let front = g_dbus_connection_new_sync(
                UnsafeMutableRawPointer(stream).assumingMemoryBound(to: GIOStream.self), nil, flags, nil, nil, &error),
            let workerNode = g_dbus_node_info_new_for_xml(WorkerInterfaceXML.text, &error)
        else {
            return warn("cannot connect to the front: \(GLibError(taking: &error, call: "g_dbus_connection_new_sync").message)")
        }
        defer { g_dbus_node_info_unref(workerNode) }
        self.front = front
        var vtable = GDBusInterfaceVTable(
            method_call: frontMethodCall, get_property: nil, set_property: nil, padding: (nil, nil, nil, nil, nil, nil, nil, nil))
        let box = Unmanaged.passRetained(ServerBox(self)).toOpaque()
        if g_dbus_connection_register_object(
            front, Self.objectPath, g_dbus_node_info_lookup_interface(workerNode, WorkerInterfaceXML.interface), &vtable, box,
            releaseServerBox, &error) == 0
        {
            warn("cannot take the front's calls: \(GLibError(taking: &error, call: "g_dbus_connection_register_object").message)")
        }
        g_dbus_connection_start_message_processing(front)
    }

    fileprivate func nameLostNow() {
        if connection == nil {
            warn("no session bus to serve on (DBUS_SESSION_BUS_ADDRESS)")
        } else {
            warn("another share service already has \(Self.busName)")
        }
        end(status: 69)
    }

    private func interface(_ name: String) -> UnsafeMutablePointer<GDBusInterfaceInfo> {
        g_dbus_node_info_lookup_interface(node, name)
    }

    // MARK: Methods

    /// A call from a caller on the bus: `ListActivities(aa{sv}, a{sv})` or `Share(s, aa{sv}, a{sv})`.
    fileprivate func handle(method: String, sender: String, parameters: OpaquePointer, invocation: OpaquePointer) {
        // GDBus has checked the arguments against the interface's types.
        let arguments = GVariant(borrowing: parameters).children
        switch (method, arguments.count) {
        case ("ListActivities", 2):
            listActivities(items: arguments[0], options: arguments[1], invocation: invocation)
        case ("Share", 3):
            share(
                sender: sender, handle: nil, parentWindow: arguments[0].string ?? "", items: arguments[1],
                options: arguments[2], invocation: invocation)
        default:
            g_dbus_method_invocation_return_dbus_error(invocation, "org.freedesktop.DBus.Error.UnknownMethod", "no method \(method)")
        }
    }

    /// A call the front took before this service had the name, with its caller's name first
    /// (`WorkerInterfaceXML`). The caller's descriptors come with it.
    fileprivate func handleFromFront(method: String, parameters: OpaquePointer, invocation: OpaquePointer) {
        let arguments = GVariant(borrowing: parameters).children
        let sender = arguments.first?.string ?? ""
        switch (method, arguments.count) {
        case ("ListActivities", 3):
            listActivities(items: arguments[1], options: arguments[2], invocation: invocation)
        case ("Share", 5):
            share(
                sender: sender, handle: arguments[1].string, parentWindow: arguments[2].string ?? "",
                items: arguments[3], options: arguments[4], invocation: invocation)
        case ("Close", 2):
            g_dbus_method_invocation_return_value(invocation, nil)
            if let handle = arguments[1].string, let request = requests[handle], request.sender == sender { request.close() }
        default:
            g_dbus_method_invocation_return_dbus_error(invocation, "org.freedesktop.DBus.Error.UnknownMethod", "no method \(method)")
        }
    }

    private func listActivities(items: GVariant, options: GVariant, invocation: OpaquePointer) {
        restartIdleTimer()
        do {
            let call = try ServiceCall(items: items, options: options, fileDescriptors: descriptors(of: invocation))
            defer { for descriptor in call.descriptors { close(descriptor) } }
            try WireListing.encode(listing(call)).withPointer { g_dbus_method_invocation_return_value(invocation, $0) }
        } catch {
            returnError(invocation, message(of: error))
        }
    }

    private func descriptors(of invocation: OpaquePointer) -> UnsafeMutablePointer<GUnixFDList>? {
        g_dbus_message_get_unix_fd_list(g_dbus_method_invocation_get_message(invocation))
    }

    /// The sheet's activities for a call, offered first, then the rest with their reasons.
    private func listing(_ call: ServiceCall) throws -> [WireActivity] {
        let controller = try host.controller(
            for: call.items, presets: call.presets, excluding: call.exclusions, applicationActivities: call.customActions)
        let sheet = controller.sheet
        func entry(_ activity: Activity, reason: String?) -> WireActivity {
            let name = host.names.entry(for: activity)
            return WireActivity(
                activity: name.name, activityType: name.activityType, title: name.title, iconName: name.iconName,
                category: name.category, available: reason == nil, reason: reason)
        }
        return sheet.activities.map { entry($0, reason: nil) } + sheet.unavailable.map { entry($0.activity, reason: $0.reason) }
    }

    /// Starts a request for `Share`. A caller on the bus is answered with the request's path;
    /// the front, which answered the caller with `handle` already, with nothing (an error means
    /// the request was not taken, and the front tells the caller).
    private func share(
        sender: String, handle: String?, parentWindow: String, items: GVariant, options: GVariant,
        invocation: OpaquePointer
    ) {
        guard let connection else { return }
        restartIdleTimer()
        // A token that cannot name the request object is refused by the call itself: a Response
        // on a path the caller did not expect would never reach it. (The front checked its own.)
        if handle == nil, let token = options.lookup("handle_token") {
            guard let text = token.string, token.typeString == "s", ServiceNames.isValidToken(text) else {
                return returnError(invocation, ServiceNames.invalidTokenMessage)
            }
        }
        let answer = { (path: String) in
            guard handle == nil else { return g_dbus_method_invocation_return_value(invocation, nil) }
            GVariant.tuple([.objectPath(path)]).withPointer { g_dbus_method_invocation_return_value(invocation, $0) }
        }
        var call: ServiceCall
        do {
            call = try ServiceCall(items: items, options: options, fileDescriptors: descriptors(of: invocation))
            call.parentWindow = parentWindow
        } catch {
            // The caller still gets a request, at the path its token asked for, and its
            // Response says what was wrong.
            let path = handle ?? requestPath(sender: sender, token: ServiceCall.validToken(in: options) ?? generatedToken())
            answer(path)
            let response = WireResponse(ShareResult(failure: ShareError(.usage, message(of: error))))
            response.encode().withPointer {
                _ = g_dbus_connection_emit_signal(connection, sender, path, ServiceNames.requestInterface, "Response", $0, nil)
            }
            return
        }
        let path = handle ?? requestPath(sender: sender, token: call.token ?? generatedToken())
        guard requests[path] == nil else {
            for descriptor in call.descriptors { close(descriptor) }
            return returnError(invocation, "handle_token \(call.token ?? "") is in use by another request of yours")
        }
        let request = ServiceRequest(
            path: path, sender: sender, connection: connection, host: host, call: call,
            onEnd: { [weak self] ended in self?.requestEnded(ended) })
        guard request.export(interface: interface(ServiceNames.requestInterface)) else {
            for descriptor in call.descriptors { close(descriptor) }
            return returnError(invocation, "cannot make the request object \(path)")
        }
        requests[path] = request
        answer(path)
        // After the reply is on its way, so the caller has the handle before anything happens.
        Task { request.start() }
    }

    private func requestEnded(_ request: ServiceRequest) {
        requests[request.path] = nil
        restartIdleTimer()
    }

    private func requestPath(sender: String, token: String) -> String {
        ServiceNames.requestPath(sender: sender, token: token)
    }

    private func generatedToken() -> String {
        generatedTokens += 1
        return ServiceNames.generatedToken(process: getpid(), number: generatedTokens)
    }

    private func message(of error: any Error) -> String {
        if let problem = error as? ServiceCall.Problem { return problem.message }
        return ShareResult.Failure(error).message
    }

    private func returnError(_ invocation: OpaquePointer, _ message: String) {
        g_dbus_method_invocation_return_dbus_error(invocation, "org.freedesktop.DBus.Error.InvalidArgs", message)
    }

    // MARK: Idle and the end

    /// Notes that the service was used now. One task watches for the idle deadline and moves
    /// it on as calls come (a task made and cancelled per call cost 4–8 % of a ListActivities);
    /// at the deadline with a request open it stops, and the request's end starts it again.
    private func restartIdleTimer() {
        lastUse = .now
        guard idleTimer == nil else { return }
        let idleTime = self.idleTime
        idleTimer = Task { [weak self] in
            var deadline = ContinuousClock.now + idleTime
            while true {
                try? await Task.sleep(until: deadline, clock: .continuous)
                guard let self else { return }
                let due = self.lastUse + idleTime
                if due > .now {
                    deadline = due
                    continue
                }
                self.idleTimer = nil
                if self.requests.isEmpty { self.stopServing() }
                return
            }
        }
    }

    /// Gives up the name, answers what is already on its way for a moment, then ends: calls
    /// that raced the idle deadline are served, later ones start a new service.
    private func stopServing() {
        if ownerID != 0 { g_bus_unown_name(ownerID) }
        ownerID = 0
        if let connection { g_dbus_connection_flush_sync(connection, nil, nil) }
        Task { [weak self] in
            try? await Task.sleep(for: .milliseconds(250))
            self?.end(status: 0)
        }
    }

    private func end(status: Int32) {
        guard let ending else { return }
        self.ending = nil
        ending.resume(returning: status)
    }
}

// MARK: GLib's callbacks

/// Carries the server through GLib's user data.
final class ServerBox: @unchecked Sendable {
    weak var server: ShareServer?
    init(_ server: ShareServer) { self.server = server }
}

private let releaseServerBox: GDestroyNotify = { data in Unmanaged<ServerBox>.fromOpaque(data!).release() }

private let busAcquired: GBusAcquiredCallback = { connection, _, data in
    nonisolated(unsafe) let connection = connection
    let box = Unmanaged<ServerBox>.fromOpaque(data!).takeUnretainedValue()
    MainActor.assumeIsolated { if let connection { box.server?.acquired(connection) } }
}

private let nameAcquired: GBusNameAcquiredCallback = { _, _, data in
    let box = Unmanaged<ServerBox>.fromOpaque(data!).takeUnretainedValue()
    MainActor.assumeIsolated { box.server?.nameAcquiredNow() }
}

private let nameLost: GBusNameLostCallback = { _, _, data in
    let box = Unmanaged<ServerBox>.fromOpaque(data!).takeUnretainedValue()
    MainActor.assumeIsolated { box.server?.nameLostNow() }
}

private let serverMethodCall: GDBusInterfaceMethodCallFunc = { _, sender, _, _, method, parameters, invocation, data in
    nonisolated(unsafe) let parameters = parameters
    nonisolated(unsafe) let invocation = invocation
    let box = Unmanaged<ServerBox>.fromOpaque(data!).takeUnretainedValue()
    let caller = sender.map { String(cString: $0) } ?? ""
    let name = method.map { String(cString: $0) } ?? ""
    MainActor.assumeIsolated {
        guard let parameters, let invocation else { return }
        box.server?.handle(method: name, sender: caller, parameters: parameters, invocation: invocation)
    }
}

/// A call the front passes on, over the peer-to-peer connection (no sender there).
private let frontMethodCall: GDBusInterfaceMethodCallFunc = { _, _, _, _, method, parameters, invocation, data in
    nonisolated(unsafe) let parameters = parameters
    nonisolated(unsafe) let invocation = invocation
    let box = Unmanaged<ServerBox>.fromOpaque(data!).takeUnretainedValue()
    let name = method.map { String(cString: $0) } ?? ""
    MainActor.assumeIsolated {
        guard let parameters, let invocation else { return }
        box.server?.handleFromFront(method: name, parameters: parameters, invocation: invocation)
    }
}

private let serverGetProperty: GDBusInterfaceGetPropertyFunc = { _, _, _, _, property, _, _ in
    guard let property, String(cString: property) == "version" else { return nil }
    return g_variant_new_uint32(ServiceNames.version)
}
