import Foundation
import ShareService
import Sharing

extension Runner {
    /// `share --service`: the share service on the session bus until it has been idle for
    /// `SHARESHEET_SERVICE_IDLE_SECONDS` (30 by default).
    func serveOnTheBus() async -> Termination {
        let seconds = context.environment["SHARESHEET_SERVICE_IDLE_SECONDS"].flatMap(Double.init) ?? 30
        let server = ShareServer(
            host: host, idleTime: .milliseconds(Int(seconds * 1000)), front: frontDescriptor(), warn: { context.warn($0) })
        let status = await server.run()
        return Termination(status: status, message: nil)
    }

    /// The socket to the front (`sharesheet-service`) that started this service, named by
    /// `SHARESHEET_SERVICE_FRONT`; the variable is removed and the socket kept from the
    /// programs activities start.
    private func frontDescriptor() -> Int32? {
        guard let value = context.environment["SHARESHEET_SERVICE_FRONT"] else { return nil }
        unsetenv("SHARESHEET_SERVICE_FRONT")
        guard let descriptor = Int32(value), descriptor > 2, fcntl(descriptor, F_SETFD, FD_CLOEXEC) == 0 else {
            context.warn("SHARESHEET_SERVICE_FRONT=\(value) is not an open descriptor; serving without the front's calls")
            return nil
        }
        return descriptor
    }
}
