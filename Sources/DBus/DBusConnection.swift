import CGIO
import GLibErrors
import GVariants

/// A connection to a message bus or to one peer (GDBusConnection): the one place the project
/// calls GDBus, so connecting, calling, exporting, names and signals follow one set of rules.
///
/// A connection may be used from any thread (GDBus is thread-safe). Callbacks — method calls,
/// replies, signals, name changes — run on the thread that runs the main context that was the
/// thread default when they were set up: for the share service and the command, GLib's default
/// context on the main thread; for a client call, the call's own thread. Each callback's closure
/// is kept in a retained box that GLib's destroy-notify releases.
public final class DBusConnection: @unchecked Sendable {
    /// The GDBusConnection.
    let pointer: OpaquePointer

    /// Takes over a full reference.
    init(taking pointer: OpaquePointer) { self.pointer = pointer }

    /// Takes a reference of its own to a connection someone else owns.
    public init(borrowing pointer: OpaquePointer) {
        self.pointer = pointer
        g_object_ref(UnsafeMutableRawPointer(pointer))
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }

    // MARK: Connecting

    /// The process's shared session-bus connection (`g_bus_get_sync`).
    public static func session(cancellable: DBusCancellable? = nil) throws(GLibError) -> DBusConnection {
        var error: UnsafeMutablePointer<GError>?
        guard let connection = g_bus_get_sync(G_BUS_TYPE_SESSION, cancellable?.pointer, &error) else {
            throw GLibError(taking: &error, call: "g_bus_get_sync")
        }
        return DBusConnection(taking: connection)
    }

