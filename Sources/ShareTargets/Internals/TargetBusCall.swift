import CGIO
import DBus
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

/// What the activity cancels from the main actor while the call blocks a thread.
typealias TargetCancellation = DBusCancellable

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
    /// - Throws: `TargetNotRunning` when its service is not there and cannot be started (the
    ///   share may wait for it); else `ShareError` naming the target's bus name and what went
    ///   wrong: no answer in time, gone without answering, refused the call, or cancelled.
    func perform(cancellable: TargetCancellation) throws -> TargetReply {
        let connection = try connect(cancellable)
        try activate(connection, cancellable: cancellable)
        let descriptors = DBusFileDescriptors()
        let call = WireItemsCall(
            items: try items.map { try encode($0, into: descriptors) }, options: WireOptions(subject: subject))
        let reply: GVariant
        do throws(GLibError) {
            reply = try connection.callSync(
                busName, path: ShareTarget.objectPath(forBusName: busName), interface: Self.interface, method: "Share",
                arguments: call.encode(), replyType: "(a{sv})", descriptors: descriptors,
                timeout: .milliseconds(Int64(min(timeout * 1000, Double(Int32.max)))), cancellable: cancellable)
        } catch {
            throw failure(error)
        }
        let results: WireResults
        do {
            results = try WireResults(decoding: reply.children[0])
        } catch let malformed as WireError {
            throw ShareError(.temporaryFailure, "\(title): \(busName) answered with a malformed result: \(malformed.message)")
        }
        return TargetReply(
            completed: results.completed, disposition: results.disposition, location: results.location,
            errorMessage: results.errorMessage)
    }

    private func connect(_ cancellable: TargetCancellation) throws -> DBusConnection {
        do throws(GLibError) {
            if let busAddress, busAddress != ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] {
                return try DBusConnection.bus(address: busAddress, cancellable: cancellable)
            }
            return try DBusConnection.session(cancellable: cancellable)
        } catch {
            throw ShareError(.unavailable, "\(title): no session bus: \(error.message)")
        }
    }

    /// An item as the wire gives it: `text`, `uri`, or `fd` with `name` and `mime-type`.
    private func encode(_ item: TargetItem, into descriptors: DBusFileDescriptors) throws -> WireItem {
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
        _ descriptor: Int32, name: String, mimeType: String?, into descriptors: DBusFileDescriptors
    ) throws -> WireItem {
        // The list keeps a duplicate; the caller closes its own.
        do throws(GLibError) {
            return .file(descriptor: try descriptors.append(descriptor), name: name, mimeType: mimeType)
        } catch {
            throw ShareError(.ioError, "\(name): \(error.message)")
        }
    }

    /// A failed call as a share error: what people need to know, in one line.
    func failure(_ error: GLibError) -> ShareError {
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
                setting: TargetSettings.timeoutSetting, fix: .allowMoreTime)
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
