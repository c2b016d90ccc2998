import CGIO
import Foundation
import ShareServiceProtocol
import ShareSheet
import ShareSheetGTK
import Sharing

/// One `Share` call in progress: its request object on the bus, its controller and presenter,
/// the descriptors it received. It ends exactly once — with the share's result, a Close from
/// its caller, or the caller leaving the bus — and then emits `Response` to its caller alone,
/// unexports its object and closes its descriptors.
@MainActor
final class ServiceRequest {
    let path: String
    let sender: String
    private let connection: OpaquePointer
    private let host: ShareHost
    private let call: ServiceCall
    private let onEnd: (ServiceRequest) -> Void
    private var registration: guint = 0
    private var senderWatch: guint = 0
    private var session: ShareSession?
    private var windowPresenter: WindowPresenter?
    private var ended = false

    init(
        path: String, sender: String, connection: OpaquePointer, host: ShareHost, call: ServiceCall,
        onEnd: @escaping (ServiceRequest) -> Void
    ) {
        self.path = path
        self.sender = sender
        self.connection = connection
        self.host = host
        self.call = call
        self.onEnd = onEnd
    }

    /// Exports the request object and watches the caller; false when the path is taken.
    func export(interface: UnsafeMutablePointer<GDBusInterfaceInfo>) -> Bool {
        var vtable = GDBusInterfaceVTable(
            method_call: requestMethodCall, get_property: nil, set_property: nil,
            padding: (nil, nil, nil, nil, nil, nil, nil, nil))
        let box = Unmanaged.passRetained(RequestBox(self)).toOpaque()
        registration = g_dbus_connection_register_object(
            connection, path, interface, &vtable, box, releaseRequestBox, nil)
        guard registration != 0 else {
            Unmanaged<RequestBox>.fromOpaque(box).release()
            return false
        }
        let watchBox = Unmanaged.passRetained(RequestBox(self)).toOpaque()
        senderWatch = g_bus_watch_name_on_connection(
            connection, sender, G_BUS_NAME_WATCHER_FLAGS_NONE, nil, senderVanished, watchBox, releaseRequestBox)
        return true
    }

    /// Starts the share; call after the `Share` reply is sent.
    func start() {
        // The caller may have gone, or closed, before the request started.
        guard !ended else { return }
        do {
            let host = self.host
            let call = self.call
            let controller = try host.controller(
                for: call.items, presets: call.presets, excluding: call.exclusions,
                applicationActivities: call.customActions)
            // A run again with a person's answer (a receiver's PIN) gets the same items and more presets.
            let session = ShareSession(host: host, first: controller) { asked in
                var presets = call.presets
                presets.settings += asked
                return try host.controller(
                    for: call.items, presets: presets, excluding: call.exclusions, applicationActivities: call.customActions)
            }
            self.session = session
            var pick: ActivityType?
            if let name = call.activity {
                let type = try activityType(named: name)
                if let why = host.unavailability(type, on: controller.sheet) {
                    return finish(
                        failure: ShareError(
                            .unavailable, "\(name) is not available: \(why.reason)", setting: why.setting, fix: why.fix,
                            path: why.path))
                }
                pick = type
                if !call.interactive {
                    // Nobody to ask: a need ends the share with `error-field` naming it.
                    return run(session, with: ScriptedFrontEnd(), picking: type, presenter: nil)
                }
            } else if !call.interactive {
                return finish(failure: ShareError(.usage, "a share that is not interactive needs an activity: there is no one to ask"))
            }
            try WindowPresenter.connectToDisplay()
            let presenter = WindowPresenter(names: host.names)
            presenter.parentWindow = call.parentWindow.isEmpty ? nil : call.parentWindow
            windowPresenter = presenter
            presenter.preselected = pick
            run(session, with: WindowFrontEnd(presenter: presenter), picking: nil, presenter: presenter)
        } catch {
            finish(failure: error)
        }
    }

    /// The caller's `Close`: cancel as a person does (finished work is kept and said in the
    /// Response), and take the window away.
    func close() {
        guard !ended else { return }
        let presenter = windowPresenter
        if let controller = session?.controller, controller.phase != .idle {
            session?.cancel()
        } else {
            finish(failure: ShareError(.cancelled, "closed"))
        }
        // A result page (a failure stays until closed) is taken away too.
        presenter?.closeWindow()
    }

    /// The caller left the bus: nobody is waiting for a result; cancel everything.
    func callerVanished() {
        guard !ended else { return }
        let presenter = windowPresenter
        session?.controller?.dismiss()
        if session == nil { finish(failure: ShareError(.cancelled, "the caller left")) }
        presenter?.closeWindow()
    }

