// Ports on 127.0.0.1 for the test peers, and for the tests that need an address where nothing
// answers (a refused connection) or where nothing is ever accepted (a server that hangs).
import Foundation

/// The loopback interface, as the tests use it.
public enum Loopback {
    /// A TCP socket bound to 127.0.0.1 on a port the kernel chose; listening (never accepting)
    /// when asked. Closed by `close()` or when it goes away.
    public final class Socket {
        private var descriptor: Int32
        /// The port it is bound to.
        public let port: Int

        /// Binds a socket to port 0 of 127.0.0.1 and reads back the port; `listening` also
        /// listens, so a connection is taken into the backlog and never answered.
        /// - Throws: `POSIXError` when no socket can be made, bound or put to listen.
        public init(listening: Bool) throws {
            let made = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard made >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EMFILE) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(made, $0, length) == 0 && getsockname(made, $0, &length) == 0 }
            }
            guard bound, !listening || listen(made, 8) == 0 else {
                let code = POSIXErrorCode(rawValue: errno) ?? .EADDRINUSE
                Glibc.close(made)
                throw POSIXError(code)
            }
            descriptor = made
            port = Int(UInt16(bigEndian: address.sin_port))
        }

        /// Closes the socket; nothing listens on its port any more.
        public func close() {
            if descriptor >= 0 { Glibc.close(descriptor) }
            descriptor = -1
        }

        deinit { close() }
    }

    /// A port on 127.0.0.1 nothing listens on: bound, read back and released. A peer started on
    /// it right after (cupsd, ippeveprinter) gets it; a connection to it is refused.
    /// - Throws: `POSIXError` when no socket can be made or bound.
    public static func freePort() throws -> Int {
        let socket = try Socket(listening: false)
        defer { socket.close() }
        return socket.port
    }
}
