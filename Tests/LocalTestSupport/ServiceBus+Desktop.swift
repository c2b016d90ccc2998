import Foundation

extension ServiceBus {
    /// A private bus whose activated service shows its windows on `desktop`: the desktop's
    /// display and accessibility bus (`AT_SPI_BUS_ADDRESS`, as the service's session bus is this
    /// one), for tests that drive the service's window through AT-SPI.
    public static func start(home: TemporaryHome, desktop: DesktopSession, namespace: String? = nil) throws -> ServiceBus {
        var environment = desktop.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = nil
        environment["AT_SPI_BUS_ADDRESS"] = desktop.accessibilityBusAddress
        return try start(home: home, environment: environment, namespace: namespace)
    }

    /// The service's PID once it has taken its name (activation may still be under way): the
    /// service proper, not the front (`sharesheet-service`) that answers until it has.
    public func servicePID(timeout: Double = 10) async throws -> pid_t {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let pid = try await ownerPID(), let program = Self.program(of: pid), program != "sharesheet-service" { return pid }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw PeerError("the service never took its name: \(logTail())")
    }

    /// The name of the program `pid` runs; nil once it has ended (the front ends right after
    /// handing over, so a PID read a moment ago may be gone).
    public static func program(of pid: pid_t) -> String? {
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe") else { return nil }
        return URL(fileURLWithPath: executable).lastPathComponent
    }
}