    /// The session bus's address from the process's environment (`DBUS_SESSION_BUS_ADDRESS`).
    public static func sessionBusAddress() throws(GLibError) -> String {
        var error: UnsafeMutablePointer<GError>?
        guard let found = g_dbus_address_get_for_bus_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            throw GLibError(taking: &error, call: "g_dbus_address_get_for_bus_sync")
        }
        defer { g_free(found) }
        return String(cString: found)
    }

    /// A private connection to the message bus at `address` (its own, not the shared one).
    public static func bus(address: String, cancellable: DBusCancellable? = nil) throws(GLibError) -> DBusConnection {
        var error: UnsafeMutablePointer<GError>?
        let flags = GDBusConnectionFlags(
            G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        guard let connection = g_dbus_connection_new_for_address_sync(address, flags, nil, cancellable?.pointer, &error) else {
            throw GLibError(taking: &error, call: "g_dbus_connection_new_for_address_sync")
        }
        return DBusConnection(taking: connection)
    }

    /// The client side of a peer-to-peer connection over a connected socket, which it takes over.
    /// Messages wait until `startMessageProcessing()`, so objects can be exported first.
    public static func peerClient(socket descriptor: Int32) throws(GLibError) -> DBusConnection {
        let stream = try socketStream(descriptor)
        defer { g_object_unref(stream) }
        var error: UnsafeMutablePointer<GError>?
        let flags = GDBusConnectionFlags(
            G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue | G_DBUS_CONNECTION_FLAGS_DELAY_MESSAGE_PROCESSING.rawValue)
        guard
            let connection = g_dbus_connection_new_sync(
                UnsafeMutableRawPointer(stream).assumingMemoryBound(to: GIOStream.self), nil, flags, nil, nil, &error)
        else { throw GLibError(taking: &error, call: "g_dbus_connection_new_sync") }
        return DBusConnection(taking: connection)
    }

    /// The server side of a peer-to-peer connection over a connected socket, which it takes
    /// over; `done` gets the connection once the peer has authenticated, or why not.
    public static func peerServer(
        socket descriptor: Int32, done: @escaping (Result<DBusConnection, GLibError>) -> Void
    ) throws(GLibError) {
        let stream = try socketStream(descriptor)
        defer { g_object_unref(stream) }
        let guid = g_dbus_generate_guid()
        defer { g_free(guid) }
        g_dbus_connection_new(
            UnsafeMutableRawPointer(stream).assumingMemoryBound(to: GIOStream.self), guid,
            G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_SERVER, nil, nil, connectionMade, retain(ConnectionBox(done)))
    }

    private static func socketStream(_ descriptor: Int32) throws(GLibError) -> UnsafeMutablePointer<GSocketConnection> {
        var error: UnsafeMutablePointer<GError>?
        guard let socket = g_socket_new_from_fd(descriptor, &error) else {
            throw GLibError(taking: &error, call: "g_socket_new_from_fd")
        }
        defer { g_object_unref(socket) }
        return g_socket_connection_factory_create_connection(socket)
    }

    /// Lets messages through on a connection made with delayed processing.
    public func startMessageProcessing() { g_dbus_connection_start_message_processing(pointer) }

    /// Sends everything queued (signals, replies) before returning.
    public func flush() { g_dbus_connection_flush_sync(pointer, nil, nil) }

    // MARK: Calling

    /// Calls `method` and waits for its reply, on this thread.
    /// - Parameters:
    ///   - destination: the bus name; nil on a peer-to-peer connection.
    ///   - replyType: the reply's type (`"(o)"`); GDBus checks it.
    ///   - descriptors: sent with the call; the list keeps its own copies.
    ///   - timeout: nil for GDBus's default (25 s).
    /// - Throws: `GLibError` from GDBus, the bus or the peer (`remoteName` set for a D-Bus error).
    public func callSync(
        _ destination: String?, path: String, interface: String, method: String, arguments: GVariant? = nil,
        replyType: StaticString? = nil, descriptors: DBusFileDescriptors? = nil, timeout: Duration? = nil,
        cancellable: DBusCancellable? = nil
    ) throws(GLibError) -> GVariant {
        var error: UnsafeMutablePointer<GError>?
        let reply = withExtendedLifetime((arguments, descriptors)) {
            g_dbus_connection_call_with_unix_fd_list_sync(
                pointer, destination, path, interface, method, arguments?.pointer, replyType.map(Variant.type),
                G_DBUS_CALL_FLAGS_NONE, Self.milliseconds(timeout), descriptors?.pointer, nil, cancellable?.pointer, &error)
        }
        guard let reply else { throw GLibError(taking: &error, call: "g_dbus_connection_call_with_unix_fd_list_sync") }
        return GVariant(taking: reply)
    }

    /// Calls `method`; `reply` gets the answer on the thread-default main context's thread.
    public func call(
        _ destination: String?, path: String, interface: String, method: String, arguments: GVariant? = nil,
        replyType: StaticString? = nil, descriptors: DBusFileDescriptors? = nil, timeout: Duration? = nil,
        cancellable: DBusCancellable? = nil, reply: @escaping (Result<GVariant, GLibError>) -> Void
    ) {
        withExtendedLifetime((arguments, descriptors)) {
            g_dbus_connection_call_with_unix_fd_list(
                pointer, destination, path, interface, method, arguments?.pointer, replyType.map(Variant.type),
                G_DBUS_CALL_FLAGS_NONE, Self.milliseconds(timeout), descriptors?.pointer, cancellable?.pointer, callReplied,
                retain(ReplyBox(reply)))
        }
    }

    /// Calls `method` and suspends until its reply; the reply comes through the main context
    /// of the calling thread, so that context must be running (GLibMainLoop's on the main thread).
    public func call(
        _ destination: String?, path: String, interface: String, method: String, arguments: GVariant? = nil,
        replyType: StaticString? = nil, descriptors: DBusFileDescriptors? = nil, timeout: Duration? = nil,
        cancellable: DBusCancellable? = nil
    ) async throws(GLibError) -> GVariant {
        let result: Result<GVariant, GLibError> = await withCheckedContinuation { continuation in
            call(
                destination, path: path, interface: interface, method: method, arguments: arguments, replyType: replyType,
                descriptors: descriptors, timeout: timeout, cancellable: cancellable
            ) { continuation.resume(returning: $0) }
        }
        return try result.get()
    }

    /// Sends `method` expecting no reply (GDBus sets NO_REPLY_EXPECTED).
    public func send(
        _ destination: String?, path: String, interface: String, method: String, arguments: GVariant? = nil
    ) {
        withExtendedLifetime(arguments) {
            g_dbus_connection_call_with_unix_fd_list(
                pointer, destination, path, interface, method, arguments?.pointer, nil, G_DBUS_CALL_FLAGS_NONE, -1, nil,
                nil, nil, nil)
        }
    }

    static func milliseconds(_ timeout: Duration?) -> Int32 {
        guard let timeout else { return -1 }
        let (seconds, attoseconds) = timeout.components
        let total = Double(seconds) * 1000 + Double(attoseconds) / 1e15
        return Int32(max(0, min(total, Double(Int32.max))))
    }

    // MARK: Signals

    /// Emits `signal` from `path`, to `destination` alone (a unique name) or to everyone (nil).
    public func emitSignal(
        to destination: String?, path: String, interface: String, signal: String, arguments: GVariant? = nil
    ) throws(GLibError) {
        var error: UnsafeMutablePointer<GError>?
        let sent = withExtendedLifetime(arguments) {
            g_dbus_connection_emit_signal(pointer, destination, path, interface, signal, arguments?.pointer, &error)
        }
        if sent == 0 { throw GLibError(taking: &error, call: "g_dbus_connection_emit_signal") }
    }

    /// Calls `handler` for each matching signal until `unsubscribe`; nil matches anything.
    public func subscribe(
        sender: String?, interface: String?, signal: String?, path: String? = nil, arg0: String? = nil,
        handler: @escaping (DBusSignal) -> Void
    ) -> DBusSubscription {
        let id = g_dbus_connection_signal_subscribe(
            pointer, sender, interface, signal, path, arg0, G_DBUS_SIGNAL_FLAGS_NONE, signalArrived,
            retain(SignalBox(handler)), releaseSignalBox)
        return DBusSubscription(id: id)
    }

    /// Ends a subscription; its handler is let go.
    public func unsubscribe(_ subscription: DBusSubscription) {
        g_dbus_connection_signal_unsubscribe(pointer, subscription.id)
    }

    // MARK: Objects

    /// Exports `interface` at `path`; `methodCall` answers each call (exactly once, now or later)
    /// and `property` gives a property's value. Both are kept until `unregister`.
    /// - Throws: `GLibError` (G_IO_ERROR_EXISTS when the path already has that interface).
    public func register(
        path: String, interface: DBusInterface, methodCall: @escaping (DBusMethodInvocation) -> Void,
        property: ((String) -> GVariant?)? = nil
    ) throws(GLibError) -> DBusRegistration {
        var vtable = GDBusInterfaceVTable(
            method_call: methodCalled, get_property: property == nil ? nil : propertyAsked, set_property: nil,
            padding: (nil, nil, nil, nil, nil, nil, nil, nil))
        var error: UnsafeMutablePointer<GError>?
        let id = withExtendedLifetime(interface) {
            g_dbus_connection_register_object(
                pointer, path, interface.pointer, &vtable, retain(ObjectBox(methodCall, property)), releaseObjectBox, &error)
        }
        if id == 0 { throw GLibError(taking: &error, call: "g_dbus_connection_register_object") }
        return DBusRegistration(id: id)
    }

    /// Unexports an object; its handlers are let go.
    @discardableResult
    public func unregister(_ registration: DBusRegistration) -> Bool {
        g_dbus_connection_unregister_object(pointer, registration.id) != 0
    }

    // MARK: Names

    /// Asks the bus for `name` on this connection; `acquired` and `lost` say how it went (lost
    /// also when it is taken away later). Kept until `DBusNameOwnership.release()`.
    public func own(
        name: String, flags: DBusNameOwnerFlags, acquired: @escaping () -> Void, lost: @escaping () -> Void
    ) -> DBusNameOwnership {
        let id = g_bus_own_name_on_connection(
            pointer, name, GBusNameOwnerFlags(flags.rawValue), nameAcquired, nameLost,
            retain(NameBox(nil, acquired, lost)), releaseNameBox)
        return DBusNameOwnership(id: id)
    }

    /// Asks the session bus for `name`: `busAcquired` gets the connection first (export objects
    /// there), then `acquired` or `lost`. `lost` alone when there is no session bus.
    public static func ownOnSessionBus(
        name: String, flags: DBusNameOwnerFlags, busAcquired: @escaping (DBusConnection) -> Void,
        acquired: @escaping () -> Void, lost: @escaping () -> Void
    ) -> DBusNameOwnership {
        let id = g_bus_own_name(
            G_BUS_TYPE_SESSION, name, GBusNameOwnerFlags(flags.rawValue), busConnected, nameAcquired, nameLost,
            retain(NameBox(busAcquired, acquired, lost)), releaseNameBox)
        return DBusNameOwnership(id: id)
    }

    /// Watches `name` (a caller's unique name, say): `appeared` with its owner, `vanished` when
    /// it has none (at once when it is already gone). Kept until `DBusNameWatch.stop()`.
    public func watch(
        name: String, appeared: ((String) -> Void)? = nil, vanished: @escaping () -> Void
    ) -> DBusNameWatch {
        let id = g_bus_watch_name_on_connection(
            pointer, name, G_BUS_NAME_WATCHER_FLAGS_NONE, nameAppeared, nameVanished,
            retain(WatchBox(appeared, vanished)), releaseWatchBox)
        return DBusNameWatch(id: id)
    }
}

