import CGIO
import Foundation
import ShareSheet
import Sharing

/// The share service (SPEC §8): `org.sharesheet.ShareSheet` on the session bus, serving
/// `ListActivities` and `Share` from any application until it has been idle a while.
///
/// Everything runs on the main actor inside `GLibMainLoop`: GDBus delivers method calls from
/// GLib's default main context on the main thread. Descriptors are read only by providers,
/// after the pick and off the main thread, so a slow or stuck caller never holds up the others.
@MainActor
public final class ShareServer {
    public nonisolated static let busName = "org.sharesheet.ShareSheet"
    public nonisolated static let objectPath = "/org/sharesheet/ShareSheet"
    /// The interface's version, the `version` property.
    public nonisolated static let version: UInt32 = 1

    private let host: ShareHost
    private let idleTime: Duration
    private let warn: (String) -> Void
    private var node: UnsafeMutablePointer<GDBusNodeInfo>?
    private var ownerID: guint = 0
    private var connection: OpaquePointer?
    private var requests: [String: ServiceRequest] = [:]
    private var idleTimer: Task<Void, Never>?
    private var generatedTokens = 0
    private var ending: CheckedContinuation<Int32, Never>?
    private var status: Int32 = 0

    /// Makes the service.
    /// - Parameters:
    ///   - idleTime: how long it waits without requests before it exits.
    ///   - warn: says a line on standard error (the service has no one else to tell).
    public init(host: ShareHost, idleTime: Duration = .seconds(30), warn: @escaping (String) -> Void) {
        self.host = host
        self.idleTime = idleTime
        self.warn = warn
    }

