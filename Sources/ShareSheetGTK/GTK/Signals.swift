import CGtk
import GSignals

/// GTK's signals with the handler shapes the window uses, over `GSignals`, and a main-loop
/// timer. Each closure runs on the main actor (GTK emits on the main thread, the main actor's
/// inside `GLibMainLoop`); a signal's is kept until the handler is disconnected or the widget is
/// finalized, a timer's until it returns false.
@MainActor
enum Signals {
    /// A signal without arguments ("clicked", "changed", "activate", "toggled", "destroy").
    @discardableResult
    static func connect(_ instance: UnsafeMutableRawPointer?, _ signal: String, _ action: @escaping @MainActor () -> Void) -> SignalHandler? {
        guard let instance else { return nil }
        return Signal.connect(instance, signal) { _ in MainActor.assumeIsolated { action() } }
    }

    /// A signal whose handler answers "handled" ("close-request"): return true to stop the default.
    @discardableResult
    static func connectHandled(
        _ instance: UnsafeMutableRawPointer?, _ signal: String, _ action: @escaping @MainActor () -> Bool
    ) -> SignalHandler? {
        guard let instance else { return nil }
        return Signal.connect(instance, signal) { emission in
            emission.returnBoolean(MainActor.assumeIsolated { action() })
        }
    }

    /// A property change ("notify::active").
    @discardableResult
    static func connectNotify(
        _ instance: UnsafeMutableRawPointer?, property: String, _ action: @escaping @MainActor () -> Void
    ) -> SignalHandler? {
        connect(instance, "notify::" + property, action)
    }

    /// A key controller's "key-pressed": the handler gets the key value and modifiers and says
    /// whether it used the key.
    @discardableResult
    static func connectKeyPressed(
        _ controller: UnsafeMutableRawPointer?, _ action: @escaping @MainActor (UInt32, GdkModifierType) -> Bool
    ) -> SignalHandler? {
        guard let controller else { return nil }
        // (keyval, keycode, state)
        return Signal.connect(controller, "key-pressed") { emission in
            let key = emission.uint32(0)
            let state = GdkModifierType(rawValue: emission.flags(2))
            emission.returnBoolean(MainActor.assumeIsolated { action(key, state) })
        }
    }

    /// Runs `action` once, when the main loop has nothing more urgent to do: after the window's
    /// pending layout and drawing (GDK's redraw priority is higher than default idle).
    static func whenIdle(_ action: @escaping @MainActor () -> Void) {
        let box = Unmanaged.passRetained(HandledBox({ action(); return false })).toOpaque()
        g_idle_add_full(G_PRIORITY_DEFAULT_IDLE, timeoutHandler, box, releaseTimeoutBox)
    }

    /// Runs `action` every `milliseconds` on the main loop until it returns false.
    static func every(milliseconds: UInt32, _ action: @escaping @MainActor () -> Bool) -> UInt32 {
        let box = Unmanaged.passRetained(HandledBox(action)).toOpaque()
        return g_timeout_add_full(G_PRIORITY_DEFAULT, milliseconds, timeoutHandler, box, releaseTimeoutBox)
    }
}

/// A timer's action, carried through GLib's user data and released by its destroy-notify.
private final class HandledBox: Sendable {
    let action: @MainActor () -> Bool
    init(_ action: @escaping @MainActor () -> Bool) { self.action = action }
}

private let timeoutHandler: @convention(c) (gpointer?) -> gboolean = { data in
    let box = Unmanaged<HandledBox>.fromOpaque(data!).takeUnretainedValue()
    return MainActor.assumeIsolated { box.action() } ? 1 : 0
}

private let releaseTimeoutBox: GDestroyNotify = { data in Unmanaged<HandledBox>.fromOpaque(data!).release() }
