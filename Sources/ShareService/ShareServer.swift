import DBus
import GVariants
import Foundation
import GLibErrors
import ShareServiceProtocol
import ShareSheet
import ShareSheetGTK
import Sharing

/// The share service (SPEC §8): `org.sharesheet.ShareSheet` on the session bus, serving
/// `ListActivities`, `ListSuggestions` and `Share` from any application until it has been idle
/// a while.
///
/// Everything runs on the main actor inside `GLibMainLoop`: GDBus delivers method calls from
/// GLib's default main context on the main thread. Descriptors are read only by providers,
/// after the pick and off the main thread, so a slow or stuck caller never holds up the others.
///
/// Started by the front (`sharesheet-service`, what D-Bus activation runs), it takes the name
/// over from the front, then serves the calls the front took meanwhile as its own: they arrive
/// over the socket the front gave it (`WorkerInterfaceXML`) with their callers' names.
@MainActor
public final class ShareServer {
    public nonisolated static let busName = ServiceNames.busName
    public nonisolated static let objectPath = ServiceNames.objectPath

    private let host: ShareHost
    private let idleTime: Duration
    private let warn: (String) -> Void
    /// The socket to the front that started this service, until its calls are taken over.
    private var frontDescriptor: Int32?
    /// The connection to the front, kept while the front passes its calls on.
    private var front: DBusConnection?
    private var interfaces: DBusInterfaceDescription?
    private var ownership: DBusNameOwnership?
    private var connection: DBusConnection?
    private var requests: [String: ServiceRequest] = [:]
    private var idleTimer: Task<Void, Never>?
    private var lastUse = ContinuousClock.now
    private var generatedTokens = 0
    private var ending: CheckedContinuation<Int32, Never>?
    private var status: Int32 = 0
    private let keepsRunning: @MainActor () -> Bool
    /// What the settings window shows beyond the configuration file (share targets, posting
    /// accounts, printers) for a caller's environment, made as each window opens: the service's
    /// owner knows the backends, the service does not.
    public var settingsExtras: @MainActor (HostEnvironment) -> SettingsExtras = { _ in SettingsExtras() }

    /// Makes the service.
    /// - Parameters:
    ///   - idleTime: how long it waits without requests before it exits.
    ///   - front: the descriptor of the socket to the front that started this service; the
    ///     service then replaces the front as the name's owner and serves what it took.
    ///   - warn: says a line on standard error (the service has no one else to tell).
    ///   - keepsRunning: asked at the idle deadline: true puts the exit off by another idle
    ///     time (the queue watcher, while shares wait for a condition it watches).
    public init(
        host: ShareHost, idleTime: Duration = .seconds(30), front: Int32? = nil, warn: @escaping (String) -> Void,
        keepsRunning: @escaping @MainActor () -> Bool = { false }
    ) {
        self.host = host
        self.keepsRunning = keepsRunning
        self.idleTime = idleTime
        self.frontDescriptor = front
        self.warn = warn
    }

    /// Serves until idle; returns the exit status (0, or 69 when the name cannot be had).
    public func run() async -> Int32 {
        do throws(GLibError) {
            interfaces = try DBusInterfaceDescription(xml: InterfaceXML.text)
        } catch {
            warn("the interface description does not parse: \(error.message)")
            return 70
        }
        // The front lets its name be replaced; nobody may replace this service.
        let flags: DBusNameOwnerFlags = frontDescriptor == nil ? [.doNotQueue] : [.replace, .doNotQueue]
        // GDBus calls back on the main thread (GLib's default context), the main actor's.
        ownership = DBusConnection.ownOnSessionBus(
            name: Self.busName, flags: flags,
            busAcquired: { [weak self] connection in MainActor.assumeIsolated { self?.acquired(connection) } },
            acquired: { [weak self] in MainActor.assumeIsolated { self?.nameAcquiredNow() } },
            lost: { [weak self] in MainActor.assumeIsolated { self?.nameLostNow() } })
        return await withCheckedContinuation { ending = $0 }
    }

    // MARK: The bus

    private func acquired(_ connection: DBusConnection) {
        self.connection = connection
        do throws(GLibError) {
            _ = try connection.register(
                path: Self.objectPath, interface: interface(ServiceNames.interface),
                methodCall: { [weak self] call in MainActor.assumeIsolated { self?.handle(call) } },
                property: { $0 == "version" ? .uint32(ServiceNames.version) : nil })
        } catch {
            warn("cannot serve \(Self.objectPath): \(error.message)")
            end(status: 70)
        }
    }

    private func nameAcquiredNow() {
        restartIdleTimer()
        if let descriptor = frontDescriptor {
            frontDescriptor = nil
            takeOver(from: descriptor)
        }
    }

