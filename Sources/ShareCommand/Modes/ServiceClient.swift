import CGIO
import Foundation
import GLibErrors
import ShareSheet
import ShareSheetSystem
import ShareSheetTerminal
import Sharing
import UniformTypes

// `share --via-service`: the command as a client of the share service (SPEC §8), so a sandboxed
// terminal shares through the host. Files go as descriptors, the rest as the interface spells
// it (Resources/dbus/org.sharesheet.ShareSheet1.xml); the Response becomes the same
// `ShareResult` the local command reports.

// MARK: The request

/// One `Share` call built from the command line: items and options as the interface types them,
/// and the descriptors of the files, which it closes when it goes away.
final class ServiceShareRequest {
    /// The items, one `a{sv}` each.
    let items: [[(String, BusValue)]]
    /// The call's options (`a{sv}`), `handle_token` left to the client.
    let options: [(String, BusValue)]
    /// The descriptors the items' `h` values index, in order.
    let descriptors: [Int32]
    /// The descriptors this request opened and closes.
    private let owned: [Int32]

    /// Throws the usage error of an invocation that cannot go to the service, before anything
    /// is read.
    static func check(_ invocation: Invocation) throws {
        switch invocation.mode {
        case .list, .explain:
            throw ShareError(.usage, "--via-service works with --activity or the sheet, not with --list or --explain")
        default: break
        }
        if invocation.sheetStyle == .terminal {
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
    init(
        invocation: Invocation, resolver: ItemResolver, standardInput: ResolvedItem?, temporaryFolder: String
    ) throws {
        try Self.check(invocation)
        var items: [[(String, BusValue)]] = []
        var descriptors: [Int32] = []
        var owned: [Int32] = []
        func descriptorItem(_ descriptor: Int32, name: String?, mimeType: String?) -> [(String, BusValue)] {
            descriptors.append(descriptor)
            var item: [(String, BusValue)] = [("fd", .handle(Int32(descriptors.count - 1)))]
            if let name { item.append(("name", .string(name))) }
            if let mimeType { item.append(("mime-type", .string(mimeType))) }
            return item
        }
        do {
            for input in invocation.items {
                switch input {
                case .text(let text):
                    items.append([("text", .string(text))])
                case .standardInput:
                    // Read and sniffed by the caller as `share -` does: text goes as text, an
                    // image or other bytes as a file of their own.
                    guard let resolved = standardInput else {
                        throw ShareError(.ioError, "-: standard input was not read")
                    }
                    let bytes: (data: Data, name: String, type: UTType)
                    switch resolved.value {
                    case let text as String:
                        items.append([("text", .string(text))])
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
                        items.append([("uri", .string(url.absoluteString))])
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

        var options: [(String, BusValue)] = []
        if case .activity(let name) = invocation.mode {
            options += [("activity", .string(name)), ("interactive", .boolean(false))]
        } else {
            options.append(("interactive", .boolean(true)))
        }
        if let subject = invocation.subject { options.append(("subject", .string(subject))) }
        var fields: [(String, String)] = []
        if !invocation.recipients.isEmpty { fields.append(("to", invocation.recipients.joined(separator: ","))) }
        let presets = invocation.presets
        fields += presets.settings.map { ($0.key, $0.value) }
        if !fields.isEmpty { options.append(("fields", .stringPairs(fields))) }
        if !invocation.exclusions.isEmpty { options.append(("excluded-activities", .strings(invocation.exclusions))) }

        self.items = items
        self.options = options
        self.descriptors = descriptors
        self.owned = owned
    }

    deinit {
        for descriptor in owned { close(descriptor) }
    }
}

/// A value the `Share` call sends, with the D-Bus type the interface gives it.
enum BusValue {
    /// `s`
    case string(String)
    /// `b`
    case boolean(Bool)
    /// `h`: an index into the message's descriptor list.
    case handle(Int32)
    /// `as`
    case strings([String])
    /// `a{ss}`, in order.
    case stringPairs([(String, String)])

    /// A new floating `GVariant` (the call that receives it takes it).
    fileprivate var variant: OpaquePointer {
        switch self {
        case .string(let text): return g_variant_new_string(text)
        case .boolean(let value): return g_variant_new_boolean(value ? 1 : 0)
        case .handle(let index): return g_variant_new_handle(index)
        case .strings(let texts):
            return Variants.array(of: Variants.type("s"), texts.map { g_variant_new_string($0) })
        case .stringPairs(let pairs):
            return Variants.array(
                of: Variants.type("{ss}"),
                pairs.map { g_variant_new_dict_entry(g_variant_new_string($0.0), g_variant_new_string($0.1)) })
        }
    }
}

/// Building and reading `GVariant`s without the variadic calls Swift cannot use.
private enum Variants {
    /// A `GVariantType` for a type string; the string lives as long as the program.
    static func type(_ text: StaticString) -> OpaquePointer { OpaquePointer(text.utf8Start) }

    /// An array of `children` (floating references, taken), empty arrays included.
    static func array(of childType: OpaquePointer, _ children: [OpaquePointer?]) -> OpaquePointer {
        var children = children
        return g_variant_new_array(childType, &children, gsize(children.count))
    }

    /// An `a{sv}` dictionary, in order.
    static func dictionary(_ entries: [(String, BusValue)]) -> OpaquePointer {
        array(
            of: type("{sv}"),
            entries.map { g_variant_new_dict_entry(g_variant_new_string($0.0), g_variant_new_variant($0.1.variant)) })
    }

    /// A string child's text.
    static func string(_ variant: OpaquePointer) -> String {
        String(cString: g_variant_get_string(variant, nil))
    }

    /// An `a{sv}` as a Swift dictionary of the values the results use.
    static func results(_ dictionary: OpaquePointer) -> [String: ResultValue] {
        var results: [String: ResultValue] = [:]
        for index in 0..<g_variant_n_children(dictionary) {
            let entry = g_variant_get_child_value(dictionary, index)
            let key = g_variant_get_child_value(entry, 0)
            let boxed = g_variant_get_child_value(entry, 1)
            let value = g_variant_get_variant(boxed)
            results[string(key!)] = ResultValue(value!)
            g_variant_unref(value)
            g_variant_unref(boxed)
            g_variant_unref(key)
            g_variant_unref(entry)
        }
        return results
    }
}

// MARK: The response

/// A value of the Response's results, as far as the command reads them.
enum ResultValue: Sendable, Equatable {
    case string(String)
    case boolean(Bool)
    case strings([String])
    /// Any other type, as GLib prints it.
    case other(String)

    fileprivate init(_ variant: OpaquePointer) {
        if g_variant_is_of_type(variant, Variants.type("s")) != 0 {
            self = .string(Variants.string(variant))
        } else if g_variant_is_of_type(variant, Variants.type("b")) != 0 {
            self = .boolean(g_variant_get_boolean(variant) != 0)
        } else if g_variant_is_of_type(variant, Variants.type("as")) != 0 {
            self = .strings(
                (0..<g_variant_n_children(variant)).map { index in
                    let child = g_variant_get_child_value(variant, index)!
                    defer { g_variant_unref(child) }
                    return Variants.string(child)
                })
        } else {
            let printed = g_variant_print(variant, 1)
            defer { g_free(printed) }
            self = .other(printed.map { String(cString: $0) } ?? "")
        }
    }

    var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}

extension ShareResult {
    /// The result a Response carries: `response` 0 done, 1 dismissed, 2 failed, and the results'
    /// keys (activity, activity-type, completed, disposition, location, returned-items,
    /// fallback-message, fallback-hint, error-code, error-message, error-hint), each present when it has a
    /// value.
    init(response: UInt32, results: [String: ResultValue]) {
        var completed = response == 0
        if case .boolean(let value) = results["completed"] { completed = value }
        var disposition = results["disposition"]?.string.flatMap(ShareDisposition.init(rawValue:))
        if disposition == nil, response == 1 { disposition = .cancelled }
        if disposition == nil, response == 2 { disposition = .failed }
        var returnedItems: [String] = []
        if case .strings(let items) = results["returned-items"] { returnedItems = items }
        let fallback = results["fallback-message"]?.string.map {
            ActivityFallback(message: $0, hint: results["fallback-hint"]?.string ?? "")
        }
        var failure: Failure?
        let code = results["error-code"]?.string
        let message = results["error-message"]?.string
        if code != nil || message != nil || response != 0 {
            let kind = code.flatMap(ShareError.Kind.init(rawValue:)) ?? (response == 1 ? .cancelled : .ioError)
            failure = Failure(
                code: kind, message: message ?? (kind == .cancelled ? "dismissed" : "the share service gave no reason"),
                hint: results["error-hint"]?.string)
        }
        self.init(
            activityType: results["activity-type"]?.string, activity: results["activity"]?.string, completed: completed,
            disposition: disposition, location: results["location"]?.string, returnedItems: returnedItems,
            fallback: fallback, error: failure)
    }
}

// MARK: The client

/// The share service's client on the session bus.
@MainActor
enum ServiceClient {
    static let busName = "org.sharesheet.ShareSheet"
    static let objectPath = "/org/sharesheet/ShareSheet"
    static let interfaceName = "org.sharesheet.ShareSheet1"
    static let requestInterfaceName = "org.sharesheet.Request1"
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
        defer {
            g_dbus_connection_flush_sync(connection, nil, nil)
            g_object_unref(UnsafeMutableRawPointer(connection))
        }
        let token = "share_\(getpid())_\(UInt32.random(in: 0...UInt32.max))"

        let (events, sink) = AsyncStream<BusEvent>.makeStream()
        // Subscribed before the call, so a Response that comes at once is not missed, and on
        // every path: the request's is known only from the reply (the service names it after
        // handle_token, or makes its own when the call is refused), and the Response may come
        // before the reply has been read. Responses go to their caller only.
        let response = subscribe(
            connection, sender: busName, interface: requestInterfaceName, member: "Response", path: nil, arg0: nil,
            sink: SignalSink(sink, kind: .response))
        let owner = subscribe(
            connection, sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged",
            path: "/org/freedesktop/DBus", arg0: busName, sink: SignalSink(sink, kind: .ownerChanged))
        let interrupts = catchesInterrupts ? InterruptWatcher { sink.yield(.interrupted) } : nil
        var giveUp: Task<Void, Never>?
        defer {
            interrupts?.stop()
            giveUp?.cancel()
            g_dbus_connection_signal_unsubscribe(connection, response)
            g_dbus_connection_signal_unsubscribe(connection, owner)
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
            case .response(let path, let code, let results):
                let result = ShareResult(response: code, results: results)
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

    /// The session bus from `environment`'s `DBUS_SESSION_BUS_ADDRESS`, else
    /// `$XDG_RUNTIME_DIR/bus`.
    private static func connect(_ environment: [String: String]) throws -> OpaquePointer {
        var address = environment["DBUS_SESSION_BUS_ADDRESS"].flatMap { $0.isEmpty ? nil : $0 }
        if address == nil, let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty,
            access(runtime + "/bus", F_OK) == 0
        {
            address = "unix:path=" + runtime + "/bus"
        }
        guard let address else {
            throw notRunning("no session bus (DBUS_SESSION_BUS_ADDRESS is not set)")
        }
        var error: UnsafeMutablePointer<GError>?
        let flags = GDBusConnectionFlags(
            G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        guard let connection = g_dbus_connection_new_for_address_sync(address, flags, nil, nil, &error) else {
            let failure = GLibError(taking: &error, call: "g_dbus_connection_new_for_address_sync")
            throw notRunning("cannot connect to the session bus at \(address): \(failure.message)")
        }
        return connection
    }

    /// The error for a service that is not there.
    nonisolated static func notRunning(_ reason: String) -> ShareError {
        ShareError(.unavailable, "the share service is not running and could not be started: " + reason)
    }

    private static func subscribe(
        _ connection: OpaquePointer, sender: String, interface: String, member: String, path: String?, arg0: String?,
        sink: SignalSink
    ) -> guint {
        g_dbus_connection_signal_subscribe(
            connection, sender, interface, member, path, arg0, G_DBUS_SIGNAL_FLAGS_NONE, deliverSignal,
            Unmanaged.passRetained(sink).toOpaque(), releaseSignalSink)
    }

    /// Sends `Share(s parent_window, aa{sv} items, a{sv} options)` with the files' descriptors;
    /// the reply comes to `sink`.
    private static func callShare(
        _ connection: OpaquePointer, request: ServiceShareRequest, token: String,
        sink: AsyncStream<BusEvent>.Continuation
    ) {
        let fileList = g_unix_fd_list_new()!
        defer { g_object_unref(fileList) }
        for descriptor in request.descriptors {
            var error: UnsafeMutablePointer<GError>?
            // The list keeps a duplicate; an error here (EMFILE) ends the share before the call.
            if g_unix_fd_list_append(fileList, descriptor, &error) < 0 {
                let failure = GLibError(taking: &error, call: "g_unix_fd_list_append")
                sink.yield(.replied(.failure(ShareError(.ioError, "cannot pass a file to the share service: \(failure.message)"))))
                return
            }
        }
        let items = Variants.array(of: Variants.type("a{sv}"), request.items.map { Variants.dictionary($0) })
        let options = Variants.dictionary([("handle_token", .string(token))] + request.options)
        var arguments: [OpaquePointer?] = [g_variant_new_string(""), items, options]
        let parameters = g_variant_new_tuple(&arguments, 3)
        g_dbus_connection_call_with_unix_fd_list(
            connection, busName, objectPath, interfaceName, "Share", parameters, Variants.type("(o)"),
            G_DBUS_CALL_FLAGS_NONE, -1, fileList, nil, shareReplied, Unmanaged.passRetained(CallSink(sink)).toOpaque())
    }

    /// Asks the service to dismiss the request; its Response follows.
    private static func close(_ handle: String, on connection: OpaquePointer) {
        // No callback: sent without expecting a reply.
        g_dbus_connection_call(
            connection, busName, handle, requestInterfaceName, "Close", nil, nil, G_DBUS_CALL_FLAGS_NONE, -1, nil,
            nil, nil)
    }
}

/// What the client waits for, in the order it happens.
enum BusEvent: Sendable {
    /// The Share call's reply: the request's path, or why it failed.
    case replied(Result<String, ShareError>)
    /// A request's Response: its path, the response and the results.
    case response(String, UInt32, [String: ResultValue])
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

// MARK: Callbacks (GLib calls them on the main thread, which runs its main context)

/// Carries one subscription's signals into the client's event stream.
private final class SignalSink: Sendable {
    enum Kind { case response, ownerChanged }
    let events: AsyncStream<BusEvent>.Continuation
    let kind: Kind

    init(_ events: AsyncStream<BusEvent>.Continuation, kind: Kind) {
        self.events = events
        self.kind = kind
    }
}

/// Carries the Share call's reply into the client's event stream.
private final class CallSink: Sendable {
    let events: AsyncStream<BusEvent>.Continuation

    init(_ events: AsyncStream<BusEvent>.Continuation) { self.events = events }
}

private func deliverSignal(
    _ connection: OpaquePointer?, _ sender: UnsafePointer<gchar>?, _ path: UnsafePointer<gchar>?,
    _ interface: UnsafePointer<gchar>?, _ member: UnsafePointer<gchar>?, _ parameters: OpaquePointer?,
    _ data: gpointer?
) {
    guard let data, let parameters else { return }
    let sink = Unmanaged<SignalSink>.fromOpaque(data).takeUnretainedValue()
    switch sink.kind {
    case .response:
        guard g_variant_is_of_type(parameters, Variants.type("(ua{sv})")) != 0 else { return }
        let code = g_variant_get_child_value(parameters, 0)!
        let results = g_variant_get_child_value(parameters, 1)!
        defer {
            g_variant_unref(code)
            g_variant_unref(results)
        }
        let path = path.map { String(cString: $0) } ?? ""
        sink.events.yield(.response(path, g_variant_get_uint32(code), Variants.results(results)))
    case .ownerChanged:
        guard g_variant_is_of_type(parameters, Variants.type("(sss)")) != 0 else { return }
        let old = g_variant_get_child_value(parameters, 1)!
        let new = g_variant_get_child_value(parameters, 2)!
        defer {
            g_variant_unref(old)
            g_variant_unref(new)
        }
        sink.events.yield(.ownerChanged(old: Variants.string(old), new: Variants.string(new)))
    }
}

private func releaseSignalSink(_ data: gpointer?) {
    guard let data else { return }
    Unmanaged<SignalSink>.fromOpaque(data).release()
}

private func shareReplied(_ source: UnsafeMutablePointer<GObject>?, _ result: OpaquePointer?, _ data: gpointer?) {
    guard let data else { return }
    let sink = Unmanaged<CallSink>.fromOpaque(data).takeRetainedValue()
    var error: UnsafeMutablePointer<GError>?
    guard let reply = g_dbus_connection_call_with_unix_fd_list_finish(OpaquePointer(source), nil, result, &error)
    else {
        sink.events.yield(.replied(.failure(GLibError(taking: &error, call: "g_dbus_connection_call_with_unix_fd_list_finish").shareError)))
        return
    }
    let path = g_variant_get_child_value(reply, 0)!
    sink.events.yield(.replied(.success(Variants.string(path))))
    g_variant_unref(path)
    g_variant_unref(reply)
}
