import CGIO
import Foundation
import GLibErrors
import GVariants
import ShareSheet
import ShareServiceProtocol
import ShareSheetSystem

/// What a target answered: `Share`'s result dictionary (an `Exec=` target's is made here).
struct TargetReply: Sendable {
    var completed: Bool?
    var disposition: String?
    var location: String?
    var errorMessage: String?
}

/// A GCancellable the activity cancels from the main actor while the call blocks a thread.
final class TargetCancellation: @unchecked Sendable {
    // GCancellable is thread-safe: cancelling from one thread wakes a call waiting on another.
    let pointer: UnsafeMutablePointer<GCancellable> = g_cancellable_new()

    func cancel() { g_cancellable_cancel(pointer) }

    deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }
}

/// One `org.sharesheet.Target1.Share` call: the items as SPEC §8 gives them (files as
/// descriptors only), the options, and the reply turned into an outcome or a one-line reason.
struct TargetBusCall: Sendable {
    /// The target's title, which every message starts with.
    var title: String
    var busName: String
    var items: [TargetItem]
    var subject: String?
    var timeout: Double
    /// The session bus the host environment names; the process's when nil.
    var busAddress: String?
    /// Where bytes are kept in an unnamed file to be passed as a descriptor.
    var temporaryFolder: String

    static let interface = "org.sharesheet.Target1"

    /// Calls the target and waits for its answer, at most `timeout`.
    /// - Throws: `ShareError` naming the target's bus name and what went wrong: not installed,
    ///   no answer in time, gone without answering, refused the call, or cancelled.
    func perform(cancellable: TargetCancellation) throws -> TargetReply {
        let connection = try connect(cancellable)
        defer { g_object_unref(UnsafeMutableRawPointer(connection)) }
        let descriptors = g_unix_fd_list_new()!
        defer { g_object_unref(UnsafeMutableRawPointer(descriptors)) }
        let call = WireItemsCall(
            items: try items.map { try encode($0, into: descriptors) }, options: WireOptions(subject: subject))
        var error: UnsafeMutablePointer<GError>?
        let reply = call.encode().withPointer { parameters in
            g_dbus_connection_call_with_unix_fd_list_sync(
                connection, busName, ShareTarget.objectPath(forBusName: busName), Self.interface, "Share", parameters,
                Variant.type("(a{sv})"), G_DBUS_CALL_FLAGS_NONE, Int32(min(timeout * 1000, Double(Int32.max))), descriptors,
                nil, cancellable.pointer, &error)
        }
        guard let reply else {
            throw failure(GLibError(taking: &error, call: "g_dbus_connection_call_with_unix_fd_list_sync"))
        }
        let results: WireResults
        do {
            results = try WireResults(decoding: GVariant(taking: reply).children[0])
        } catch let malformed as WireError {
            throw ShareError(.temporaryFailure, "\(title): \(busName) answered with a malformed result: \(malformed.message)")
        }
        return TargetReply(
            completed: results.completed, disposition: results.disposition, location: results.location,
            errorMessage: results.errorMessage)
    }

    private func connect(_ cancellable: TargetCancellation) throws -> OpaquePointer {
        var error: UnsafeMutablePointer<GError>?
        let connection: OpaquePointer?
        if let busAddress, busAddress != ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] {
            connection = g_dbus_connection_new_for_address_sync(
                busAddress,
                GDBusConnectionFlags(
                    G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
                        | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue), nil, cancellable.pointer, &error)
        } else {
            connection = g_bus_get_sync(G_BUS_TYPE_SESSION, cancellable.pointer, &error)
        }
        guard let connection else {
            throw ShareError(.unavailable, "\(title): no session bus: \(GLibError(taking: &error, call: "g_bus_get_sync").message)")
        }
        return connection
    }

    /// An item as the wire gives it: `text`, `uri`, or `fd` with `name` and `mime-type`.
    private func encode(_ item: TargetItem, into descriptors: UnsafeMutablePointer<GUnixFDList>) throws -> WireItem {
        switch item {
        case .text(let text): return .text(text)
        case .uri(let uri): return .uri(uri)
        case .file(let path, let name, let mimeType):
            let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
            guard descriptor >= 0 else {
                throw ShareError(.noInput, "\(path): \(String(cString: strerror(errno)))")
            }
            defer { close(descriptor) }
            return try descriptorEntry(descriptor, name: name, mimeType: mimeType, into: descriptors)
        case .bytes(let data, let name, let mimeType):
            let descriptor = try UnnamedFile.holding(data, in: temporaryFolder, name: name)
            defer { close(descriptor) }
            return try descriptorEntry(descriptor, name: name, mimeType: mimeType, into: descriptors)
        }
    }

    private func descriptorEntry(
        _ descriptor: Int32, name: String, mimeType: String?, into descriptors: UnsafeMutablePointer<GUnixFDList>
    ) throws -> WireItem {
        var error: UnsafeMutablePointer<GError>?
        // The list keeps a duplicate; the caller closes its own.
        let index = g_unix_fd_list_append(descriptors, descriptor, &error)
        guard index >= 0 else { throw ShareError(.ioError, "\(name): \(GLibError(taking: &error, call: "g_unix_fd_list_append").message)") }
        return .file(descriptor: index, name: name, mimeType: mimeType)
    }

    /// A failed call as a share error: what people need to know, in one line.
    private func failure(_ error: GLibError) -> ShareError {
        if error.domain.isEmpty { return ShareError(.unavailable, "\(title): \(busName): the call failed") }
        if error.isIO(G_IO_ERROR_CANCELLED) { return ShareError(.cancelled, "\(title): cancelled") }
        // GDBus's own wait ends with TIMED_OUT; the bus's NoReply means the target left (crashed)
        // without answering, which is a failure, not slowness.
        let isTimeout = error.isIO(G_IO_ERROR_TIMED_OUT) || error.isDBus(G_DBUS_ERROR_TIMEOUT) || error.isDBus(G_DBUS_ERROR_TIMED_OUT)
        let serviceUnknown = error.isDBus(G_DBUS_ERROR_SERVICE_UNKNOWN)
        let message = error.message
        if isTimeout {
            return ShareError(
                .temporaryFailure, "\(title): \(busName) did not answer within \(Self.seconds(timeout))",
                hint: "[targets] timeout= gives it longer")
        }
        if serviceUnknown {
            return ShareError(.unavailable, "\(title): \(busName) is not running, and no D-Bus service file starts it: \(message)")
        }
        return ShareError(.temporaryFailure, "\(title): \(busName) failed: \(message)")
    }

    /// "2 s", "1.5 s".
    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }

    /// Runs blocking work (a D-Bus call that may wait a minute, a launch) on a thread of its
    /// own, so the few threads Swift's concurrency pool has are never held waiting.
    static func offThePool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: work()) }
        }
    }
}
