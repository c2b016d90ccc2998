import CGIO

/// Connects GObject signals to Swift closures: the one place the project calls
/// `g_signal_connect*`, so every handler follows one ownership rule.
///
/// The closure is kept in a retained box that belongs to a `GClosure`; GLib releases the box
/// through the closure's finalize notifier when the handler is disconnected or the object is
/// finalized, and at once when the connection fails (an unknown signal name). The closure runs
/// on the thread that emits the signal (for GTK and GIO monitors, the thread running their main
/// context), with the emission's arguments read from GLib's `GValue`s, so one C marshaller
/// serves every signal whatever its C signature.
public enum Signal {
    /// Connects `handler` to `signal` of `instance`.
    /// - Parameters:
    ///   - instance: a GObject (any type instance with signals).
    ///   - signal: the signal's name, with its detail when it has one (`"notify::expanded"`).
    ///   - after: run after the default handler (`G_CONNECT_AFTER`).
    ///   - handler: called for each emission, on the emitting thread; the emission is valid only
    ///     during the call.
    /// - Returns: the handler, to disconnect it; its id is 0 when GLib refused the connection
    ///   (and said why on standard error), and then the closure is already let go.
    @discardableResult
    public static func connect(
        _ instance: UnsafeMutableRawPointer, _ signal: String, after: Bool = false,
        _ handler: @escaping @Sendable (SignalEmission) -> Void
    ) -> SignalHandler {
        let box = Unmanaged.passRetained(HandlerBox(handler)).toOpaque()
        let closure = g_closure_new_simple(guint(MemoryLayout<GClosure>.size), box)!
        g_closure_add_finalize_notifier(closure, box, releaseHandlerBox)
        g_closure_set_marshal(closure, marshalEmission)
        // Our own reference first: when the connection fails, dropping it finalizes the closure
        // and releases the box; when it succeeds, the handler holds the closure from then on.
        g_closure_ref(closure)
        g_closure_sink(closure)
        let id = g_signal_connect_closure(instance, signal, closure, after ? 1 : 0)
        g_closure_unref(closure)
        return SignalHandler(instance: instance, id: UInt(id))
    }
}

/// A handler connected with `Signal.connect`.
public struct SignalHandler: @unchecked Sendable, Hashable {
    /// The object the handler is connected to (not retained).
    public let instance: UnsafeMutableRawPointer
    /// GLib's handler id; 0 when the connection failed.
    public let id: UInt

    /// Disconnects the handler, which lets its closure go. Call it only while the object is
    /// alive; once it is finalized, its handlers are gone already.
    public func disconnect() {
        guard id != 0, g_signal_handler_is_connected(instance, gulong(id)) != 0 else { return }
        g_signal_handler_disconnect(instance, gulong(id))
    }
}

/// One emission of a signal as a handler sees it: the object, the signal's arguments by
/// position (0 is the first after the object), and the return value for signals that have one.
/// Valid only during the handler's call.
public struct SignalEmission {
    private let values: UnsafePointer<GValue>
    private let valueCount: Int
    private let result: UnsafeMutablePointer<GValue>?

    fileprivate init(values: UnsafePointer<GValue>, count: Int, result: UnsafeMutablePointer<GValue>?) {
        self.values = values
        self.valueCount = count
        self.result = result
    }

    /// The object that emitted the signal.
    public var instance: UnsafeMutableRawPointer? { g_value_peek_pointer(values) }

    /// How many arguments the signal has (the object not counted).
    public var count: Int { valueCount - 1 }

    private func value(_ index: Int) -> UnsafePointer<GValue> {
        precondition(index >= 0 && index < count, "signal argument \(index) of \(count)")
        return values + index + 1
    }

    /// A `gint` argument.
    public func int32(_ index: Int) -> Int32 { g_value_get_int(value(index)) }

    /// A `guint` argument (a key value, a key code).
    public func uint32(_ index: Int) -> UInt32 { g_value_get_uint(value(index)) }

    /// A flags argument (`GdkModifierType`), as its raw value.
    public func flags(_ index: Int) -> UInt32 { g_value_get_flags(value(index)) }

    /// An enum argument (`GFileMonitorEvent`), as its raw value.
    public func enumValue(_ index: Int) -> Int32 { g_value_get_enum(value(index)) }

    /// An object argument, not retained (the emission holds it).
    public func object(_ index: Int) -> UnsafeMutableRawPointer? { g_value_get_object(value(index)) }

    /// A boxed argument (`GBytes`), not copied (the emission holds it).
    public func boxed(_ index: Int) -> UnsafeMutableRawPointer? { g_value_get_boxed(value(index)) }

    /// Sets the return value of a signal that returns `gboolean` ("close-request",
    /// "key-pressed": true stops the emission). Without it the signal gets false.
    public func returnBoolean(_ value: Bool) {
        guard let result else { return }
        g_value_set_boolean(result, value ? 1 : 0)
    }
}

/// Carries a handler through the GClosure's data.
private final class HandlerBox: Sendable {
    let handler: @Sendable (SignalEmission) -> Void
    init(_ handler: @escaping @Sendable (SignalEmission) -> Void) { self.handler = handler }
}

private let releaseHandlerBox: GClosureNotify = { data, _ in Unmanaged<HandlerBox>.fromOpaque(data!).release() }

private let marshalEmission: GClosureMarshal = { closure, result, count, values, _, _ in
    guard let closure, let values, count > 0 else { return }
    let box = Unmanaged<HandlerBox>.fromOpaque(closure.pointee.data).takeUnretainedValue()
    box.handler(SignalEmission(values: values, count: Int(count), result: result))
}
