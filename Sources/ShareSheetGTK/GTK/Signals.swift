import CGtk

/// Connects GObject signals to Swift closures that run on the main actor.
///
/// GLib calls a C function with a data pointer; Swift closures cannot be passed as C function
/// pointers when they capture. Each closure is kept in a retained box handed to GLib as the data
/// pointer, and GLib's destroy-notify releases it when the handler is disconnected or the object
/// is finalized. GTK emits these signals on the main thread, which is the main actor's thread
/// inside `GLibMainLoop`.
@MainActor
enum Signals {
    /// A signal without arguments ("clicked", "changed", "activate", "toggled", "destroy").
    static func connect(_ instance: UnsafeMutableRawPointer?, _ signal: String, _ action: @escaping @MainActor () -> Void) {
        let box = Unmanaged.passRetained(ActionBox(action)).toOpaque()
        g_signal_connect_data(instance, signal, unsafeBitCast(plainHandler, to: GCallback.self), box, releaseBox, GConnectFlags(0))
    }

    /// A signal whose handler answers "handled" ("close-request"): return true to stop the default.
    static func connectHandled(
        _ instance: UnsafeMutableRawPointer?, _ signal: String, _ action: @escaping @MainActor () -> Bool
    ) {
        let box = Unmanaged.passRetained(HandledBox(action)).toOpaque()
        g_signal_connect_data(instance, signal, unsafeBitCast(handledHandler, to: GCallback.self), box, releaseHandledBox, GConnectFlags(0))
    }

    /// A property change ("notify::active").
    static func connectNotify(_ instance: UnsafeMutableRawPointer?, property: String, _ action: @escaping @MainActor () -> Void) {
        let box = Unmanaged.passRetained(ActionBox(action)).toOpaque()
        g_signal_connect_data(
            instance, "notify::" + property, unsafeBitCast(notifyHandler, to: GCallback.self), box, releaseBox, GConnectFlags(0))
    }

    /// A key controller's "key-pressed": the handler gets the key value and modifiers and says
    /// whether it used the key.
    static func connectKeyPressed(
        _ controller: UnsafeMutableRawPointer?, _ action: @escaping @MainActor (UInt32, GdkModifierType) -> Bool
    ) {
        let box = Unmanaged.passRetained(KeyBox(action)).toOpaque()
        g_signal_connect_data(controller, "key-pressed", unsafeBitCast(keyHandler, to: GCallback.self), box, releaseKeyBox, GConnectFlags(0))
    }

    /// Runs `action` every `milliseconds` on the main loop until it returns false.
    static func every(milliseconds: UInt32, _ action: @escaping @MainActor () -> Bool) -> UInt32 {
        let box = Unmanaged.passRetained(HandledBox(action)).toOpaque()
        return g_timeout_add_full(G_PRIORITY_DEFAULT, milliseconds, timeoutHandler, box, releaseTimeoutBox)
    }
}

private final class ActionBox: Sendable {
    let action: @MainActor () -> Void
    init(_ action: @escaping @MainActor () -> Void) { self.action = action }
}

private final class HandledBox: Sendable {
    let action: @MainActor () -> Bool
    init(_ action: @escaping @MainActor () -> Bool) { self.action = action }
}

private final class KeyBox: Sendable {
    let action: @MainActor (UInt32, GdkModifierType) -> Bool
    init(_ action: @escaping @MainActor (UInt32, GdkModifierType) -> Bool) { self.action = action }
}

private let plainHandler: @convention(c) (gpointer?, gpointer?) -> Void = { _, data in
    let box = Unmanaged<ActionBox>.fromOpaque(data!).takeUnretainedValue()
    MainActor.assumeIsolated { box.action() }
}

private let handledHandler: @convention(c) (gpointer?, gpointer?) -> gboolean = { _, data in
    let box = Unmanaged<HandledBox>.fromOpaque(data!).takeUnretainedValue()
    return MainActor.assumeIsolated { box.action() } ? 1 : 0
}

private let notifyHandler: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, _, data in
    let box = Unmanaged<ActionBox>.fromOpaque(data!).takeUnretainedValue()
    MainActor.assumeIsolated { box.action() }
}

private let keyHandler: @convention(c) (gpointer?, guint, guint, GdkModifierType, gpointer?) -> gboolean = {
    _, keyval, _, state, data in
    let box = Unmanaged<KeyBox>.fromOpaque(data!).takeUnretainedValue()
    return MainActor.assumeIsolated { box.action(keyval, state) } ? 1 : 0
}

private let timeoutHandler: @convention(c) (gpointer?) -> gboolean = { data in
    let box = Unmanaged<HandledBox>.fromOpaque(data!).takeUnretainedValue()
    return MainActor.assumeIsolated { box.action() } ? 1 : 0
}

private let releaseBox: GClosureNotify = { data, _ in Unmanaged<ActionBox>.fromOpaque(data!).release() }
private let releaseHandledBox: GClosureNotify = { data, _ in Unmanaged<HandledBox>.fromOpaque(data!).release() }
private let releaseKeyBox: GClosureNotify = { data, _ in Unmanaged<KeyBox>.fromOpaque(data!).release() }
private let releaseTimeoutBox: GDestroyNotify = { data in Unmanaged<HandledBox>.fromOpaque(data!).release() }
