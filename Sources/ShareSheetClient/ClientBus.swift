import DBus
import GLibErrors
import ShareSheet

/// The client's own connection to the session bus (or the bus at an address), made on the
/// thread that uses it: a shared connection would deliver signals through the default context.
enum ClientBus {
    /// - Throws: `ShareError(.unavailable)` when there is no bus, or it cannot be reached.
    static func connect(_ busAddress: String?) throws -> DBusConnection {
        var address = busAddress ?? ""
        do throws(GLibError) {
            if busAddress == nil { address = try DBusConnection.sessionBusAddress() }
        } catch {
            throw ShareError(.unavailable, "no session bus: \(error.message)")
        }
        do throws(GLibError) {
            return try DBusConnection.bus(address: address)
        } catch {
            throw ShareError(.unavailable, "cannot connect to the session bus at \(address): \(error.message)")
        }
    }

    /// The descriptors in a list a call sends (the list keeps duplicates).
    /// - Throws: `ShareError(.ioError)` when one cannot be added (EMFILE).
    static func fileList(_ descriptors: [Int32]) throws -> DBusFileDescriptors {
        let fileList = DBusFileDescriptors()
        do throws(GLibError) {
            for descriptor in descriptors { try fileList.append(descriptor) }
        } catch {
            throw ShareError(.ioError, "cannot pass a file to the share service: \(error.message)")
        }
        return fileList
    }
}