    /// Serves until idle; returns the exit status (0, or 69 when the name cannot be had).
    public func run() async -> Int32 {
        var error: UnsafeMutablePointer<GError>?
        node = g_dbus_node_info_new_for_xml(InterfaceXML.text, &error)
        if let error {
            warn("the interface description does not parse: \(String(cString: error.pointee.message))")
            g_error_free(error)
            return 70
        }
        let box = Unmanaged.passRetained(ServerBox(self)).toOpaque()
        ownerID = g_bus_own_name(
            G_BUS_TYPE_SESSION, Self.busName, G_BUS_NAME_OWNER_FLAGS_DO_NOT_QUEUE, busAcquired, nameAcquired, nameLost,
            box, releaseServerBox)
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
            connection, Self.objectPath, interface("org.sharesheet.ShareSheet1"), &vtable, box, releaseServerBox, &error)
        if id == 0 {
            warn("cannot serve \(Self.objectPath): \(error.map { String(cString: $0.pointee.message) } ?? "unknown error")")
            if let error { g_error_free(error) }
            end(status: 70)
        }
    }

    fileprivate func nameAcquiredNow() { restartIdleTimer() }

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

    fileprivate func handle(method: String, sender: String, parameters: OpaquePointer, invocation: OpaquePointer) {
        restartIdleTimer()
        let fileDescriptors = g_dbus_message_get_unix_fd_list(g_dbus_method_invocation_get_message(invocation))
        let items = g_variant_get_child_value(parameters, method == "Share" ? 1 : 0)!
        let options = g_variant_get_child_value(parameters, method == "Share" ? 2 : 1)!
        defer { Variant.release([items, options]) }
        switch method {
        case "ListActivities":
            do {
                let call = try ServiceCall(items: items, options: options, fileDescriptors: fileDescriptors)
                defer { for descriptor in call.descriptors { close(descriptor) } }
                g_dbus_method_invocation_return_value(invocation, Variant.tuple([try listing(call)]))
            } catch {
                returnError(invocation, message(of: error))
            }
        case "Share":
            let parent = g_variant_get_child_value(parameters, 0)!
            let parentWindow = Variant.text(of: parent)
            g_variant_unref(parent)
            share(
                sender: sender, parentWindow: parentWindow, items: items, options: options, fileDescriptors: fileDescriptors,
                invocation: invocation)
        default:
            g_dbus_method_invocation_return_dbus_error(invocation, "org.freedesktop.DBus.Error.UnknownMethod", "no method \(method)")
        }
    }

    /// The sheet's activities for a call, offered first, then the rest with their reasons.
    private func listing(_ call: ServiceCall) throws -> OpaquePointer {
        let controller = try host.controller(
            for: call.items, presets: call.presets, excluding: call.exclusions, applicationActivities: call.customActions)
        let sheet = controller.sheet
        func entry(_ activity: Activity, reason: String?) -> OpaquePointer {
            let name = host.names.entry(for: activity)
            var entries: [(String, OpaquePointer)] = [
                ("activity", Variant.string(name.name)), ("activity-type", Variant.string(name.activityType)),
                ("title", Variant.string(name.title)), ("icon-name", Variant.string(name.iconName)),
                ("category", Variant.string(name.category)), ("available", Variant.bool(reason == nil)),
            ]
            if let reason { entries.append(("reason", Variant.string(reason))) }
            return Variant.dictionary(entries)
        }
        return Variant.dictionaries(
            sheet.activities.map { entry($0, reason: nil) } + sheet.unavailable.map { entry($0.activity, reason: $0.reason) })
    }

    private func share(
        sender: String, parentWindow: String, items: OpaquePointer, options: OpaquePointer, fileDescriptors: UnsafeMutablePointer<GUnixFDList>?,
        invocation: OpaquePointer
    ) {
        guard let connection else { return }
        // A token that cannot name the request object is refused by the call itself: a Response
        // on a path the caller did not expect would never reach it.
        if let token = Variant.lookup(options, "handle_token") {
            defer { g_variant_unref(token) }
            guard Variant.typeString(of: token) == "s", ServiceCall.isValidToken(Variant.text(of: token)) else {
                return returnError(invocation, "handle_token must be a string of ASCII letters, digits and _")
            }
        }
        var call: ServiceCall
        do {
            call = try ServiceCall(items: items, options: options, fileDescriptors: fileDescriptors)
            call.parentWindow = parentWindow
        } catch {
            // The caller still gets a request, at the path its token asked for, and its
            // Response says what was wrong.
            let path = requestPath(sender: sender, token: ServiceCall.validToken(in: options) ?? generatedToken())
            g_dbus_method_invocation_return_value(invocation, Variant.tuple([Variant.objectPath(path)]))
            let (response, results) = ResultVariant.make(ShareResult(failure: ShareError(.usage, message(of: error))))
            g_dbus_connection_emit_signal(
                connection, sender, path, "org.sharesheet.Request1", "Response",
                Variant.tuple([Variant.uint32(response), results]), nil)
            return
        }
        let path = requestPath(sender: sender, token: call.token ?? generatedToken())
        guard requests[path] == nil else {
            for descriptor in call.descriptors { close(descriptor) }
            return returnError(invocation, "handle_token \(call.token ?? "") is in use by another request of yours")
        }
        let request = ServiceRequest(
            path: path, sender: sender, connection: connection, host: host, call: call,
            onEnd: { [weak self] ended in self?.requestEnded(ended) })
        guard request.export(interface: interface("org.sharesheet.Request1")) else {
            for descriptor in call.descriptors { close(descriptor) }
            return returnError(invocation, "cannot make the request object \(path)")
        }
        requests[path] = request
        g_dbus_method_invocation_return_value(invocation, Variant.tuple([Variant.objectPath(path)]))
        // After the reply is on its way, so the caller has the handle before anything happens.
        Task { request.start() }
    }

    private func requestEnded(_ request: ServiceRequest) {
        requests[request.path] = nil
        restartIdleTimer()
    }

    /// `/org/sharesheet/ShareSheet/request/SENDER/TOKEN`, as portals name their requests.
    private func requestPath(sender: String, token: String) -> String {
        let caller = sender.drop { $0 == ":" }.replacingOccurrences(of: ".", with: "_")
        return "\(Self.objectPath)/request/\(caller)/\(token)"
    }

    private func generatedToken() -> String {
        generatedTokens += 1
        return "sharesheet\(generatedTokens)"
    }

    private func message(of error: any Error) -> String {
        if let problem = error as? ServiceCall.Problem { return problem.message }
        return ShareResult.Failure(error).message
    }

    private func returnError(_ invocation: OpaquePointer, _ message: String) {
        g_dbus_method_invocation_return_dbus_error(invocation, "org.freedesktop.DBus.Error.InvalidArgs", message)
    }

    // MARK: Idle and the end

    private func restartIdleTimer() {
        idleTimer?.cancel()
        let idleTime = self.idleTime
        idleTimer = Task { [weak self] in
            try? await Task.sleep(for: idleTime)
            guard !Task.isCancelled, let self, self.requests.isEmpty else { return }
            self.stopServing()
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

private let serverGetProperty: GDBusInterfaceGetPropertyFunc = { _, _, _, _, property, _, _ in
    guard let property, String(cString: property) == "version" else { return nil }
    return g_variant_new_uint32(ShareServer.version)
}
