// Ports on 127.0.0.1 for the test peers, and for the tests that need an address where nothing
// answers (a refused connection, quickly, with no network).
import Foundation

/// The loopback interface, as the tests use it.
public enum Loopback {
    /// A port on 127.0.0.1 nothing listens on: bound to port 0, read back and released. A peer
    /// started on it right after (cupsd, ippeveprinter) gets it; a connection to it is refused.
    /// - Throws: `POSIXError` when no socket can be made or bound.
    public static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        guard bound else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EADDRINUSE) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