    private func activityType(named name: String) throws -> ActivityType {
        if let custom = call.customActions.first(where: { "app." + $0.id == name }), let type = custom.activityType {
            return type
        }
        return try host.names.type(named: name)
    }

    private func run(_ session: ShareSession, with frontEnd: any ShareFrontEnd, picking type: ActivityType?, presenter: WindowPresenter?) {
        Task { [weak self] in
            let ending: ShareSession.Ending
            do {
                ending = try await session.run(with: frontEnd, picking: type)
            } catch {
                self?.finish(failure: error)
                return
            }
            await presenter?.waitUntilClosed()
            await ending.controller.waitForProvidersToStop()
            guard let self else { return }
            self.finish(session.result(of: ending, interfaceCancelled: presenter?.interfaceWasCancelled ?? false))
        }
    }

    private func finish(failure: any Error) {
        var result = ShareResult(failure: failure)
        // Named with the `activity` option, the activity is known even when the share never
        // started (not offered for these items), as in `share --activity … --json`.
        if let name = call.activity, let type = try? activityType(named: name) {
            result.activityType = type.rawValue
            result.activity = host.names.name(of: type)
        }
        finish(result)
    }

    /// Says the result to the caller, once, then lets go of everything.
    private func finish(_ result: ShareResult) {
        guard !ended else { return }
        ended = true
        var error: UnsafeMutablePointer<GError>?
        WireResponse(result).encode().withPointer {
            _ = g_dbus_connection_emit_signal(connection, sender, path, ServiceNames.requestInterface, "Response", $0, &error)
        }
        if let error { g_error_free(error) }
        if registration != 0 { g_dbus_connection_unregister_object(connection, registration) }
        if senderWatch != 0 { g_bus_unwatch_name(senderWatch) }
        registration = 0
        senderWatch = 0
        for descriptor in call.descriptors { Glibc.close(descriptor) }
        // The copies of the caller's files: whatever the activity made of them is done (saved,
        // sent, queued, printed), and the service may live on, or end without deinitializers.
        for item in call.items {
            if let provider = item.value as? FileProvider {
                try? FileManager.default.removeItem(at: provider.fileURL.deletingLastPathComponent())
            }
        }
        session = nil
        windowPresenter = nil
        onEnd(self)
    }
}

/// The service's front end for `interactive=false`: the picked activity with what the call
/// preset, and nobody to ask.
@MainActor
private final class ScriptedFrontEnd: ShareFrontEnd {
    private var last: ScriptedPresenter?

    func presenter(picking type: ActivityType?) -> any Presenter {
        let presenter = ScriptedPresenter(pick: type)
        last = presenter
        return presenter
    }

    func answer(_ need: ShareNeed) async -> String? { nil }

    var shownInterface: ActivityInterface? { last?.shownInterface }
}

/// Carries a request through GLib's user data.
final class RequestBox: @unchecked Sendable {
    weak var request: ServiceRequest?
    init(_ request: ServiceRequest) { self.request = request }
}

let releaseRequestBox: GDestroyNotify = { data in Unmanaged<RequestBox>.fromOpaque(data!).release() }

/// `Close` on a request object: only the caller that made the request may close it.
let requestMethodCall: GDBusInterfaceMethodCallFunc = { _, sender, _, _, method, _, invocation, data in
    nonisolated(unsafe) let invocation = invocation
    let box = Unmanaged<RequestBox>.fromOpaque(data!).takeUnretainedValue()
    let caller = sender.map { String(cString: $0) } ?? ""
    let name = method.map { String(cString: $0) } ?? ""
    MainActor.assumeIsolated {
        guard let request = box.request else {
            return g_dbus_method_invocation_return_dbus_error(
                invocation, "org.freedesktop.DBus.Error.UnknownObject", "this request has ended")
        }
        guard caller == request.sender else {
            return g_dbus_method_invocation_return_dbus_error(
                invocation, "org.freedesktop.DBus.Error.AccessDenied", "only the caller that made this request may close it")
        }
        guard name == "Close" else {
            return g_dbus_method_invocation_return_dbus_error(
                invocation, "org.freedesktop.DBus.Error.UnknownMethod", "no method \(name)")
        }
        g_dbus_method_invocation_return_value(invocation, nil)
        request.close()
    }
}

/// The caller's unique name left the bus.
let senderVanished: GBusNameVanishedCallback = { _, _, data in
    let box = Unmanaged<RequestBox>.fromOpaque(data!).takeUnretainedValue()
    MainActor.assumeIsolated { box.request?.callerVanished() }
}
