import CGIO
import GLibErrors
import ShareServiceProtocol

// GLib's callbacks into the front. The user data is the front itself, which lives until the
// process ends, or a `PassedCall` retained for its one reply.

private func front(_ data: UnsafeMutableRawPointer?) -> ServiceFront {
    Unmanaged<ServiceFront>.fromOpaque(data!).takeUnretainedValue()
}

let frontMethodCall: GDBusInterfaceMethodCallFunc = { _, sender, path, _, method, parameters, invocation, data in
    guard let parameters, let invocation else { return }
    front(data).handle(
        method: method.map { String(cString: $0) } ?? "", sender: sender.map { String(cString: $0) } ?? "",
        path: path.map { String(cString: $0) } ?? "", parameters: parameters, invocation: invocation)
}

let frontGetProperty: GDBusInterfaceGetPropertyFunc = { _, _, _, _, property, _, _ in
    guard let property, String(cString: property) == "version" else { return nil }
    return g_variant_new_uint32(ServiceNames.version)
}

let frontNameAcquired: GBusNameAcquiredCallback = { _, _, data in front(data).nameAcquired() }

let frontNameLost: GBusNameLostCallback = { _, _, data in front(data).nameLost() }

let workerConnectionMade: GAsyncReadyCallback = { _, result, data in
    var error: UnsafeMutablePointer<GError>?
    let connection = g_dbus_connection_new_finish(result, &error)
    let message = error.map { GLibError(taking: $0, call: "g_dbus_connection_new_finish").message }
    front(data).workerConnected(connection, error: message)
}

let callPassedOn: GAsyncReadyCallback = { source, result, data in
    let passed = Unmanaged<PassedCall>.fromOpaque(data!).takeRetainedValue()
    var error: UnsafeMutablePointer<GError>?
    let reply = g_dbus_connection_call_with_unix_fd_list_finish(OpaquePointer(source), nil, result, &error)
    passed.front.passedOn(
        passed, reply: reply, error: error.map { GLibError(taking: $0, call: "g_dbus_connection_call_with_unix_fd_list_finish") })
}

let takeOverDeadline: GSourceFunc = { data in
    front(data).takeOverDeadlinePassed()
    return 0
}

let quitLoop: GSourceFunc = { data in
    front(data).quit()
    return 0
}
