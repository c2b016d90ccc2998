import DBus
import Foundation
import GLibErrors
import GVariants
import ShareServiceProtocol
import ShareSheet
import ShareSheetSystem
import ShareSheetTerminal
import Sharing
import UniformTypes

// `share --via-service`: the command as a client of the share service (SPEC §8), so a sandboxed
// terminal shares through the host. Files go as descriptors, the rest as the wire format spells
// it (ShareServiceProtocol); the Response becomes the same `ShareResult` the local command
// reports, and `ListActivities` the same listing as `--list`.

// MARK: The request

/// One `Share` or `ListActivities` call built from the command line: items and options in the
/// wire format, and the descriptors of the files, which it closes when it goes away.
final class ServiceShareRequest {
    /// The items, files as indexes into `descriptors`.
    let items: [WireItem]
    /// The call's options, `handle_token` left to the client.
    let options: WireOptions
    /// The descriptors the items' `h` values index, in order.
    let descriptors: [Int32]
    /// The descriptors this request opened and closes.
    private let owned: [Int32]

    /// Throws the usage error of an invocation that cannot go to the service, before anything
    /// is read.
    static func check(_ invocation: Invocation) throws {
        if invocation.sheetStyle == .terminal, !invocation.mode.lists {
            throw ShareError(.usage, "--via-service shows the sheet in the service's window, not with --terminal")
        }
        if invocation.items.isEmpty { throw ShareError(.usage, "nothing to share: give a file, a URL, - or --text") }
        if invocation.items.filter({ $0 == .standardInput }).count > 1 {
            throw ShareError(.usage, "- (standard input) can be given only once")
        }
    }

