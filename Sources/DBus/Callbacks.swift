import CGIO
import GLibErrors
import GVariants

// GLib's callbacks, each with a box that carries the Swift closure: passed retained as the user
// data, released by GLib's destroy-notify (or, for one-shot replies, taken back when it comes).

func retain<Box: AnyObject>(_ box: Box) -> UnsafeMutableRawPointer { Unmanaged.passRetained(box).toOpaque() }

private func box<Box: AnyObject>(_ data: UnsafeMutableRawPointer?, as _: Box.Type = Box.self) -> Box {
    Unmanaged<Box>.fromOpaque(data!).takeUnretainedValue()
}

private func text(_ pointer: UnsafePointer<gchar>?) -> String { pointer.map { String(cString: $0) } ?? "" }

final class ObjectBox: @unchecked Sendable {
    let methodCall: (DBusMethodInvocation) -> Void
    let property: ((String) -> GVariant?)?
    init(_ methodCall: @escaping (DBusMethodInvocation) -> Void, _ property: ((String) -> GVariant?)?) {
        self.methodCall = methodCall
        self.property = property
    }
}

let releaseObjectBox: GDestroyNotify = { Unmanaged<ObjectBox>.fromOpaque($0!).release() }

let methodCalled: GDBusInterfaceMethodCallFunc = { _, sender, path, interface, method, parameters, invocation, data in
    guard let parameters, let invocation else { return }
    let call = DBusMethodInvocation(
        pointer: invocation, sender: text(sender), path: text(path), interface: text(interface), method: text(method),
        parameters: GVariant(borrowing: parameters))
    box(data, as: ObjectBox.self).methodCall(call)
}

let propertyAsked: GDBusInterfaceGetPropertyFunc = { _, _, _, _, property, _, data in
    guard let value = box(data, as: ObjectBox.self).property?(text(property)) else { return nil }
    return g_variant_ref(value.pointer)
}

final class SignalBox: @unchecked Sendable {
    let handler: (DBusSignal) -> Void
    init(_ handler: @escaping (DBusSignal) -> Void) { self.handler = handler }
}

let releaseSignalBox: GDestroyNotify = { Unmanaged<SignalBox>.fromOpaque($0!).release() }

let signalArrived: GDBusSignalCallback = { _, sender, path, interface, signal, parameters, data in
    guard let parameters else { return }
    box(data, as: SignalBox.self).handler(
        DBusSignal(
            sender: text(sender), path: text(path), interface: text(interface), signal: text(signal),
            arguments: GVariant(borrowing: parameters)))
}

final class ReplyBox: @unchecked Sendable {
    let reply: (Result<GVariant, GLibError>) -> Void
    init(_ reply: @escaping (Result<GVariant, GLibError>) -> Void) { self.reply = reply }
}

let callReplied: GAsyncReadyCallback = { source, result, data in
    let box = Unmanaged<ReplyBox>.fromOpaque(data!).takeRetainedValue()
    var error: UnsafeMutablePointer<GError>?
    guard let reply = g_dbus_connection_call_with_unix_fd_list_finish(OpaquePointer(source), nil, result, &error) else {
        return box.reply(.failure(GLibError(taking: &error, call: "g_dbus_connection_call_with_unix_fd_list_finish")))
    }
    box.reply(.success(GVariant(taking: reply)))
}

final class ConnectionBox: @unchecked Sendable {
    let done: (Result<DBusConnection, GLibError>) -> Void
    init(_ done: @escaping (Result<DBusConnection, GLibError>) -> Void) { self.done = done }
}

let connectionMade: GAsyncReadyCallback = { _, result, data in
    let box = Unmanaged<ConnectionBox>.fromOpaque(data!).takeRetainedValue()
    var error: UnsafeMutablePointer<GError>?
    guard let connection = g_dbus_connection_new_finish(result, &error) else {
        return box.done(.failure(GLibError(taking: &error, call: "g_dbus_connection_new_finish")))
    }
    box.done(.success(DBusConnection(taking: connection)))
}

final class NameBox: @unchecked Sendable {
    let busAcquired: ((DBusConnection) -> Void)?
    let acquired: () -> Void
    let lost: () -> Void
    init(_ busAcquired: ((DBusConnection) -> Void)?, _ acquired: @escaping () -> Void, _ lost: @escaping () -> Void) {
        self.busAcquired = busAcquired
        self.acquired = acquired
        self.lost = lost
    }
}

let releaseNameBox: GDestroyNotify = { Unmanaged<NameBox>.fromOpaque($0!).release() }

let busConnected: GBusAcquiredCallback = { connection, _, data in
    guard let connection else { return }
    box(data, as: NameBox.self).busAcquired?(DBusConnection(borrowing: connection))
}

let nameAcquired: GBusNameAcquiredCallback = { _, _, data in box(data, as: NameBox.self).acquired() }

let nameLost: GBusNameLostCallback = { _, _, data in box(data, as: NameBox.self).lost() }

final class WatchBox: @unchecked Sendable {
    let appeared: ((String) -> Void)?
    let vanished: () -> Void
    init(_ appeared: ((String) -> Void)?, _ vanished: @escaping () -> Void) {
        self.appeared = appeared
        self.vanished = vanished
    }
}

let releaseWatchBox: GDestroyNotify = { Unmanaged<WatchBox>.fromOpaque($0!).release() }

let nameAppeared: GBusNameAppearedCallback = { _, _, owner, data in box(data, as: WatchBox.self).appeared?(text(owner)) }

let nameVanished: GBusNameVanishedCallback = { _, _, data in box(data, as: WatchBox.self).vanished() }