    /// Connects to the front over its socket, now that the name is this service's, and serves
    /// the calls it passes on. The front ends once it has passed them all.
    private func takeOver(from descriptor: Int32) {
        // Messages wait until the object is there: the front sends as soon as its side of the
        // handshake is done, and a call that came before would be dropped unanswered (GDBus
        // cannot even send the error while this side is still initializing).
        let front: DBusConnection
        let worker: DBusInterface?
        do throws(GLibError) {
            front = try DBusConnection.peerClient(socket: descriptor)
            worker = try DBusInterfaceDescription(xml: WorkerInterfaceXML.text).interface(WorkerInterfaceXML.interface)
        } catch {
            return warn("cannot connect to the front: \(error.message)")
        }
        self.front = front
        do throws(GLibError) {
            guard let worker else { throw GLibError(call: "lookup", domain: "", code: 0, message: "no worker interface") }
            _ = try front.register(
                path: Self.objectPath, interface: worker,
                methodCall: { [weak self] call in MainActor.assumeIsolated { self?.handleFromFront(call) } })
        } catch {
            warn("cannot take the front's calls: \(error.message)")
        }
        front.startMessageProcessing()
    }

    private func nameLostNow() {
        if connection == nil {
            warn("no session bus to serve on (DBUS_SESSION_BUS_ADDRESS)")
        } else {
            warn("another share service already has \(Self.busName)")
        }
        end(status: 69)
    }

    /// An interface of `InterfaceXML`, which names every one the service asks for.
    private func interface(_ name: String) -> DBusInterface {
        interfaces!.interface(name)!
    }

    // MARK: Methods

    /// A call from a caller on the bus: `ListActivities(aa{sv}, a{sv})`,
    /// `ListSuggestions(aa{sv}, a{sv})` or `Share(s, aa{sv}, a{sv})`.
    private func handle(_ invocation: DBusMethodInvocation) {
        // GDBus has checked the arguments against the interface's types.
        let arguments = invocation.arguments
        let sender = invocation.sender
        switch (invocation.method, arguments.count) {
        case ("ListActivities", 2):
            listActivities(items: arguments[0], options: arguments[1], invocation: invocation)
        case ("ListSuggestions", 2):
            listSuggestions(items: arguments[0], options: arguments[1], invocation: invocation)
        case ("Share", 3):
            share(
                sender: sender, handle: nil, parentWindow: arguments[0].string ?? "", items: arguments[1],
                options: arguments[2], invocation: invocation)
        default:
            invocation.returnError(DBusErrorName.unknownMethod, "no method \(invocation.method)")
        }
    }

    /// A call the front took before this service had the name, with its caller's name first
    /// (`WorkerInterfaceXML`). The caller's descriptors come with it.
    private func handleFromFront(_ invocation: DBusMethodInvocation) {
        let arguments = invocation.arguments
        let sender = arguments.first?.string ?? ""
        switch (invocation.method, arguments.count) {
        case ("ListActivities", 3):
            listActivities(items: arguments[1], options: arguments[2], invocation: invocation)
        case ("ListSuggestions", 3):
            listSuggestions(items: arguments[1], options: arguments[2], invocation: invocation)
        case ("Share", 5):
            share(
                sender: sender, handle: arguments[1].string, parentWindow: arguments[2].string ?? "",
                items: arguments[3], options: arguments[4], invocation: invocation)
        case ("Close", 2):
            invocation.returnValue()
            if let handle = arguments[1].string, let request = requests[handle], request.sender == sender { request.close() }
        default:
            invocation.returnError(DBusErrorName.unknownMethod, "no method \(invocation.method)")
        }
    }

    private func listActivities(items: GVariant, options: GVariant, invocation: DBusMethodInvocation) {
        restartIdleTimer()
        do {
            let call = try ServiceCall(items: items, options: options, fileDescriptors: invocation.descriptors)
            defer { for descriptor in call.descriptors { close(descriptor) } }
            invocation.returnValue(try WireListing.encode(listing(call)))
        } catch {
            returnError(invocation, message(of: error))
        }
    }

    /// The sheet's suggestions for the items, best first, as `Share`'s `suggestion` takes them;
    /// no sheet is shown. Items are read as for `ListActivities`, and a file is never read.
    private func listSuggestions(items: GVariant, options: GVariant, invocation: DBusMethodInvocation) {
        restartIdleTimer()
        do {
            let call = try ServiceCall(items: items, options: options, fileDescriptors: invocation.descriptors)
            defer { for descriptor in call.descriptors { close(descriptor) } }
            let controller = try host.controller(
                for: call.items, presets: call.presets, excluding: call.exclusions, applicationActivities: call.customActions,
                choices: call.choices)
            let suggestions = controller.suggestions.map { WireSuggestion($0, names: host.names) }
            invocation.returnValue(WireSuggestionListing.encode(suggestions))
        } catch {
            returnError(invocation, message(of: error))
        }
    }

