import CGIO
import Dispatch
import Foundation

// libdispatch's hooks for a foreign run loop on the main thread: the eventfd it signals when
// main-queue work is waiting, and the call that drains that work.
@_silgen_name("_dispatch_get_main_queue_handle_4CF")
private func dispatchMainQueueHandle() -> Int32
@_silgen_name("_dispatch_main_queue_callback_4CF")
private func dispatchMainQueueDrain(_ message: UnsafeMutableRawPointer?)

/// Runs GLib's main loop on the main thread with the main actor inside it.
///
/// GTK and GDBus deliver their callbacks from GLib's default main context on the main thread;
/// Swift's main actor runs its jobs on libdispatch's main queue, which GLib never drains. This
/// joins the two: the main queue's eventfd becomes a GLib source, so main-actor jobs run as
/// soon as they are queued, between GLib's own events, with no polling.
public enum GLibMainLoop {
    /// Runs `body` on the main actor inside GLib's main loop, then ends the process with the
    /// status it returns. Call it from a synchronous `main`, on the main thread.
    public static func run(_ body: @escaping @MainActor () async -> Int32) -> Never {
        precondition(Thread.isMainThread, "GLibMainLoop.run must be called on the main thread")
        let loop = g_main_loop_new(nil, 0)
        g_unix_fd_add(dispatchMainQueueHandle(), G_IO_IN, drainMainQueue, nil)
        Task { @MainActor in
            let status = await body()
            // After a dismissal an activity's worker threads may still be unwinding (an upload
            // inside OpenSSL, say). `exit` would run the C libraries' exit handlers underneath
            // them and can crash; everything is written and flushed here, so leave without them.
            fflush(nil)
            _exit(status)
        }
        g_main_loop_run(loop)
        fatalError("GLib's main loop returned")
    }
}

/// Reads the eventfd (the drain does not reset it; without the read GLib would spin), then runs
/// the waiting main-queue work.
private func drainMainQueue(_ descriptor: Int32, _ condition: GIOCondition, _ data: gpointer?) -> gboolean {
    var count: UInt64 = 0
    _ = read(descriptor, &count, MemoryLayout<UInt64>.size)
    dispatchMainQueueDrain(nil)
    return 1
}
