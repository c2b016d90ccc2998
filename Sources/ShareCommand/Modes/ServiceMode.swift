import Foundation
import ShareService
import Sharing

extension Runner {
    /// `share --service`: the share service on the session bus until it has been idle for
    /// `SHARESHEET_SERVICE_IDLE_SECONDS` (30 by default).
    func serveOnTheBus() async -> Termination {
        let seconds = context.environment["SHARESHEET_SERVICE_IDLE_SECONDS"].flatMap(Double.init) ?? 30
        let server = ShareServer(host: host, idleTime: .milliseconds(Int(seconds * 1000)), warn: { context.warn($0) })
        let status = await server.run()
        return Termination(status: status, message: nil)
    }
}
