import Synchronization

/// Stops a running transfer from any thread: libcurl's callbacks check it between pieces and at
/// least once a second while the peer is silent.
public final class CurlCancellation: Sendable {
    private let flag = Atomic<Bool>(false)

    public init() {}

    /// Asks the transfer to stop; it ends with `CURLE_ABORTED_BY_CALLBACK`.
    public func cancel() { flag.store(true, ordering: .releasing) }

    /// True once `cancel` was called.
    public var isCancelled: Bool { flag.load(ordering: .acquiring) }
}
