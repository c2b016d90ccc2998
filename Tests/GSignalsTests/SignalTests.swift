import CGIO
import GSignals
import Synchronization
import Testing

/// Says whether a handler's closure was let go.
private final class Released: Sendable {
    private let flag = Atomic<Bool>(false)
    func set() { flag.store(true, ordering: .sequentiallyConsistent) }
    var isSet: Bool { flag.load(ordering: .sequentiallyConsistent) }
}

/// Counts a handler's calls and says when the handler's closure (which holds it) was let go.
private final class Probe: Sendable {
    let calls = Atomic<Int>(0)
    let released: Released
    init(released: Released) { self.released = released }
    deinit { released.set() }
}

/// A handler whose closure keeps a `Probe`; `released` turns true when GLib lets the closure go.
private func connectProbe(
    _ instance: UnsafeMutableRawPointer, _ signal: String, released: Released,
    _ body: @escaping @Sendable (SignalEmission) -> Void = { _ in }
) -> (SignalHandler, calls: @Sendable () -> Int) {
    let probe = Probe(released: released)
    let handler = Signal.connect(instance, signal) { emission in
        probe.calls.add(1, ordering: .sequentiallyConsistent)
        body(emission)
    }
    return (handler, { [weak probe] in probe?.calls.load(ordering: .sequentiallyConsistent) ?? -1 })
}

/// GLib's warnings and criticals of the GObject domain while `body` runs, counted instead of
/// written on standard error.
private func complaints(_ body: () -> Void) -> Int {
    let levels = GLogLevelFlags(G_LOG_LEVEL_WARNING.rawValue | G_LOG_LEVEL_CRITICAL.rawValue)
    let handler = g_log_set_handler("GLib-GObject", levels, { _, _, _, _ in
        LogCount.complaints.add(1, ordering: .sequentiallyConsistent)
    }, nil)
    defer { g_log_remove_handler("GLib-GObject", handler) }
    let before = LogCount.complaints.load(ordering: .sequentiallyConsistent)
    body()
    return LogCount.complaints.load(ordering: .sequentiallyConsistent) - before
}

private enum LogCount {
    static let complaints = Atomic<Int>(0)
}

@Suite("GSignals: one way to connect a GObject signal, one owner for its closure")
struct SignalTests {
    @Test("the closure runs for each emission and is let go when the handler is disconnected")
    func disconnectReleases() {
        let cancellable = UnsafeMutableRawPointer(g_cancellable_new()!)
        defer { g_object_unref(cancellable) }
        let released = Released()
        let address = Int(bitPattern: cancellable)
        let (handler, calls) = connectProbe(cancellable, "cancelled", released: released) { emission in
            #expect(emission.instance.map { Int(bitPattern: $0) } == address)
            #expect(emission.count == 0)
        }
        #expect(handler.id != 0)
        #expect(!released.isSet, "the handler keeps its closure")
        g_cancellable_cancel(cancellable.assumingMemoryBound(to: GCancellable.self))
        #expect(calls() == 1)
        handler.disconnect()
        #expect(released.isSet, "disconnecting lets the closure go")
        handler.disconnect()  // a second time is harmless
    }

    @Test("the closure is let go when the object is finalized")
    func finalizeReleases() {
        let cancellable = UnsafeMutableRawPointer(g_cancellable_new()!)
        let released = Released()
        _ = connectProbe(cancellable, "cancelled", released: released)
        #expect(!released.isSet)
        g_object_unref(cancellable)
        #expect(released.isSet)
    }

    @Test("a signal GLib does not know: id 0, GLib's warning, and the closure let go at once")
    func unknownSignal() {
        let cancellable = UnsafeMutableRawPointer(g_cancellable_new()!)
        defer { g_object_unref(cancellable) }
        let released = Released()
        let said = complaints {
            let (handler, _) = connectProbe(cancellable, "no-such-signal", released: released)
            #expect(handler.id == 0)
        }
        #expect(said == 1)
        #expect(released.isSet)
    }

    @Test("a detailed signal (notify::enabled) calls only for its detail")
    func detailedSignal() {
        let action = UnsafeMutableRawPointer(g_simple_action_new("probe", nil)!)
        defer { g_object_unref(action) }
        let released = Released()
        let (_, calls) = connectProbe(action, "notify::enabled", released: released)
        g_simple_action_set_enabled(OpaquePointer(action), 0)
        g_object_notify(action.assumingMemoryBound(to: GObject.self), "name")
        #expect(calls() == 1)
        g_simple_action_set_enabled(OpaquePointer(action), 1)
        #expect(calls() == 2)
    }

    // GDBusAuthObserver's "authorize-authenticated-peer" returns gboolean and stops at the first
    // handler that returns false; its default handler allows. A value not set reads as false.
    @Test("a handler's boolean return value reaches the emitter, with the signal's object arguments", arguments: [true, false])
    func booleanReturn(allow: Bool) {
        let observer = g_dbus_auth_observer_new()!
        defer { g_object_unref(UnsafeMutableRawPointer(observer)) }
        let released = Released()
        let (_, calls) = connectProbe(UnsafeMutableRawPointer(observer), "authorize-authenticated-peer", released: released) {
            emission in
            #expect(emission.count == 2)
            #expect(emission.object(0) == nil)
            #expect(emission.object(1) == nil)
            emission.returnBoolean(allow)
        }
        #expect((g_dbus_auth_observer_authorize_authenticated_peer(observer, nil, nil) != 0) == allow)
        #expect(calls() == 1)
    }
}