    /// Opens every file operand read-only and puts the rest of the command line in the
    /// interface's terms; errors are the local command's (a missing file is "photo.jpg: no such
    /// file", 66).
    /// - Parameters:
    ///   - resolver: resolves the operands.
    ///   - standardInput: the `-` item, already resolved; a spooled file is opened here, and
    ///     the caller may remove its name as soon as this returns.
    ///   - temporaryFolder: where small non-text input waits, unlinked, for the service to read.
    ///   - suggestion: the id of a suggestion to pick instead of the sheet (`--suggestion ID`):
    ///     the service picks it with nobody to ask, as with
    ///     `--activity`, and fails with `error-field` "suggestion" for an id it does not suggest.
    init(
        invocation: Invocation, resolver: ItemResolver, standardInput: ResolvedItem?, temporaryFolder: String,
        suggestion: String? = nil
    ) throws {
        try Self.check(invocation)
        var items: [WireItem] = []
        var descriptors: [Int32] = []
        var owned: [Int32] = []
        func descriptorItem(_ descriptor: Int32, name: String?, mimeType: String?) -> WireItem {
            descriptors.append(descriptor)
            return .file(descriptor: Int32(descriptors.count - 1), name: name, mimeType: mimeType)
        }
        do {
            for input in invocation.items {
                switch input {
                case .text(let text):
                    items.append(.text(text))
                case .standardInput:
                    // Read and sniffed by the caller as `share -` does: text goes as text, an
                    // image or other bytes as a file of their own.
                    guard let resolved = standardInput else {
                        throw ShareError(.ioError, "-: standard input was not read")
                    }
                    let bytes: (data: Data, name: String, type: UTType)
                    switch resolved.value {
                    case let text as String:
                        items.append(.text(text))
                        continue
                    case let file as URL where resolved.spooledFile != nil:
                        // Too large for memory: the spooled file's own descriptor.
                        let descriptor = open(file.path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
                        if descriptor < 0 {
                            throw ShareError(.ioError, "-: cannot read standard input: " + ItemResolver.describe(errno: errno))
                        }
                        owned.append(descriptor)
                        let type = resolved.spooledFile?.type
                        items.append(
                            descriptorItem(descriptor, name: file.lastPathComponent, mimeType: type?.preferredMIMEType))
                        continue
                    case let image as Image:
                        let data = image.encodedData ?? Data()
                        bytes = (data, "stdin." + (image.type.preferredFilenameExtension ?? "img"), image.type)
                    case let item as DataItem:
                        bytes = (item.data, item.filename, item.type)
                    default:
                        throw ShareError(.badData, "-: standard input is neither text nor a file")
                    }
                    let descriptor = try UnnamedFile.holding(bytes.data, in: temporaryFolder, name: "-")
                    owned.append(descriptor)
                    items.append(descriptorItem(descriptor, name: bytes.name, mimeType: bytes.type.preferredMIMEType))
                case .fileDescriptor(let descriptor, let name, let mimeType):
                    items.append(descriptorItem(descriptor, name: name, mimeType: mimeType))
                case .bytes(_, let name, _):
                    throw ShareError(.usage, "\(name ?? "data"): bytes in memory cannot be sent to the share service")
                case .operand(let operand):
                    // The share layer decides what the operand is, and checks a file is readable.
                    let resolved = try resolver.item(for: operand)
                    guard let url = resolved.value as? URL else { throw ShareError(.badData, "\(operand): not a file or a link") }
                    guard url.isFileURL else {
                        items.append(.uri(url.absoluteString))
                        continue
                    }
                    let descriptor = open(url.path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
                    if descriptor < 0 { throw ShareError(.noInput, "\(operand): " + ItemResolver.describe(errno: errno)) }
                    owned.append(descriptor)
                    let name = url.lastPathComponent
                    let mimeType = url.pathExtension.isEmpty
                        ? nil : UTType(filenameExtension: url.pathExtension)?.preferredMIMEType
                    items.append(descriptorItem(descriptor, name: name, mimeType: mimeType))
                }
            }
        } catch {
            for descriptor in owned { close(descriptor) }
            throw error
        }

        var options = WireOptions(excludedActivities: invocation.exclusions)
        // A listing takes only the exclusions; a share its presets and whether to ask.
        if !invocation.mode.lists {
            if case .activity(let name) = invocation.mode {
                options.activity = name
                options.interactive = false
            } else if let suggestion {
                options.suggestion = suggestion
                options.interactive = false
            } else {
                options.interactive = true
            }
            options.subject = invocation.subject
            if !invocation.recipients.isEmpty { options.fields.append(.init("to", invocation.recipients.joined(separator: ","))) }
            options.fields += invocation.presets.settings.map { WireOptions.Field($0.key, $0.value) }
            let choices = try invocation.choices(forItemCount: items.count)
            if !choices.leftOut.isEmpty { options.sentItems = items.indices.filter { !choices.leftOut.contains($0) } }
            options.imageSize = invocation.imageSize?.rawValue
            if invocation.keepsLocation { options.keepLocation = true }
        }

        self.items = items
        self.options = options
        self.descriptors = descriptors
        self.owned = owned
    }

    deinit {
        for descriptor in owned { close(descriptor) }
    }
}

extension Invocation.Mode {
    /// `--list` and `--explain`: answered from `ListActivities`, nothing shared.
    var lists: Bool {
        switch self {
        case .list, .explain: return true
        default: return false
        }
    }
}

// MARK: The client

/// The share service's client on the session bus.
@MainActor
enum ServiceClient {
    static let busName = ServiceNames.busName
    static let objectPath = ServiceNames.objectPath
    static let interfaceName = ServiceNames.interface
    static let requestInterfaceName = ServiceNames.requestInterface
    /// How long a Close may take to bring its Response before the command ends anyway.
    static let closeGrace: Duration = .seconds(5)

    /// Sends `request` to the service and waits for its Response (the sheet's window, when there
    /// is one, is the service's). Ctrl-C closes the request; a second Ctrl-C stops waiting.
    /// - Parameters:
    ///   - environment: where the session bus's address comes from.
    ///   - insideMainLoop: true when GLib's main loop runs on the main thread (the `share`
    ///     program); the bus's replies and signals arrive there.
    ///   - catchesInterrupts: true when Ctrl-C should close the request.
    /// - Throws: a `ShareError` (`.unavailable` when the service cannot be reached).
    static func share(
        _ request: ServiceShareRequest, environment: [String: String], insideMainLoop: Bool, catchesInterrupts: Bool
    ) async throws -> ShareResult {
        guard insideMainLoop else {
            throw ShareError(.unavailable, "--via-service needs the share program's main loop")
        }
        let connection = try connect(environment)
        defer { connection.flush() }
        let token = "share_\(getpid())_\(UInt32.random(in: 0...UInt32.max))"

        let (events, sink) = AsyncStream<BusEvent>.makeStream()
        // Subscribed before the call, so a Response that comes at once is not missed, and on
        // every path: the request's is known only from the reply (the service names it after
        // handle_token, or makes its own when the call is refused), and the Response may come
        // before the reply has been read. Responses go to their caller only.
        let response = connection.subscribe(sender: busName, interface: requestInterfaceName, signal: "Response") {
            if let event = responseEvent($0) { sink.yield(event) }
        }
        let owner = connection.subscribe(
            sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", signal: "NameOwnerChanged",
            path: "/org/freedesktop/DBus", arg0: busName
        ) { signal in
            guard signal.arguments.typeString == "(sss)" else { return }
            let names = signal.arguments.children.map { $0.string ?? "" }
            sink.yield(.ownerChanged(old: names[1], new: names[2]))
        }
        let interrupts = catchesInterrupts ? InterruptWatcher { sink.yield(.interrupted) } : nil
        var giveUp: Task<Void, Never>?
        defer {
            interrupts?.stop()
            giveUp?.cancel()
            connection.unsubscribe(response)
            connection.unsubscribe(owner)
            sink.finish()
        }

        callShare(connection, request: request, token: token, sink: sink)
        var handle: String?
        var early: [String: ShareResult] = [:]
        var interrupted = false
        for await event in events {
            switch event {
            case .replied(.failure(let error)):
                throw error
            case .replied(.success(let path)):
                if let result = early[path] { return result }
                handle = path
                if interrupted { close(path, on: connection) }
            case .response(let path, let response):
                let result = ShareResult(response)
                if path == handle { return result }
                early[path] = result
            case .ownerChanged(let old, let new):
                if handle != nil, !old.isEmpty, new.isEmpty {
                    throw ShareError(.unavailable, "the share service stopped before the share ended")
                }
            case .interrupted:
                if interrupted { return .dismissed }
                interrupted = true
                if let handle { close(handle, on: connection) }
                giveUp = Task {
                    try? await Task.sleep(for: closeGrace)
                    sink.yield(.gaveUp)
                }
            case .gaveUp:
                return .dismissed
            }
        }
        return .dismissed
    }

    /// Asks the service what its sheet would offer for `request`'s items (`ListActivities`).
    /// - Throws: a `ShareError` (`.unavailable` when the service cannot be reached, `.ioError`
    ///   for a reply that is not a listing).
    static func activities(for request: ServiceShareRequest, environment: [String: String]) async throws -> [WireActivity] {
        try await list("ListActivities", for: request, environment: environment, decode: WireListing.decode)
    }

    /// Asks the service whom its sheet would suggest for `request`'s items (`ListSuggestions`),
    /// best first.
    /// - Throws: as `activities(for:environment:)`.
    static func suggestions(for request: ServiceShareRequest, environment: [String: String]) async throws -> [WireSuggestion] {
        try await list("ListSuggestions", for: request, environment: environment, decode: WireSuggestionListing.decode)
    }

    /// Calls `method` with `request`'s items and options, and reads its `(aa{sv})` reply.
    private static func list<Entry>(
        _ method: String, for request: ServiceShareRequest, environment: [String: String],
        decode: (GVariant) throws -> [Entry]
    ) async throws -> [Entry] {
        let connection = try connect(environment)
        let fileList = try descriptorList(request)
        let reply: GVariant
        do throws(GLibError) {
            reply = try await connection.call(
                busName, path: objectPath, interface: interfaceName, method: method,
                arguments: WireItemsCall(items: request.items, options: request.options).encode(), replyType: "(aa{sv})",
                descriptors: fileList)
        } catch {
            throw error.shareError
        }
        do {
            return try decode(reply)
        } catch let malformed as WireError {
            throw ShareError(.ioError, "the share service: \(malformed.message)")
        } catch {
            throw ShareError(.ioError, "the share service: \(error)")
        }
    }

    /// The descriptors of `request`'s files, in a list a call sends (the list keeps duplicates).
    /// - Throws: a `ShareError` when one cannot be added (EMFILE).
    private static func descriptorList(_ request: ServiceShareRequest) throws -> DBusFileDescriptors {
        let fileList = DBusFileDescriptors()
        do throws(GLibError) {
            for descriptor in request.descriptors { try fileList.append(descriptor) }
        } catch {
            throw ShareError(.ioError, "cannot pass a file to the share service: \(error.message)")
        }
        return fileList
    }

    /// The session bus from `environment`'s `DBUS_SESSION_BUS_ADDRESS`, else
    /// `$XDG_RUNTIME_DIR/bus`.
    private static func connect(_ environment: [String: String]) throws -> DBusConnection {
        var address = environment["DBUS_SESSION_BUS_ADDRESS"].flatMap { $0.isEmpty ? nil : $0 }
        if address == nil, let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty,
            access(runtime + "/bus", F_OK) == 0
        {
            address = "unix:path=" + runtime + "/bus"
        }
        guard let address else {
            throw notRunning("no session bus (DBUS_SESSION_BUS_ADDRESS is not set)")
        }
        do throws(GLibError) {
            return try DBusConnection.bus(address: address)
        } catch {
            throw notRunning("cannot connect to the session bus at \(address): \(error.message)")
        }
    }

    /// The error for a service that is not there.
    nonisolated static func notRunning(_ reason: String) -> ShareError {
        ShareError(.unavailable, "the share service is not running and could not be started: " + reason)
    }

    /// Sends `Share(s parent_window, aa{sv} items, a{sv} options)` with the files' descriptors;
    /// the reply comes to `sink`.
    private static func callShare(
        _ connection: DBusConnection, request: ServiceShareRequest, token: String,
        sink: AsyncStream<BusEvent>.Continuation
    ) {
        // An error here (EMFILE) ends the share before the call.
        let fileList: DBusFileDescriptors
        do {
            fileList = try descriptorList(request)
        } catch {
            sink.yield(.replied(.failure(error as? ShareError ?? ShareError(.ioError, "\(error)"))))
            return
        }
        var options = request.options
        options.handleToken = token
        connection.call(
            busName, path: objectPath, interface: interfaceName, method: "Share",
            arguments: WireShareCall(items: request.items, options: options).encode(), replyType: "(o)",
            descriptors: fileList
        ) { reply in
            switch reply {
            case .success(let value): sink.yield(.replied(.success(value.children.first?.string ?? "")))
            case .failure(let error): sink.yield(.replied(.failure(error.shareError)))
            }
        }
    }

    /// Asks the service to dismiss the request; its Response follows.
    private static func close(_ handle: String, on connection: DBusConnection) {
        connection.send(busName, path: handle, interface: requestInterfaceName, method: "Close")
    }
}

/// What the client waits for, in the order it happens.
enum BusEvent: Sendable {
    /// The Share call's reply: the request's path, or why it failed.
    case replied(Result<String, ShareError>)
    /// A request's Response: its path, and the response with its results.
    case response(String, WireResponse)
    /// The service's bus name changed owner ("" when none).
    case ownerChanged(old: String, new: String)
    /// Ctrl-C.
    case interrupted
    /// A Close brought no Response in time.
    case gaveUp
}

extension GLibError {
    /// What the command says: the bus could not start the service, or the service refused.
    var shareError: ShareError {
        let notThere = [
            "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner",
            "org.freedesktop.DBus.Error.NoReply", "org.freedesktop.DBus.Error.Timeout",
            "org.freedesktop.DBus.Error.TimedOut", "org.freedesktop.DBus.Error.Disconnected",
            "org.freedesktop.DBus.Error.NoServer", "org.freedesktop.DBus.Error.UnknownObject",
            "org.freedesktop.DBus.Error.UnknownInterface", "org.freedesktop.DBus.Error.UnknownMethod",
        ]
        guard let name = remoteName, !notThere.contains(name), !name.hasPrefix("org.freedesktop.DBus.Error.Spawn.") else {
            // No name: the connection itself failed (GIO's own error).
            return ServiceClient.notRunning(message)
        }
        // The service refuses what it cannot take (a reused handle_token) with InvalidArgs.
        return ShareError(name == "org.freedesktop.DBus.Error.InvalidArgs" ? .badData : .ioError, "the share service: \(message)")
    }
}

// MARK: Signals (GLib delivers them on the main thread, which runs its main context)

/// A `Response` as the client's event: one that cannot be read still ends its request, as a
/// failure saying what was wrong with the signal.
private func responseEvent(_ signal: DBusSignal) -> BusEvent? {
    let response: WireResponse
    do {
        response = try WireResponse(decoding: signal.arguments)
    } catch let malformed as WireError {
        response = WireResponse(
            response: WireResponse.failed,
            results: WireResults(completed: false, errorCode: "io-error", errorMessage: "the share service: \(malformed.message)"))
    } catch {
        return nil
    }
    return .response(signal.path, response)
}
