import Dispatch
import Foundation

/// Turns Ctrl-C (SIGINT) into a call on the main actor instead of killing the process, so a
/// sheet can be dismissed cleanly and its providers cancelled.
///
/// While it watches, SIGINT's default action is ignored and a dispatch signal source on the
/// main queue delivers it. `stop()` restores the default action.
@MainActor
public final class InterruptWatcher {
    private var source: DispatchSourceSignal?

    /// Starts watching; `handler` runs on the main actor for every SIGINT.
    public init(_ handler: @escaping @MainActor @Sendable () -> Void) {
        // Ignored first, so the default action never ends the process before the source sees it.
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .main)
        source.setEventHandler {
            MainActor.assumeIsolated { handler() }
        }
        source.resume()
        self.source = source
    }

    /// Stops watching and restores SIGINT's default action.
    public func stop() {
        guard let source else { return }
        source.cancel()
        self.source = nil
        signal(SIGINT, SIG_DFL)
    }
}
