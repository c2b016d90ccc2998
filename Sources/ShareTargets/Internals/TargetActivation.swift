import CGIO
import DBus
import Foundation
import GLibErrors
import GVariants
import ShareSheet

/// The target's service was not there to take the share: its bus name had no owner and the
/// bus could not start it. Nothing reached the target, so the share can wait and go later
/// (SPEC §14); `error` says it in one line for when it cannot wait.
struct TargetNotRunning: Error {
    var busName: String
    var error: ShareError
}

extension TargetBusCall {
    /// Makes sure the target's name has an owner before `Share` is called: when it has none,
    /// the bus starts its service (`StartServiceByName`, which the bus answers "unknown" for a
    /// name without a service file even while someone owns it, hence `NameHasOwner` first).
    ///
    /// The one step that tells "not running" from "failed": when `Share` itself fails the
    /// target had the items and may have acted on them, so that failure is never queued; a
    /// failure here means nothing was handed over.
    /// - Throws: `TargetNotRunning` when there is no service to start, it could not start, or
    ///   it did not take its name in time; `ShareError(.cancelled)` when cancelled.
    func activate(_ connection: DBusConnection, cancellable: TargetCancellation) throws {
        let wait = Duration.milliseconds(Int64(min(timeout * 1000, Double(Int32.max))))
        do throws(GLibError) {
            let owned = try connection.callSync(
                "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                method: "NameHasOwner", arguments: .tuple([.string(busName)]), replyType: "(b)", timeout: wait,
                cancellable: cancellable)
            if owned.children.first?.bool == true { return }
            _ = try connection.callSync(
                "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                method: "StartServiceByName", arguments: .tuple([.string(busName), .uint32(0)]), replyType: "(u)",
                timeout: wait, cancellable: cancellable)
        } catch {
            guard let reason = notRunning(error) else { throw failure(error) }
            throw TargetNotRunning(busName: busName, error: reason)
        }
    }

    /// Why the service is not there, in one line: no service file, it would not start, or it
    /// did not take its name in time; nil for any other failure (a cancel, a refused call).
    private func notRunning(_ error: GLibError) -> ShareError? {
        if error.isDBus(G_DBUS_ERROR_SERVICE_UNKNOWN) || error.isDBus(G_DBUS_ERROR_NAME_HAS_NO_OWNER) {
            return ShareError(
                .temporaryFailure, "\(title): \(busName) is not running, and no D-Bus service file starts it: \(error.message)")
        }
        let isTimeout =
            error.isIO(G_IO_ERROR_TIMED_OUT) || error.isDBus(G_DBUS_ERROR_TIMEOUT) || error.isDBus(G_DBUS_ERROR_TIMED_OUT)
            || error.isDBus(G_DBUS_ERROR_NO_REPLY)
        if isTimeout {
            return ShareError(
                .temporaryFailure, "\(title): \(busName) did not start within \(Self.seconds(timeout))",
                setting: TargetSettings.timeoutSetting, fix: .allowMoreTime)
        }
        if Self.spawnFailures.contains(where: error.isDBus) {
            return ShareError(.temporaryFailure, "\(title): \(busName) could not be started: \(error.message)")
        }
        return nil
    }

    /// The bus's errors for a service file whose program could not be run or did not stay.
    private static let spawnFailures: [GDBusError] = [
        G_DBUS_ERROR_SPAWN_EXEC_FAILED, G_DBUS_ERROR_SPAWN_FORK_FAILED, G_DBUS_ERROR_SPAWN_CHILD_EXITED,
        G_DBUS_ERROR_SPAWN_CHILD_SIGNALED, G_DBUS_ERROR_SPAWN_FAILED, G_DBUS_ERROR_SPAWN_SETUP_FAILED,
        G_DBUS_ERROR_SPAWN_CONFIG_INVALID, G_DBUS_ERROR_SPAWN_SERVICE_INVALID, G_DBUS_ERROR_SPAWN_SERVICE_NOT_FOUND,
        G_DBUS_ERROR_SPAWN_PERMISSIONS_INVALID, G_DBUS_ERROR_SPAWN_FILE_INVALID, G_DBUS_ERROR_SPAWN_NO_MEMORY,
    ]
}