    /// The sheet's activities for a call, offered first, then the rest with their reasons.
    private func listing(_ call: ServiceCall) throws -> [WireActivity] {
        let controller = try host.controller(
            for: call.items, presets: call.presets, excluding: call.exclusions, applicationActivities: call.customActions,
                choices: call.choices)
        let sheet = controller.sheet
        func entry(_ activity: Activity, reason: String?) -> WireActivity {
            let name = host.names.entry(for: activity)
            // The facts behind a reason go too, so a client words its own advice (SPEC §11).
            let facts = reason == nil ? nil : sheet.unavailableFixes[ObjectIdentifier(activity)]
            return WireActivity(
                activity: name.name, activityType: name.activityType, title: name.title, iconName: name.iconName,
                category: name.category, available: reason == nil, reason: reason,
                reasonSetting: facts?.setting?.description, reasonFix: facts?.fix?.rawValue, reasonPath: facts?.path)
        }
        return sheet.activities.map { entry($0, reason: nil) } + sheet.unavailable.map { entry($0.activity, reason: $0.reason) }
    }

    /// Starts a request for `Share`. A caller on the bus is answered with the request's path;
    /// the front, which answered the caller with `handle` already, with nothing (an error means
    /// the request was not taken, and the front tells the caller).
    private func share(
        sender: String, handle: String?, parentWindow: String, items: GVariant, options: GVariant,
        invocation: DBusMethodInvocation
    ) {
        guard let connection else { return }
        restartIdleTimer()
        // A token that cannot name the request object is refused by the call itself: a Response
        // on a path the caller did not expect would never reach it. (The front checked its own.)
        if handle == nil, let token = options.lookup("handle_token") {
            guard let text = token.string, token.typeString == "s", ServiceNames.isValidToken(text) else {
                return returnError(invocation, ServiceNames.invalidTokenMessage)
            }
        }
        let answer = { (path: String) in
            invocation.returnValue(handle == nil ? .tuple([.objectPath(path)]) : nil)
        }
        var call: ServiceCall
        do {
            call = try ServiceCall(items: items, options: options, fileDescriptors: invocation.descriptors)
            call.parentWindow = parentWindow
        } catch {
            // The caller still gets a request, at the path its token asked for, and its
            // Response says what was wrong.
            let path = handle ?? requestPath(sender: sender, token: ServiceCall.validToken(in: options) ?? generatedToken())
            answer(path)
            let response = WireResponse(ShareResult(failure: ShareError(.usage, message(of: error))))
            try? connection.emitSignal(
                to: sender, path: path, interface: ServiceNames.requestInterface, signal: "Response", arguments: response.encode())
            return
        }
        let path = handle ?? requestPath(sender: sender, token: call.token ?? generatedToken())
        guard requests[path] == nil else {
            for descriptor in call.descriptors { close(descriptor) }
            return returnError(invocation, "handle_token \(call.token ?? "") is in use by another request of yours")
        }
        let request = ServiceRequest(
            path: path, sender: sender, connection: connection, host: host, call: call, warn: warn,
            settingsExtras: settingsExtras,
            onEnd: { [weak self] ended in self?.requestEnded(ended) })
        guard request.export(interface: interface(ServiceNames.requestInterface)) else {
            for descriptor in call.descriptors { close(descriptor) }
            return returnError(invocation, "cannot make the request object \(path)")
        }
        requests[path] = request
        answer(path)
        // After the reply is on its way, so the caller has the handle before anything happens.
        Task { request.start() }
    }

    private func requestEnded(_ request: ServiceRequest) {
        requests[request.path] = nil
        restartIdleTimer()
    }

    private func requestPath(sender: String, token: String) -> String {
        ServiceNames.requestPath(sender: sender, token: token)
    }

    private func generatedToken() -> String {
        generatedTokens += 1
        return ServiceNames.generatedToken(process: getpid(), number: generatedTokens)
    }

    private func message(of error: any Error) -> String {
        if let problem = error as? ServiceCall.Problem { return problem.message }
        return ShareResult.Failure(error).message
    }

    private func returnError(_ invocation: DBusMethodInvocation, _ message: String) {
        invocation.returnError(DBusErrorName.invalidArgs, message)
    }

    // MARK: Idle and the end

    /// Notes that the service was used now. One task watches for the idle deadline and moves
    /// it on as calls come (a task made and cancelled per call cost 4–8 % of a ListActivities);
    /// at the deadline with a request open it stops, and the request's end starts it again.
    private func restartIdleTimer() {
        lastUse = .now
        guard idleTimer == nil else { return }
        let idleTime = self.idleTime
        idleTimer = Task { [weak self] in
            var deadline = ContinuousClock.now + idleTime
            while true {
                try? await Task.sleep(until: deadline, clock: .continuous)
                guard let self else { return }
                let due = self.lastUse + idleTime
                if due > .now {
                    deadline = due
                    continue
                }
                if self.keepsRunning() {
                    deadline = .now + idleTime
                    continue
                }
                self.idleTimer = nil
                if self.requests.isEmpty { self.stopServing() }
                return
            }
        }
    }

    /// Gives up the name, answers what is already on its way for a moment, then ends: calls
    /// that raced the idle deadline are served, later ones start a new service.
    private func stopServing() {
        ownership?.release()
        ownership = nil
        connection?.flush()
        Task { [weak self] in
            try? await Task.sleep(for: .milliseconds(250))
            self?.end(status: 0)
        }
    }

    private func end(status: Int32) {
        guard let ending else { return }
        self.ending = nil
        ending.resume(returning: status)
    }
}