/// Bus names as D-Bus defines them.
public enum DBusName {
    /// True when `name` is a valid well-known bus name (`org.example.App`), not a unique one
    /// (`:1.42`).
    public static func isWellKnown(_ name: String) -> Bool {
        g_dbus_is_name(name) != 0 && g_dbus_is_unique_name(name) == 0
    }
}

/// How a name is owned (`GBusNameOwnerFlags`).
public struct DBusNameOwnerFlags: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Another connection may take the name with `replace`.
    public static let allowReplacement = DBusNameOwnerFlags(rawValue: G_BUS_NAME_OWNER_FLAGS_ALLOW_REPLACEMENT.rawValue)
    /// Take the name from an owner that allows it.
    public static let replace = DBusNameOwnerFlags(rawValue: G_BUS_NAME_OWNER_FLAGS_REPLACE.rawValue)
    /// Do not wait in the bus's queue: lost at once when someone else has it.
    public static let doNotQueue = DBusNameOwnerFlags(rawValue: G_BUS_NAME_OWNER_FLAGS_DO_NOT_QUEUE.rawValue)
}

/// An exported object; `DBusConnection.unregister` ends it.
public struct DBusRegistration: Sendable, Equatable {
    public let id: guint
}

/// A signal subscription; `DBusConnection.unsubscribe` ends it.
public struct DBusSubscription: Sendable, Equatable {
    public let id: guint
}

/// A name asked for; `release()` gives it back.
public struct DBusNameOwnership: Sendable, Equatable {
    public let id: guint
    /// Gives the name back and lets the callbacks go.
    public func release() { g_bus_unown_name(id) }
}

/// A name watched; `stop()` ends the watch.
public struct DBusNameWatch: Sendable, Equatable {
    public let id: guint
    /// Ends the watch and lets the callbacks go.
    public func stop() { g_bus_unwatch_name(id) }
}

/// One signal as it arrived.
public struct DBusSignal: Sendable {
    public var sender: String
    public var path: String
    public var interface: String
    public var signal: String
    public var arguments: GVariant
}

/// A GCancellable: cancelling from any thread ends a call waiting on another.
public final class DBusCancellable: @unchecked Sendable {
    public let pointer: UnsafeMutablePointer<GCancellable> = g_cancellable_new()
    public init() {}
    /// Cancels what waits on it, now and later.
    public func cancel() { g_cancellable_cancel(pointer) }
    deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }
}
